import { readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { vi } from 'vitest';
import type { FileEvent, WatchFiles } from '../../src/app/file-events.js';
import {
  startWatchSession,
  type WatchRound,
  type WatchSession,
  type WatchSessionOptions,
} from '../../src/app/watch-session.js';

/** A watch session on a synthetic file watcher, and a way to save an edit and see its round. */
export interface EditedWatch {
  readonly session: WatchSession;
  readonly rounds: WatchRound[];
  /** Replaces `from` by `to` in a file (relative to `cwd`), and waits for the round it starts. */
  readonly save: (file: string, from: string | RegExp, to: string) => Promise<WatchRound>;
  /** Sends the watcher's events of what the test did itself, and waits for the round they start. */
  readonly saw: (events: readonly FileEvent[]) => Promise<WatchRound>;
}

/**
 * Starts a watch session whose file events the test sends itself (the debounce runs on fake
 * timers: call `vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })` first).
 */
export async function startEditedWatch(
  options: Omit<WatchSessionOptions, 'watch' | 'onRound' | 'cwd'> & { readonly cwd: string },
): Promise<EditedWatch> {
  let listener: ((event: FileEvent) => void) | undefined;
  const watch: WatchFiles = (_paths, onEvent) => {
    listener = onEvent;
    return { close: () => Promise.resolve() };
  };
  const rounds: WatchRound[] = [];
  const session = await startWatchSession({
    ...options,
    watch,
    onRound: (round) => rounds.push(round),
  });
  const save = async (file: string, from: string | RegExp, to: string): Promise<WatchRound> => {
    const full = path.join(options.cwd, file);
    await writeFile(full, (await readFile(full, 'utf8')).replace(from, to));
    listener?.({ kind: 'change', path: full });
    await vi.advanceTimersByTimeAsync(100);
    await session.idle();
    return rounds.at(-1) as WatchRound;
  };
  const saw = async (events: readonly FileEvent[]): Promise<WatchRound> => {
    for (const event of events) listener?.(event);
    await vi.advanceTimersByTimeAsync(100);
    await session.idle();
    return rounds.at(-1) as WatchRound;
  };
  return { session, rounds, save, saw };
}
