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
  return freezeResource({ metadata: metadata as unknown as MutableMetadata, spec: parsed.spec });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
