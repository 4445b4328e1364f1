import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { Resource } from '../engine/resource/resource.js';
import { withStoredDefaults } from '../loaders/kubernetes/api-server-defaults.js';
import { toKubernetesDocument } from '../loaders/kubernetes/kubernetes-shape.js';
import type { KubernetesKindOf } from '../loaders/kubernetes/printed-owner-references.js';
import { kubernetesFinalizer } from './printed-finalizers.js';

/** The timestamp printed for every resource with `--stable`. */
export const STABLE_TIMESTAMP = '2025-01-01T00:00:00Z';

export interface DocumentOptions {
  /** Pin timestamps so output can be diffed. */
  readonly stable?: boolean;
  /**
   * The Kubernetes kinds of the types owner references name: a Kubernetes object's references
   * print as kubectl's (`apiVersion`, `kind`, `name`, `uid`) for the owners it knows.
   */
  readonly ownerKinds?: KubernetesKindOf;
  /**
   * Keep a sensitive type's spec: for a document compared, never printed as it is (a test's
   * expectation; its diff masks the values, see `maskedDocumentFields`).
   */
  readonly includeSensitive?: boolean;
}

/**
 * A resource as printed in YAML and JSON: `{ metadata, spec }`, metadata keys in COSI's order
 * (namespace, type, id, version, owner, phase, created, updated, then labels, annotations,
 * finalizers and ownerReferences when not empty). Sensitive types print no spec. A resource of
 * a Kubernetes-shaped type (defined by a CRD) prints as Kubernetes writes it: `apiVersion`,
 * `kind`, `metadata` (with a derived `uid`, cosi's controllers' finalizers qualified, and owner
 * references as kubectl's when `options.ownerKinds` knows the owners' kinds), then its spec's
 * fields (see `loaders/kubernetes/kubernetes-shape.ts`); a built-in kind's with the API server's
 * defaults, as `kubectl get` prints the applied object.
 */
export function toDocument(
  resource: Resource,
  definition: ResourceDefinition | undefined,
  options: DocumentOptions = {},
): Record<string, unknown> {
  const md = resource.metadata;
  const metadata: Record<string, unknown> = {
    namespace: md.namespace,
    type: md.type,
    id: md.id,
    version: md.version,
    owner: md.owner,
    phase: md.phase,
    created: options.stable ? STABLE_TIMESTAMP : formatTime(md.created),
    updated: options.stable ? STABLE_TIMESTAMP : formatTime(md.updated),
  };
  if (Object.keys(md.labels).length > 0) metadata.labels = sortKeys(md.labels);
  if (Object.keys(md.annotations).length > 0) metadata.annotations = sortKeys(md.annotations);
  if (md.finalizers.length > 0) metadata.finalizers = [...md.finalizers];
  if (md.ownerReferences.length > 0)
    metadata.ownerReferences = md.ownerReferences.map((r) => ({ ...r }));
  const document =
    definition?.sensitivity === 'sensitive' && options.includeSensitive !== true
      ? { metadata }
      : { metadata, spec: withStoredDefaults(resource.spec, definition?.kubernetes) };
  if (definition?.kubernetes === undefined) return document;
  // Kubernetes' own field, printed only in its shape: cosi's metadata keeps COSI's.
  metadata.generation = md.generation;
  if (md.finalizers.length > 0) metadata.finalizers = md.finalizers.map(kubernetesFinalizer);
  return toKubernetesDocument(document, definition.kubernetes, options.ownerKinds);
}

/** RFC 3339 in UTC, without milliseconds when they are zero (as Go prints it). */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

function sortKeys(record: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(record).sort()) out[key] = record[key] as string;
  return out;
}
