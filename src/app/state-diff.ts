import { compareStrings } from '../engine/compare-strings.js';
import { pointerKey } from '../engine/resource/pointer.js';
import { deepEqual } from '../engine/resource/plain-data.js';
import type { AnyResource, Resource } from '../engine/resource/resource.js';
import { applyOver, applyOwnersOver } from '../engine/state/apply-over.js';
import type { LastApplied } from '../engine/state/resource-applier.js';

/** What applying the manifests would do to one resource of the state. */
export type DiffAction = 'create' | 'change' | 'remove';

/** The part of a resource an apply writes: what a diff compares and shows. */
export interface AppliedContent {
  readonly metadata: {
    readonly namespace: string;
    readonly type: string;
    readonly id: string;
    readonly labels?: Readonly<Record<string, string>>;
    readonly annotations?: Readonly<Record<string, string>>;
    /**
     * Its owner references (when any): cosi's `{ type, id, ... }`, or, for an object whose owners
     * are Kubernetes kinds, as kubectl prints them (see `diff-project.ts`).
     */
    readonly ownerReferences?: readonly object[];
  };
  readonly spec: unknown;
}

/** One resource that applying the manifests would create, change or remove. */
export interface ResourceChange {
  readonly action: DiffAction;
  readonly type: string;
  readonly namespace: string;
  readonly id: string;
  /** What the state holds now (none for a create). */
  readonly live?: AppliedContent;
  /** What the manifests hold (none for a remove). */
  readonly desired?: AppliedContent;
  /**
   * A Kubernetes kind's identity: the resource is shown as the object it is (`apiVersion`,
   * `kind`, `metadata.name`, its fields), as `kubectl diff` shows it, and a cluster-scoped one
   * without the namespace cosi keeps it in.
   */
  readonly kubernetes?: KubernetesIdentity;
}

/** What a diff shows of a Kubernetes kind. */
export interface KubernetesIdentity {
  readonly apiVersion: string;
  readonly kind: string;
  readonly namespaced: boolean;
}

/**
 * What applying `desired` (the manifests' resources) to a state holding `live` would change, as
 * `cosi run` applies them (`ResourceApplier`): a resource the state lacks is created, one whose
 * spec, labels, annotations or owner references differ is changed (the other metadata is the
 * state's own; labels, annotations, owner references and a `status` that the live resource has
 * and the manifest never set are kept, as the applier keeps them: see `applyOver` and
 * `applyOwnersOver`), and a
 * manifest's resource (no owner) that the manifests no longer have is removed (given the set
 * `cosi run` applied last, only one of those: what it prunes). Controllers'
 * outputs (an owner) and resources already tearing down are never removed by an apply: they
 * are left out. Sorted by type, namespace and id; linear in both lists (one map of `live`).
 */
export function diffAgainstState(
  desired: readonly AnyResource[],
  live: readonly Resource[],
  options: {
    /**
     * `false`: nothing is removed (definitions: `cosi run` stores them and never removes any).
     * A set of pointer keys: only those are removed (what `cosi run` applied and would prune).
     */
    readonly removes?: boolean | ReadonlySet<string>;
    /**
     * Top-level spec fields of a type that controllers write (a Kubernetes kind's `status`):
     * kept from the live resource when the manifest lacks them, as `cosi run` keeps them.
     */
    readonly keptSpecFields?: (type: string) => readonly string[];
    /**
     * The labels and annotations the last `cosi run` applied from each resource's manifest, the
     * owners its owner references named and the kept spec fields it set, by pointer key (its
     * applied set): those a manifest dropped since are shown removed.
     */
    readonly lastApplied?: (key: string) => LastApplied | undefined;
  } = {},
): ResourceChange[] {
  const byKey = new Map<string, Resource>();
  for (const resource of live) byKey.set(pointerKey(resource.metadata), resource);
  const changes: ResourceChange[] = [];
  const wanted = new Set<string>();
  for (const resource of desired) {
    const key = pointerKey(resource.metadata);
    wanted.add(key);
    const current = byKey.get(key);
    if (current === undefined) {
      changes.push({ action: 'create', ...pointerOf(resource), desired: appliedContent(resource) });
      continue;
    }
    // What `cosi run` writes over it: labels, annotations and a status a controller added stay.
    const last = options.lastApplied?.(key);
    const written = applyOver(fieldsOf(current), fieldsOf(resource), {
      keptSpecFields: options.keptSpecFields?.(resource.metadata.type) ?? [],
      ...(last === undefined ? {} : { lastApplied: { ...last, spec: last.spec } }),
    });
    const next = {
      metadata: {
        ...resource.metadata,
        labels: written.labels,
        annotations: written.annotations,
        ownerReferences:
          applyOwnersOver(
            current.metadata.ownerReferences,
            resource.metadata.ownerReferences,
            last?.ownerReferences,
          ) ?? current.metadata.ownerReferences,
      },
      spec: written.spec,
    } as AnyResource;
    if (!sameContent(current, next)) {
      changes.push({
        action: 'change',
        ...pointerOf(resource),
        live: appliedContent(current),
        desired: appliedContent(next),
      });
    }
  }
  const { removes = true } = options;
  if (removes === false) return changes.sort(compareChanges);
  for (const resource of live) {
    const { owner, phase } = resource.metadata;
    if (owner !== '' || phase === 'tearingDown') continue;
    const key = pointerKey(resource.metadata);
    if (wanted.has(key) || (removes !== true && !removes.has(key))) continue;
    changes.push({ action: 'remove', ...pointerOf(resource), live: appliedContent(resource) });
  }
  return changes.sort(compareChanges);
}

/** By type, namespace and id. */
export function compareChanges(a: ResourceChange, b: ResourceChange): number {
  return (
    compareStrings(a.type, b.type) ||
    compareStrings(a.namespace, b.namespace) ||
    compareStrings(a.id, b.id)
  );
}

function pointerOf(resource: AnyResource): { type: string; namespace: string; id: string } {
  const { type, namespace, id } = resource.metadata;
  return { type, namespace, id };
}

function sameContent(a: AnyResource, b: AnyResource): boolean {
  return (
    deepEqual(a.spec, b.spec) &&
    deepEqual(a.metadata.labels, b.metadata.labels) &&
    deepEqual(a.metadata.annotations, b.metadata.annotations) &&
    deepEqual(a.metadata.ownerReferences, b.metadata.ownerReferences)
  );
}

function fieldsOf(resource: AnyResource): {
  labels: Readonly<Record<string, string>>;
  annotations: Readonly<Record<string, string>>;
  spec: unknown;
} {
  const { labels, annotations } = resource.metadata;
  return { labels, annotations, spec: resource.spec };
}

/** The resource as a manifest would write it: its pointer, labels and annotations (when any), spec. */
function appliedContent(resource: AnyResource): AppliedContent {
  const { namespace, type, id, labels, annotations, ownerReferences } = resource.metadata;
  return {
    metadata: {
      namespace,
      type,
      id,
      ...(Object.keys(labels).length > 0 ? { labels } : {}),
      ...(Object.keys(annotations).length > 0 ? { annotations } : {}),
      ...(ownerReferences.length > 0 ? { ownerReferences } : {}),
    },
    spec: resource.spec,
  };
}
