import type { ResourceEvent } from '../engine/state/state.js';
import { HistoryCompactedError } from '../engine/errors.js';
import type { BookmarkCodec } from './bookmark.js';
import type { EtcdChange } from './etcd-watch.js';
import type { DecodedCache } from './decoded-cache.js';
import { CorruptValueError } from './etcd-errors.js';

/**
 * The state event of an etcd change of a resource key: a put of the key's first version is a
 * create. etcd reads the previous value from its history; when compaction has removed it, the
 * change cannot be told as an update or a destroy, and the watch must end (a
 * {@link HistoryCompactedError}).
 */
export function toEvent(
  change: EtcdChange,
  codec: BookmarkCodec,
  decoded: DecodedCache,
): ResourceEvent | HistoryCompactedError | CorruptValueError {
  try {
    return decodeEvent(change, codec, decoded);
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
): ResourceEvent | HistoryCompactedError {
  const key = change.kv.key.toString();
  const bookmark = codec.encode(change.revision, key);
  const { prev } = change;
  if (change.type === 'delete') {
    if (!prev) return new HistoryCompactedError(change.revision - 1);
    const resource = decoded.decode(key, prev);
    decoded.forget(key, change.revision);
    return { type: 'destroyed', resource, bookmark };
  }
  const resource = decoded.decode(key, change.kv);
  if (change.kv.version === '1') return { type: 'created', resource, bookmark };
  if (!prev) return new HistoryCompactedError(change.revision - 1);
  return { type: 'updated', resource, old: decoded.decode(key, prev), bookmark };
}
