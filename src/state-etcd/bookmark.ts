import { InvalidBookmarkError } from '../engine/errors.js';
import type { Bookmark } from '../engine/state/state.js';

/**
 * Where a watch stands in etcd's history: every change before `revision` handed on, and at
 * `revision` those up to `key` (in key order, as cosi writes the changes of one revision); with
 * no key, every change at `revision` too.
 */
export interface WatchPosition {
  readonly revision: number;
  readonly key?: string;
}

/**
 * Bookmarks of an etcd state are positions in etcd's history ({@link WatchPosition}), tagged with
 * the cluster and the kind's key folder: any state on the same cluster and prefix (another
 * process, or this one after a reconnect) resumes from them, and a bookmark of another prefix or
 * kind is refused. One transaction writes several resources at one revision, so an event's
 * bookmark names its key as well (`REVISION:KEY`, the key after the kind's folder, base64url),
 * and a watch resumed from it gets the rest of that revision.
 */
export class BookmarkCodec {
  readonly #tag: string;
  readonly #folder: string;

  constructor(clusterId: string, kindFolder: string) {
    this.#tag = `etcd:${clusterId}:${Buffer.from(kindFolder).toString('base64url')}@`;
    this.#folder = kindFolder;
  }

  /** The bookmark of the change of `key` at `revision`, or of all of `revision` without a key. */
  encode(revision: number, key?: string): Bookmark {
    if (key === undefined || !key.startsWith(this.#folder)) return `${this.#tag}${revision}`;
    return `${this.#tag}${revision}:${Buffer.from(key.slice(this.#folder.length)).toString('base64url')}`;
  }

  /**
   * The position of a bookmark of this cluster and kind.
   * @throws InvalidBookmarkError otherwise.
   */
  decode(bookmark: Bookmark): WatchPosition {
    const rest = bookmark.startsWith(this.#tag) ? bookmark.slice(this.#tag.length) : '';
    const match = /^(\d+)(?::([A-Za-z0-9_-]+))?$/.exec(rest);
    const revision = match ? Number(match[1]) : Number.NaN;
    if (!match || !Number.isSafeInteger(revision)) throw new InvalidBookmarkError(bookmark);
    if (match[2] === undefined) return { revision };
    return { revision, key: this.#folder + Buffer.from(match[2], 'base64url').toString() };
  }
}
