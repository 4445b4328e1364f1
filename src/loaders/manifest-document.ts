import { NAMESPACE_PATTERN } from '../engine/resource/definition.js';
import type { FindingSink } from './finding-sink.js';
import { didYouMean } from './did-you-mean.js';
import { jsonPointer } from './json-pointer.js';
import { shorten } from './shorten.js';
import type { ManifestHeader } from './manifest-header.js';

export type { KubernetesHeader, ManifestHeader } from './manifest-header.js';

const TOP_LEVEL_KEYS = new Set(['metadata', 'spec']);
const METADATA_KEYS = new Set(['namespace', 'type', 'id', 'labels', 'annotations']);
/**
 * What `cosi get -o yaml` (and `talosctl get -o yaml`) print beside the manifest fields: the
 * state sets them, so on input they are accepted and ignored, and a round trip works.
 */
const READ_ONLY_METADATA_KEYS = new Set([
  'version',
  'owner',
  'phase',
  'created',
  'updated',
  'finalizers',
  'ownerReferences',
]);

/** Ids are free-form (COSI uses slashes, colons, dots) but must be visible and on one line. */
const INVISIBLE_CHARACTER = /[\s\p{Cc}\p{Cf}]/u;
/** The common case, checked first because it is cheaper than the Unicode classes above. */
const VISIBLE_ASCII = /^[\x21-\x7e]*$/;
const MAX_ID_LENGTH = 253;

/**
 * Reads `{ metadata: { namespace?, type, id, labels?, annotations? }, spec }` out of a document's
 * data, reporting every field that is missing, of the wrong type, invalid or unknown.
 *
 * @param idRequired whether a document of this type must have an id (definitions need none).
 */
export function readManifestHeader(
  value: unknown,
  report: FindingSink,
  idRequired: (type: string) => boolean,
): ManifestHeader | undefined {
  if (!isPlainObject(value)) {
    report.add(
      'not-a-mapping',
      '',
      // A list at the top (a program's own settings: Prometheus' additional scrape configs) is
      // no manifest at all.
      Array.isArray(value)
        ? `not a manifest: a document is a mapping (a Kubernetes object with apiVersion, kind and metadata, or a cosi document with metadata and spec), not ${describe(value)}; if the file holds no manifest, leave it out with --ignore or .cosiignore`
        : `a manifest document must be a mapping with metadata and spec, not ${describe(value)}`,
    );
    return undefined;
  }
  const spec = Object.prototype.hasOwnProperty.call(value, 'spec') ? value.spec : {};
  const empty = { labels: {}, annotations: {}, spec };
  if (isNoManifest(value)) {
    // A program's own settings in YAML (Cassandra's cassandra.yaml: 90 keys): one finding, not
    // an unknown key each.
    const keys = Object.keys(value);
    const shown = keys.slice(0, 3).map((k) => JSON.stringify(shorten(k)));
    report.add(
      'missing-field',
      '/metadata',
      `not a manifest: its keys (${shown.join(', ')}${keys.length > 3 ? ` and ${keys.length - 3} more` : ''}) are none of a Kubernetes object's (apiVersion, kind, metadata) nor of a cosi document's (metadata, spec); if the file holds no manifest, leave it out with --ignore or .cosiignore`,
    );
    return empty;
  }
  reportUnknownKeys(value, TOP_LEVEL_KEYS, [], report, new Set(), (key) =>
    notIndentedHint(value, key),
  );
  if (!Object.prototype.hasOwnProperty.call(value, 'metadata')) {
    report.add('missing-field', '/metadata', 'the document has no metadata');
    return empty;
  }
  const metadata = value.metadata;
  if (!isPlainObject(metadata)) {
    const strayed = metadata === null ? Object.keys(value).filter((k) => METADATA_KEYS.has(k)) : [];
    report.add(
      'wrong-type',
      '/metadata',
      `metadata must be a mapping, not ${describe(metadata)}${strayed.length > 0 ? `: ${strayed.join(', ')} ${strayed.length === 1 ? 'is' : 'are'} beside it, not under it (indent ${strayed.length === 1 ? 'it' : 'them'} under metadata)` : ''}`,
    );
    return empty;
  }
  const has = (key: string): boolean => Object.prototype.hasOwnProperty.call(metadata, key);
  if (!has('type') && (has('name') || !has('id'))) {
    // A Kubernetes object without its apiVersion and kind (a docs snippet, a ytt overlay, a
    // patch), or neither kind of document: one finding that says so, not cosi's metadata rules
    // broken key by key.
    report.add(
      'missing-field',
      '',
      has('name')
        ? 'a Kubernetes object (metadata.name) needs an apiVersion and a kind; without them it reads as a cosi document, which names metadata.type and metadata.id. If the file is a patch or template (kustomize, ytt), render it first or leave it out with --ignore'
        : 'neither a Kubernetes object (it has no apiVersion and kind) nor a cosi document (its metadata names no type): if the file is a patch or an overlay (kustomize, ytt), render it first or leave it out with --ignore',
    );
    return empty;
  }
  reportUnknownKeys(
    metadata,
    METADATA_KEYS,
    ['metadata'],
    report,
    READ_ONLY_METADATA_KEYS,
    (key) =>
      key === 'spec' && !Object.prototype.hasOwnProperty.call(value, 'spec')
        ? '; is it indented too far? spec belongs at the top level, beside metadata'
        : '',
  );
  reportReadOnlyMetadata(metadata, report);
  const type = readString(metadata, 'type', report, true);
  const id = readString(metadata, 'id', report, type !== undefined && idRequired(type));
  if (id !== undefined) checkId(id, report);
  let namespace = readString(metadata, 'namespace', report, false);
  let refused = false;
  if (namespace !== undefined && !NAMESPACE_PATTERN.test(namespace)) {
    report.add(
      'invalid-namespace',
      '/metadata/namespace',
      `the namespace ${JSON.stringify(shorten(namespace))} does not match ${String(NAMESPACE_PATTERN)}`,
    );
    namespace = undefined;
    refused = true;
  }
  const header: Mutable<ManifestHeader> = {
    labels: readStringMap(metadata, 'labels', report),
    annotations: readStringMap(metadata, 'annotations', report),
    spec,
  };
  if (type !== undefined) header.type = type;
  if (id !== undefined) header.id = id;
  if (namespace !== undefined) header.namespace = namespace;
  if (refused) header.namespaceRefused = true;
  return header;
}

/** The keys of a manifest, either shape's, that a document's keys are compared with. */
const MANIFEST_KEYS = ['apiVersion', 'kind', 'metadata', 'spec'];

/**
 * Whether a mapping is no manifest of either shape: keys, none of them a manifest's nor a
 * misspelling of one (`metdata` is a manifest's, misspelt, and says so).
 */
function isNoManifest(value: Record<string, unknown>): boolean {
  const keys = Object.keys(value);
  return (
    keys.length > 0 &&
    keys.every((k) => !MANIFEST_KEYS.includes(k) && didYouMean(k, MANIFEST_KEYS) === undefined)
  );
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function readString(
  metadata: Record<string, unknown>,
  key: 'type' | 'id' | 'namespace',
  report: FindingSink,
  required: boolean,
): string | undefined {
  if (!Object.prototype.hasOwnProperty.call(metadata, key)) {
    if (required) report.add('missing-field', `/metadata/${key}`, `metadata.${key} is required`);
    return undefined;
  }
  const value = metadata[key];
  if (typeof value !== 'string') {
    report.add(
      'wrong-type',
      `/metadata/${key}`,
      `metadata.${key} must be a string, not ${describe(value)}`,
    );
    return undefined;
  }
  return value;
}

/**
 * Reports an id that is empty, too long or not visible on one line. `spaces`: a Kubernetes
 * name, whose kind's own rule says whether it may hold a space (an RBAC name may: it need only
 * be a path segment, as `ops team reader`).
 */
export function checkId(
  id: string,
  report: FindingSink,
  pointer = '/metadata/id',
  spaces = false,
): void {
  let problem: string | undefined;
  if (id.length === 0) problem = 'it is empty';
  else if (id.length > MAX_ID_LENGTH) problem = `it is longer than ${MAX_ID_LENGTH} characters`;
  else if (
    !VISIBLE_ASCII.test(id) &&
    INVISIBLE_CHARACTER.test(spaces ? id.replaceAll(' ', '') : id)
  )
    problem = 'it contains whitespace or control characters';
  if (problem !== undefined) {
    report.add(
      'invalid-id',
      pointer,
      `the id ${JSON.stringify(shorten(id))} is invalid: ${problem}`,
    );
  }
}

/**
 * Reads `metadata.labels` or `metadata.annotations`, reporting what is not a string; a null value
 * is the empty string, as the API server reads it.
 */
export function readStringMap(
  metadata: Record<string, unknown>,
  key: 'labels' | 'annotations',
  report: FindingSink,
): Record<string, string> {
  if (!Object.prototype.hasOwnProperty.call(metadata, key)) return {};
  const value = metadata[key];
  // `labels:` with nothing after it is no labels.
  if (value === null) return {};
  if (!isPlainObject(value)) {
    report.add(
      'wrong-type',
      `/metadata/${key}`,
      `metadata.${key} must be a mapping of strings, not ${describe(value)}`,
    );
    return {};
  }
  let valid = true;
  for (const name of Object.keys(value)) {
    const item = value[name];
    if (key === 'labels' && (name === '' || INVISIBLE_CHARACTER.test(name))) {
      valid = false;
      report.add(
        'wrong-type',
        jsonPointer(['metadata', key, name]),
        `the label key ${JSON.stringify(shorten(name))} is invalid: it is empty or contains whitespace or control characters`,
        { part: 'key', rule: 'label-key' },
      );
      continue;
    }
    if (typeof item === 'string') continue;
    if (item === null) {
      // The API server decodes a null in a map of strings as "" (kubectl apply to an object
      // that has the key deletes it): `breakglass:` with nothing after it is the empty value.
      value[name] = '';
      continue;
    }
    valid = false;
    report.add(
      'wrong-type',
      jsonPointer(['metadata', key, name]),
      `the value of ${key === 'labels' ? 'label' : 'annotation'} ${JSON.stringify(shorten(name))} must be a string, not ${describe(item)} (quote it)`,
    );
  }
  // The document's own object: freshly parsed, and copied again when the resource is made.
  return valid ? (value as Record<string, string>) : {};
}

/** Reports each key of `object` that is neither known nor tolerated, at the key. */
export function reportUnknownKeys(
  object: Record<string, unknown>,
  known: ReadonlySet<string>,
  at: readonly string[],
  report: FindingSink,
  tolerated: ReadonlySet<string> = new Set(),
  hint: (key: string) => string = () => '',
): void {
  for (const key of Object.keys(object)) {
    if (!known.has(key) && !tolerated.has(key)) {
      const where = at.length === 0 ? 'a manifest document' : at.join('.');
      report.add(
        'unknown-key',
        jsonPointer([...at, key]),
        `unknown key ${JSON.stringify(shorten(key))} in ${where}${suggestion(key, known)} (expected ${[...known].join(', ')})${hint(key)}`,
        { part: 'key' },
      );
    }
  }
}

/**
 * Why a top-level key a document does not take is there, when it is the usual slip of
 * indentation: the key comes after an empty `spec:` (or, a metadata field, an empty `metadata:`)
 * that it was meant to be under. Empty otherwise.
 */
function notIndentedHint(document: Record<string, unknown>, key: string): string {
  const keys = Object.keys(document);
  const emptyBefore = (parent: string): boolean =>
    document[parent] === null && keys.includes(parent) && keys.indexOf(parent) < keys.indexOf(key);
  const parent =
    METADATA_KEYS.has(key) && emptyBefore('metadata')
      ? 'metadata'
      : emptyBefore('spec')
        ? 'spec'
        : undefined;
  return parent === undefined
    ? ''
    : `; ${parent} above it is empty: is it meant to be indented under ${parent}?`;
}

/** ` (did you mean "type"?)` for a key near a known one; empty for none. */
function suggestion(key: string, known: Iterable<string>): string {
  const guess = didYouMean(key, [...known]);
  return guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`;
}

/**
 * Read-only metadata on input: a note that it is ignored (one per document), or, when it names a
 * controller as the owner, an error: that document is a controller's output, printed by `get`,
 * and applying it would fight the controller.
 */
function reportReadOnlyMetadata(metadata: Record<string, unknown>, report: FindingSink): void {
  const present = Object.keys(metadata).filter((key) => READ_ONLY_METADATA_KEYS.has(key));
  if (present.length === 0) return;
  const owner = metadata.owner;
  if (typeof owner === 'string' && owner !== '') {
    report.add(
      'controller-output',
      '/metadata/owner',
      `this is the output of controller ${JSON.stringify(shorten(owner))}, not a manifest: the controller writes it from its inputs; leave it out of the manifests`,
    );
    return;
  }
  report.add(
    'read-only-metadata',
    jsonPointer(['metadata', present[0] as string]),
    `metadata.${present.join(', metadata.')} ${present.length === 1 ? 'is' : 'are'} set by the state, not by manifests: ignored`,
    { part: 'key' },
  );
}

/** A mapping as parsed from YAML. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A mapping field's value, `undefined` when it is none (a list, a scalar, absent). */
export function objectOrUndefined(value: unknown): Record<string, unknown> | undefined {
  return isPlainObject(value) ? value : undefined;
}

/** A field's string value, `''` when it holds none (absent, or of another type). */
export function stringOrEmpty(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A short description of a value's kind, for messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a sequence';
  if (typeof value === 'string') return `the string ${JSON.stringify(shorten(value))}`;
  if (typeof value === 'number' || typeof value === 'boolean')
    return `the ${typeof value} ${value}`;
  return 'a mapping';
}
