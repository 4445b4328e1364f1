import type { Resource } from '../engine/resource/resource.js';
import type { ResourceEvent } from '../engine/state/state.js';
import { HistoryCompactedError } from '../engine/errors.js';
import type { BookmarkCodec } from './bookmark.js';
import type { EtcdChange } from './etcd-watch.js';
import type { DecodedCache } from './decoded-cache.js';
import { CorruptValueError } from './etcd-errors.js';
import type { WatchedValueMap } from './watched-values.js';

/**
 * The value of every key in a watch's range as of the last change the watch handed on: the
 * watch's start (a list, or a read of its one key, at the revision before it), then each change
 * it reads, in revision order. A watch that keeps it knows the value before each change without
 * asking etcd for it (`prev_kv`, which etcd reads from its backend for every event of every
 * watch that asks).
 */
export type WatchedValues = WatchedValueMap;

/**
 * A change of a key the watch should have known and did not: the watch cannot tell what the
 * change replaced, and ends (a watcher then starts again from a fresh list).
 */
export class UntrackedChangeError extends Error {
  constructor(key: string, revision: number) {
    super(`the watch of ${key} has no value of it before revision ${revision}`);
    this.name = 'UntrackedChangeError';
  }
}

/**
 * The state event of an etcd change of a resource key: a put of the key's first version is a
 * create. The value before the change comes from `watched` when the watch keeps it, else from
 * the change (etcd read it from its history: when compaction has removed it, the change cannot be
 * told as an update or a destroy, and the watch must end, a {@link HistoryCompactedError}).
 */
export function toEvent(
  change: EtcdChange,
  codec: BookmarkCodec,
  decoded: DecodedCache,
  watched?: WatchedValues,
): ResourceEvent | HistoryCompactedError | CorruptValueError | UntrackedChangeError {
  try {
    return decodeEvent(change, codec, decoded, watched);
  } catch (error) {
    // A value no resource can be read from ends the watch of its kind, with the key named.
    if (error instanceof CorruptValueError) return error;
    throw error;
  }
}

function decodeEvent(
  change: EtcdChange,
  codec: BookmarkCodec,
  decoded: DecodedCache,
  watched: WatchedValues | undefined,
): ResourceEvent | HistoryCompactedError | UntrackedChangeError {
  const key = change.kv.key.toString();
  const bookmark = codec.encode(change.revision, key);
  const before = (): Resource | HistoryCompactedError | UntrackedChangeError => {
    if (watched !== undefined) {
      return watched.get(key) ?? new UntrackedChangeError(key, change.revision);
    }
    const { prev } = change;
    return prev ? decoded.decode(key, prev) : new HistoryCompactedError(change.revision - 1);
  };
  if (change.type === 'delete') {
    const resource = before();
    if (resource instanceof Error) return resource;
    watched?.delete(key);
    decoded.forget(key, change.revision);
    return { type: 'destroyed', resource, bookmark };
  }
  const resource = decoded.decode(key, change.kv);
  if (change.kv.version === '1') {
    watched?.set(key, resource);
    return { type: 'created', resource, bookmark };
  }
  const old = before();
  if (old instanceof Error) return old;
  watched?.set(key, resource);
  return { type: 'updated', resource, old, bookmark };
}
