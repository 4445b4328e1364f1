import type { MutableMetadata } from '../engine/resource/metadata.js';
import { CorruptValueError } from './etcd-errors.js';
import { freezeResource, type AnyResource, type Resource } from '../engine/resource/resource.js';

/**
 * How a resource is stored in etcd: JSON of its metadata (with the version, phase, owner,
 * finalizers, labels, annotations, owner references and timestamps) and its spec. Specs are
 * plain data (see plain-data.ts), so JSON keeps them exactly. The version is the resource's
 * own; etcd's revisions are used for compare-and-swap and bookmarks, never shown.
 */
export function encodeResource(resource: AnyResource): Buffer {
  return Buffer.from(JSON.stringify({ metadata: resource.metadata, spec: resource.spec }));
}

/**
 * The stored resource, frozen as every state hands resources out.
 *
 * @throws CorruptValueError naming `key` when the value is not JSON of a resource.
 */
export function decodeResource(key: string, value: Buffer): Resource {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value.toString('utf8'));
  } catch (error) {
    throw new CorruptValueError(key, error instanceof Error ? error.message : String(error));
  }
  const metadata = isObject(parsed) ? parsed.metadata : undefined;
  if (
    !isObject(parsed) ||
    !isObject(metadata) ||
    typeof metadata.id !== 'string' ||
    typeof metadata.type !== 'string' ||
    typeof metadata.namespace !== 'string' ||
    typeof metadata.version !== 'number'
  ) {
    throw new CorruptValueError(key, 'not an object with metadata (id, type, namespace, version)');
  }
  // Written before resources had a generation: count from the first.
  if (typeof metadata.generation !== 'number') metadata.generation = 1;
  // Written by hand with only what is checked above: the rest as a new resource has it.
  for (const [field, empty] of DEFAULTS) {
    if (metadata[field] === undefined) metadata[field] = empty();
  }
  const shapeError = wrongShape(metadata);
  if (shapeError !== undefined) throw new CorruptValueError(key, shapeError);
  return freezeResource({ metadata: metadata as unknown as MutableMetadata, spec: parsed.spec });
}

const DEFAULTS: readonly (readonly [string, () => unknown])[] = [
  ['owner', () => ''],
  ['phase', () => 'running'],
  ['finalizers', () => []],
  ['labels', () => ({})],
  ['annotations', () => ({})],
  ['created', () => 0],
  ['updated', () => 0],
  ['ownerReferences', () => []],
];

/** What is wrong with the collections of stored metadata, if anything. */
function wrongShape(metadata: Record<string, unknown>): string | undefined {
  for (const field of ['finalizers', 'ownerReferences']) {
    if (!Array.isArray(metadata[field])) return `metadata.${field} is not a list`;
  }
  for (const field of ['labels', 'annotations']) {
    if (!isObject(metadata[field])) return `metadata.${field} is not an object`;
  }
  return undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
