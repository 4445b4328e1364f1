import type { WatchFiles } from '../../app/file-events.js';

/** Rounds held back until the files are watched: see {@link holdUntilWatching}. */
export interface HeldRounds<R> {
  /** `watchFiles`, remembering when the watcher it starts is ready. */
  readonly watchFiles: WatchFiles;
  /** Shows a round, or holds it while the watcher is not ready yet. */
  readonly onRound: (round: R) => void;
  /**
   * Waits until the watcher is ready (or `gone` settles: a session closed early has a watcher
   * that never will be), then shows the rounds held, in order, and every later one at once.
   */
  release(gone: Promise<unknown>): Promise<void>;
}

/**
 * A watch's first rounds are shown only once its file watcher is ready: a user who saves an edit
 * as soon as round 1 is printed has that edit seen. (The watcher starts after the first round,
 * and its initial scan takes a while on a large tree or a busy machine.)
 */
export function holdUntilWatching<R>(
  watchFiles: WatchFiles,
  show: (round: R) => void,
): HeldRounds<R> {
  let held: R[] | undefined = [];
  let ready: Promise<void> = Promise.resolve();
  return {
    watchFiles: (roots, onEvent) => {
      const watcher = watchFiles(roots, onEvent);
      if (watcher.ready) ready = watcher.ready;
      return watcher;
    },
    onRound: (round) => {
      if (held) held.push(round);
      else show(round);
    },
    release: async (gone) => {
      await Promise.race([ready, gone]);
      const early = held ?? [];
      held = undefined;
      for (const round of early) show(round);
    },
  };
}
