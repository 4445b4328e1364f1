/**
 * Kubernetes-shaped documents (`apiVersion`, `kind`, `metadata.name`, ...) and cosi's resources,
 * both ways. The mapping:
 *
 * - `apiVersion` + `kind` name the type: the definition made from the CustomResourceDefinition
 *   that serves that group, version and kind (see `crd-definitions.ts`);
 * - `metadata.name` is the id (without a name, `metadata.generateName` and a suffix that stands
 *   for the document's place: {@link generatedName}), `metadata.namespace` the namespace (the
 *   type's default namespace,
 *   `default`, when absent, empty or null, as kubectl sends it), `metadata.labels` and `metadata.annotations` the labels and
 *   annotations;
 * - every other top-level field (`spec`, `status`, `data`, ...) is kept in the resource's spec, by
 *   its name: a Certificate's `spec.secretName` is the resource's `spec.spec.secretName`;
 * - what the API server sets (`uid`, `resourceVersion`, `creationTimestamp`, ...) is accepted and
 *   ignored, so that `cosi get -o yaml` output (and `kubectl get -o yaml`'s) reads back;
 *   `ownerReferences` are read by the load once the kinds are known
 *   (`manifest-owner-references.ts`).
 *
 * Output writes the same shape back: `apiVersion`, `kind`, `metadata` (name, namespace unless the
 * type is cluster-scoped, labels, annotations, `resourceVersion` from the version, `generation`
 * for the kinds that have one, `creationTimestamp`, `finalizers`, `ownerReferences` as kubectl
 * prints them, and a `uid` derived from the type, namespace and name, `object-uid.ts`), then the
 * spec's fields. cosi's owner and phase, which Kubernetes has no
 * field for, are the annotations `cosi.dev/owner` and `cosi.dev/phase`.
 */

import type { KubernetesKind } from '../../engine/resource/definition.js';
import type { OwnerReference } from '../../engine/resource/metadata.js';
import { objectUid } from '../../engine/resource/object-uid.js';
import { printedOwnerReferences, type KubernetesKindOf } from './printed-owner-references.js';
import { DNS1123_LABEL, dns1123LabelProblems } from './label-syntax.js';
import type { DocumentReport } from '../document-report.js';
import {
  checkId,
  describe,
  readStringMap,
  reportUnknownKeys,
  type KubernetesHeader,
  type ManifestHeader,
} from '../manifest-document.js';
import { isPlainObject } from '../manifest-document.js';

/** The annotation that carries cosi's owner (the controller that wrote a resource) in output. */
export const OWNER_ANNOTATION = 'cosi.dev/owner';
/** The annotation that carries cosi's phase in output, when it is `tearingDown`. */
export const PHASE_ANNOTATION = 'cosi.dev/phase';

/** The top-level fields that are not the resource's spec. */
const ENVELOPE_KEYS = new Set(['apiVersion', 'kind', 'metadata']);
const METADATA_KEYS = new Set(['name', 'generateName', 'namespace', 'labels', 'annotations']);
/** Set by the API server (or by cosi's output): accepted and ignored here (ownerReferences: see the module comment). */
const READ_ONLY_METADATA_KEYS = new Set([
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'managedFields',
  'selfLink',
  'finalizers',
  'ownerReferences',
]);

/** Whether a document is Kubernetes-shaped: it has an `apiVersion` or a `kind`. */
export function isKubernetesShaped(value: unknown): value is Record<string, unknown> {
  return (
    isPlainObject(value) &&
    (Object.prototype.hasOwnProperty.call(value, 'apiVersion') ||
      Object.prototype.hasOwnProperty.call(value, 'kind'))
  );
}

/** `cert-manager.io/v1` as its group and version; `v1` is the core group's (group `''`). */
export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.lastIndexOf('/');
  return slash === -1
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

/** `group/Kind` of a Kubernetes identity (`cert-manager.io/Certificate`, `/ConfigMap`). */
export function groupKindOf(identity: {
  readonly apiVersion: string;
  readonly kind: string;
}): string {
  return `${splitApiVersion(identity.apiVersion).group}/${identity.kind}`;
}

/**
 * Whether an apiVersion reads as `group/version` or `version` (kubectl's `unexpected GroupVersion
 * string` otherwise: `example.com/v1/v2`, `/v1`, `apps/`), reported at it when it does not.
 */
function isGroupVersion(apiVersion: string, report: DocumentReport): boolean {
  const parts = apiVersion.split('/');
  if (parts.length <= 2 && parts.every((part) => part.length > 0)) return true;
  report.add(
    'unknown-type',
    '/apiVersion',
    `apiVersion ${JSON.stringify(apiVersion)} is not a group/version: write one / at most (apps/v1, cert-manager.io/v1), or the version alone for the core group (v1)`,
    { rule: 'invalid-api-version' },
  );
  return false;
}

/**
 * Reads a Kubernetes-shaped document's header (see the module comment for the mapping), reporting
 * every field that is missing, of the wrong type or unknown. The type is left to be resolved from
 * `kubernetes` (absent when `apiVersion` or `kind` is unusable). What is wrong with `metadata`
 * goes to `metadataReport`: the load reports it once it knows the document is checked.
 */
export function readKubernetesHeader(
  value: Record<string, unknown>,
  report: DocumentReport,
  metadataReport: DocumentReport = report,
): ManifestHeader {
  const apiVersion = readField(value, 'apiVersion', '/apiVersion', report);
  const kind = readField(value, 'kind', '/kind', report);
  const spec: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (!ENVELOPE_KEYS.has(key)) spec[key] = item;
  }
  const header: { -readonly [K in keyof ManifestHeader]: ManifestHeader[K] } = {
    labels: {},
    annotations: {},
    spec,
  };
  const wellFormed = apiVersion === undefined || isGroupVersion(apiVersion, report);
  if (apiVersion !== undefined && kind !== undefined && wellFormed) {
    const kubernetes: KubernetesHeader = {
      apiVersion,
      ...splitApiVersion(apiVersion),
      kind,
      document: value,
    };
    header.kubernetes = kubernetes;
  }
  if (!Object.prototype.hasOwnProperty.call(value, 'metadata')) {
    metadataReport.add('missing-field', '/metadata', 'the document has no metadata (with a name)');
    return header;
  }
  const metadata = value.metadata;
  if (!isPlainObject(metadata)) {
    metadataReport.add(
      'wrong-type',
      '/metadata',
      `metadata must be a mapping, not ${describe(metadata)}`,
    );
    return header;
  }
  reportUnknownKeys(metadata, METADATA_KEYS, ['metadata'], metadataReport, READ_ONLY_METADATA_KEYS);
  if (
    !Object.prototype.hasOwnProperty.call(metadata, 'name') &&
    Object.prototype.hasOwnProperty.call(metadata, 'generateName')
  ) {
    const prefix = readField(metadata, 'generateName', '/metadata/generateName', metadataReport);
    if (prefix !== undefined) {
      header.id = generatedName(prefix, metadataReport);
      checkId(header.id, metadataReport, '/metadata/generateName');
    }
  } else {
    const name = readField(metadata, 'name', '/metadata/name', metadataReport);
    if (name !== undefined) {
      checkId(name, metadataReport, '/metadata/name', true);
      header.id = name;
    }
  }
  // kubectl sends an object whose namespace is empty (`""`, or null, which Go decodes as `""`)
  // to its context's namespace, as one without: a Helm value left unset renders that.
  if (
    Object.prototype.hasOwnProperty.call(metadata, 'namespace') &&
    metadata.namespace !== '' &&
    metadata.namespace !== null
  ) {
    const namespace = readField(metadata, 'namespace', '/metadata/namespace', metadataReport);
    if (namespace !== undefined && !isNamespaceName(namespace)) {
      // `ValidateNamespaceName`: a Kubernetes namespace is a DNS-1123 label, no dots.
      metadataReport.add(
        'invalid-namespace',
        '/metadata/namespace',
        `Invalid value: ${JSON.stringify(namespace)}: ${dns1123LabelProblems(namespace)[0] ?? ''}`,
      );
      header.namespaceRefused = true;
    } else if (namespace !== undefined) {
      header.namespace = namespace;
    }
  }
  header.labels = readStringMap(metadata, 'labels', metadataReport);
  header.annotations = readStringMap(metadata, 'annotations', metadataReport);
  const owner = header.annotations[OWNER_ANNOTATION];
  if (owner !== undefined && owner !== '') {
    metadataReport.add(
      'controller-output',
      `/metadata/annotations/${OWNER_ANNOTATION.replace('/', '~1')}`,
      `this is the output of controller ${JSON.stringify(owner)}, not a manifest: the controller writes it from its inputs; leave it out of the manifests`,
    );
  }
  return header;
}

/** The characters the API server draws a generated name's suffix from (no vowels, no 0, 1, 3). */
const SUFFIX_ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const SUFFIX_LENGTH = 5;

/**
 * The id of a document with `metadata.generateName` and no name. The API server appends five
 * random characters; cosi appends five of the same alphabet drawn from a hash of where the
 * document is (its file as given, its index in the file, its place in a `kind: List`), so that a
 * run, and a run on the previous revision, give the same id to the same document, and two
 * documents with one generateName get two ids.
 */
export function generatedName(prefix: string, report: DocumentReport): string {
  const place = `${report.document.file}\0${report.document.index}\0${report.pointer('')}`;
  // node:crypto is loaded by the first document that needs a digest, not by every start.
  const digest = process
    .getBuiltinModule('node:crypto')
    .createHash('sha256')
    .update(place)
    .digest();
  let suffix = '';
  for (let i = 0; i < SUFFIX_LENGTH; i++) {
    suffix += SUFFIX_ALPHABET.charAt((digest[i] ?? 0) % SUFFIX_ALPHABET.length);
  }
  return prefix + suffix;
}

/** A required string field; reported when missing or not a string. */
function readField(
  object: Record<string, unknown>,
  key: string,
  pointer: string,
  report: DocumentReport,
): string | undefined {
  const where = pointer.slice(1).replaceAll('/', '.');
  if (!Object.prototype.hasOwnProperty.call(object, key)) {
    // The API server's words: a name may be generated instead.
    const what = pointer === '/metadata/name' ? 'metadata.name (or metadata.generateName)' : where;
    report.add('missing-field', pointer, `${what} is required`);
    return undefined;
  }
  const value = object[key];
  if (typeof value !== 'string' || value === '') {
    report.add(
      'wrong-type',
      pointer,
      `${where} must be a non-empty string, not ${describe(value)}`,
    );
    return undefined;
  }
  return value;
}

/**
 * cosi's printed document (`{ metadata, spec? }`, as `cosi get -o yaml` writes it) in the
 * Kubernetes shape of its type: see the module comment. `ownerKinds` tells the kinds of the
 * owners its references name (`printed-owner-references.ts`).
 */
export function toKubernetesDocument(
  document: { readonly metadata: Record<string, unknown>; readonly spec?: unknown },
  kind: KubernetesKind,
  ownerKinds?: KubernetesKindOf,
): Record<string, unknown> {
  const md = document.metadata;
  const metadata: Record<string, unknown> = { name: md.id };
  if (kind.namespaced) metadata.namespace = md.namespace;
  if (md.labels !== undefined) metadata.labels = md.labels;
  const annotations: Record<string, unknown> = { ...(md.annotations as object | undefined) };
  if (typeof md.owner === 'string' && md.owner !== '') annotations[OWNER_ANNOTATION] = md.owner;
  if (md.phase === 'tearingDown') annotations[PHASE_ANNOTATION] = md.phase;
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  metadata.resourceVersion = String(md.version);
  if (kind.generation !== false && typeof md.generation === 'number' && md.generation > 0) {
    metadata.generation = md.generation;
  }
  // As the API server writes a metav1.Time: RFC 3339 to the second (cosi keeps milliseconds).
  metadata.creationTimestamp =
    typeof md.created === 'string' ? md.created.replace(/\.\d+Z$/, 'Z') : md.created;
  if (md.finalizers !== undefined) metadata.finalizers = md.finalizers;
  if (Array.isArray(md.ownerReferences)) {
    metadata.ownerReferences = printedOwnerReferences(
      md.ownerReferences as OwnerReference[],
      md.namespace as string,
      ownerKinds,
    );
  }
  metadata.uid = objectUid(
    md.type as string,
    kind.namespaced ? (md.namespace as string) : undefined,
    md.id as string,
  );
  const out: Record<string, unknown> = { apiVersion: kind.apiVersion, kind: kind.kind, metadata };
  if (isPlainObject(document.spec)) {
    for (const [key, value] of Object.entries(document.spec)) {
      if (!ENVELOPE_KEYS.has(key)) out[key] = value;
    }
  }
  return out;
}

/** Whether a Kubernetes object's namespace is a name the API server takes (a DNS-1123 label). */
function isNamespaceName(namespace: string): boolean {
  return namespace.length <= 63 && DNS1123_LABEL.test(namespace);
}
