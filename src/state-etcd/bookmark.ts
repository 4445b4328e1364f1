import { InvalidBookmarkError } from '../engine/errors.js';
import type { Bookmark } from '../engine/state/state.js';

/**
 * Bookmarks of an etcd state are etcd revisions, tagged with the cluster and the kind's key
 * folder: any state on the same cluster and prefix (another process, or this one after a
 * reconnect) resumes from them, and a bookmark of another prefix or kind is refused.
 */
export class BookmarkCodec {
  readonly #tag: string;

  constructor(clusterId: string, kindFolder: string) {
    this.#tag = `etcd:${clusterId}:${Buffer.from(kindFolder).toString('base64url')}@`;
  }

  encode(revision: number): Bookmark {
    return `${this.#tag}${revision}`;
  }

  /**
   * The revision of a bookmark of this cluster and kind.
   * @throws InvalidBookmarkError otherwise.
   */
  decode(bookmark: Bookmark): number {
    const rest = bookmark.startsWith(this.#tag) ? bookmark.slice(this.#tag.length) : '';
    const revision = /^\d+$/.test(rest) ? Number(rest) : Number.NaN;
    if (!Number.isSafeInteger(revision)) throw new InvalidBookmarkError(bookmark);
    return revision;
  }
}
