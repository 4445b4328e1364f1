import { InvalidBookmarkError } from '../errors.js';
import type { Resource } from '../resource/resource.js';
import type { Bookmark, ResourceEvent } from './state.js';

/**
 * The recent changes of one kind, in a ring buffer of `capacity` events, as COSI's in-memory
 * collection keeps them. Every change gets the next position; its bookmark names the state, the
 * kind and that position. The history serves three things: `tailEvents` replays from it,
 * `startFromBookmark` resumes from it, and a watcher's lag is measured against it (a watcher more
 * than `capacity` events behind has lost events it never read).
 *
 * The `gap` keeps a margin at the old end: a tail or a resumed watch never starts in the last
 * `gap` slots before they are overwritten, so it does not overrun at once.
 */
export class EventHistory {
  // The changes as three columns rather than event objects: the event a watcher gets is made for
  // it when the change is published (and only when someone watches), and dropped once delivered.
  // Kept events and their bookmark strings lived as long as `capacity` more changes, which moved
  // them (and every replaced version) into the old generation of the heap.
  readonly #types: ResourceEvent['type'][] = [];
  readonly #resources: Resource[] = [];
  /** The replaced version of an update. */
  readonly #olds: (Resource | undefined)[] = [];
  readonly #prefix: string;
  /** The position the next change gets; also how many changes there have been. */
  writePos = 0;

  constructor(
    /** Unique to the state and the kind, so a bookmark cannot be used elsewhere. */
    prefix: string,
    readonly capacity: number,
    readonly gap: number,
  ) {
    this.#prefix = prefix;
  }

  /** The bookmark of the change at `position`; -1 is "before the first change". */
  bookmark(position: number): Bookmark {
    return `${this.#prefix}${position}`;
  }

  /** Records a change and returns its position. */
  append(type: ResourceEvent['type'], resource: Resource, old?: Resource): number {
    // The arrays grow until they are full, then wrap: a small kind never pays for a full buffer.
    const slot = this.writePos % this.capacity;
    this.#types[slot] = type;
    this.#resources[slot] = resource;
    this.#olds[slot] = old;
    return this.writePos++;
  }

  /**
   * The change at `position`, as a new event; only valid for the last `capacity` positions.
   * Without `withBookmark`, the event carries none (for watchers that never read one: making the
   * string was a good part of what publishing a change cost).
   */
  at(position: number, withBookmark = true): ResourceEvent {
    const slot = position % this.capacity;
    const resource = this.#resources[slot] as Resource;
    if (!withBookmark) {
      switch (this.#types[slot]) {
        case 'created':
          return { type: 'created', resource };
        case 'updated':
          return { type: 'updated', resource, old: this.#olds[slot] as Resource };
        default:
          return { type: 'destroyed', resource };
      }
    }
    const bookmark = this.bookmark(position);
    switch (this.#types[slot]) {
      case 'created':
        return { type: 'created', resource, bookmark };
      case 'updated':
        return { type: 'updated', resource, old: this.#olds[slot] as Resource, bookmark };
      default:
        return { type: 'destroyed', resource, bookmark };
    }
  }

  /** The resource of the change at `position` (without making its event). */
  resourceAt(position: number): Resource {
    return this.#resources[position % this.capacity] as Resource;
  }

  /** The oldest position a replay may start from. */
  get oldestReplayable(): number {
    return Math.max(this.writePos - this.capacity + this.gap, 0);
  }

  /** How far behind a reader whose next unread position is `position` is. */
  lag(position: number): number {
    return this.writePos - position;
  }

  /**
   * The position right after the bookmarked change.
   * @throws InvalidBookmarkError for a bookmark of another state or kind, or one too old.
   */
  resumeAfter(bookmark: Bookmark): number {
    const rest = bookmark.startsWith(this.#prefix) ? bookmark.slice(this.#prefix.length) : '';
    const position = /^-?\d+$/.test(rest) ? Number(rest) : Number.NaN;
    if (
      !Number.isSafeInteger(position) ||
      position < -1 ||
      position >= this.writePos ||
      position < this.writePos - this.capacity + this.gap
    ) {
      throw new InvalidBookmarkError(bookmark);
    }
    return position + 1;
  }

  /** Where a replay of the last `n` changes of the kind starts (at most `capacity - gap`). */
  tailStart(n: number): number {
    return Math.max(this.writePos - Math.min(n, this.capacity - this.gap), 0);
  }

  /** Where a replay of the last `n` changes of one resource starts. */
  tailStartFor(id: string, n: number): number {
    let position = this.writePos;
    const oldest = this.oldestReplayable;
    for (let found = 0; position > oldest && found < n; position--) {
      if (this.resourceAt(position - 1).metadata.id === id) found++;
    }
    return position;
  }
}
