import type { MutableMetadata } from '../engine/resource/metadata.js';
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

/** The stored resource, frozen as every state hands resources out. */
export function decodeResource(value: Buffer): Resource {
  const parsed = JSON.parse(value.toString('utf8')) as { metadata: MutableMetadata; spec: unknown };
  return freezeResource({ metadata: parsed.metadata, spec: parsed.spec });
}
