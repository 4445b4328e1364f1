import { compareStrings } from '../engine/compare-strings.js';
import { RESOURCE_DEFINITION_TYPE } from '../engine/resource/definition.js';
import type { Kind } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import type { StateSnapshot } from '../engine/state/state-snapshot.js';
import type { State, StateEvent } from '../engine/state/state.js';

/** A change of one resource read from a state's watch: as it was, and as it is now. */
export interface WatchedChange {
  /** Absent when the resource was created. */
  readonly before?: Resource;
  /** Absent when it was destroyed. */
  readonly after?: Resource;
}

/** How {@link watchStateKinds} finds kinds that appear after it started. */
export interface KindDiscovery {
  /** The kinds to watch now (those watched already are left out). */
  readonly kinds: () => Promise<readonly Kind[]>;
  /** How often it looks, ms. */
  readonly everyMs: number;
}

/** A running {@link watchStateKinds}. */
export interface StateKindsWatch {
  /** What the kinds held when their watches started, sorted as a snapshot is. */
  readonly initial: StateSnapshot;
  /** Settles when the watch ends: resolves on `signal`, rejects when a watch failed. */
  readonly ended: Promise<void>;
  /**
   * Hands every change after {@link initial} to `onChange`, in order: those that came meanwhile
   * at once, then each as it comes. Call it once the contents are shown.
   */
  follow(onChange: (change: WatchedChange) => void): void;
}

/**
 * Watches some kinds of a state (`cosi get TYPE --state URL -w`): each watch starts with the
 * kind's contents (`bootstrap`), which together are {@link StateKindsWatch.initial}, then every
 * later change, in order, none lost or repeated between the contents and the changes: those
 * that come before the caller follows them wait until it does. A watch that fails (its watcher fell too far behind, etcd's history was compacted) ends them
 * all with its error. With `discover`, kinds that appear later (a namespace that gets its first
 * resource of a type watched in every namespace) are watched too once found, their resources
 * then changes (created).
 */
export async function watchStateKinds(
  state: State,
  kinds: readonly Kind[],
  signal: AbortSignal,
  discover?: KindDiscovery,
): Promise<StateKindsWatch> {
  const stop = new AbortController();
  const abort = (): void => stop.abort();
  signal.addEventListener('abort', abort, { once: true });
  let fail: (error: Error) => void = () => undefined;
  const ended = new Promise<void>((resolve, reject) => {
    stop.signal.addEventListener('abort', () => resolve(), { once: true });
    fail = (error) => {
      reject(error);
      stop.abort();
    };
  });
  // Not left unhandled when the caller only looks at it later.
  ended.catch(() => undefined);
  const contents: Resource[] = [];
  let waiting: WatchedChange[] = [];
  let onChange: ((change: WatchedChange) => void) | undefined;
  const deliver = (change: WatchedChange): void => {
    if (onChange) onChange(change);
    else waiting.push(change);
  };
  const watched = new Set<string>();
  /**
   * Watches `kind` from its contents on: those of a kind watched from the start are
   * {@link StateKindsWatch.initial}; those of one found later (`discovered`) came after the
   * start, and are changes (created).
   */
  const watchOne = (kind: Kind, discovered: boolean): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      watched.add(kindKey(kind));
      let live = false;
      const listener = (event: StateEvent): void => {
        switch (event.type) {
          case 'created':
            if (live || discovered) deliver({ after: event.resource });
            else contents.push(event.resource);
            return;
          case 'updated':
            deliver({ before: event.old, after: event.resource });
            return;
          case 'destroyed':
            deliver({ before: event.resource });
            return;
          case 'bootstrapped':
            live = true;
            resolve();
            return;
          case 'errored':
            reject(event.error);
            fail(event.error);
            return;
          default:
        }
      };
      state
        .watchKind(kind, listener, { bootstrap: true, signal: stop.signal })
        .catch((error: unknown) => {
          const failure = error instanceof Error ? error : new Error(String(error));
          reject(failure);
          fail(failure);
        });
    });
  const bootstrapped = kinds.map((kind) => watchOne(kind, false));
  if (discover !== undefined) {
    // Kinds that appear later (a namespace's first resource of a type): looked for this often.
    const look = (): void => {
      if (stop.signal.aborted) return;
      discover.kinds().then(
        (found) => {
          for (const kind of found) {
            if (stop.signal.aborted || watched.has(kindKey(kind))) continue;
            watchOne(kind, true).catch(() => undefined);
          }
          schedule();
        },
        // The state unreachable for a while: its watches say so, or recover; look again.
        () => schedule(),
      );
    };
    // One timer at a time, and one listener to clear it: a listener added per look would pile
    // up on the signal for as long as the watch runs.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const schedule = (): void => {
      if (!stop.signal.aborted) timer = setTimeout(look, discover.everyMs);
    };
    stop.signal.addEventListener('abort', () => clearTimeout(timer), { once: true });
    schedule();
  }
  try {
    await Promise.race([Promise.all(bootstrapped), ended]);
  } catch (error) {
    signal.removeEventListener('abort', abort);
    throw error;
  }
  ended.finally(() => signal.removeEventListener('abort', abort)).catch(() => undefined);
  contents.sort(
    (a, b) =>
      compareStrings(a.metadata.type, b.metadata.type) ||
      compareStrings(a.metadata.namespace, b.metadata.namespace) ||
      compareStrings(a.metadata.id, b.metadata.id),
  );
  const isDefinition = (r: Resource): boolean => r.metadata.type === RESOURCE_DEFINITION_TYPE;
  return {
    initial: {
      resources: contents.filter((r) => !isDefinition(r)),
      definitions: contents.filter(isDefinition),
    },
    ended,
    follow: (listener) => {
      const held = waiting;
      waiting = [];
      for (const change of held) listener(change);
      onChange = listener;
    },
  };
}

function kindKey(kind: Kind): string {
  return `${kind.namespace}\u0000${kind.type}`;
}
