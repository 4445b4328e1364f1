import { InvalidBookmarkError } from '../errors.js';
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
  readonly #buffer: ResourceEvent[] = [];
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

  /** The bookmark the next change will carry. */
  nextBookmark(): Bookmark {
    return this.bookmark(this.writePos);
  }

  /** Records a change (built with {@link nextBookmark}) and returns its position. */
  append(event: ResourceEvent): number {
    // The array grows until it is full, then wraps: a small kind never pays for a full buffer.
    this.#buffer[this.writePos % this.capacity] = event;
    return this.writePos++;
  }

  /** The change at `position`; only valid for the last `capacity` positions. */
  at(position: number): ResourceEvent {
    return this.#buffer[position % this.capacity] as ResourceEvent;
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
      if (this.at(position - 1).resource.metadata.id === id) found++;
    }
    return position;
  }
}
