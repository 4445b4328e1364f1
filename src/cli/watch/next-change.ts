import * as path from 'node:path';
import { watchWithChokidar } from './file-watcher.js';

/** Changes this close together start one new session, as the session's own debounce does. */
const DEBOUNCE_MS = 100;

/** Before the session said what it watches: the manifest paths and the working directory. */
export function startingRoots(files: readonly string[], cwd: string): string[] {
  return [...files.map((f) => path.resolve(cwd, f)), cwd];
}

/**
 * `changed` resolves at the first change below `roots` (after a short debounce), or at `close`;
 * either stops the watching.
 */
export function nextChangeIn(roots: readonly string[]): {
  changed: Promise<void>;
  ready: Promise<void>;
  close: () => void;
} {
  let close = (): void => undefined;
  let ready = Promise.resolve();
  const changed = new Promise<void>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const watcher = watchWithChokidar(roots, () => {
      clearTimeout(timer);
      timer = setTimeout(close, DEBOUNCE_MS);
    });
    ready = watcher.ready ?? ready;
    close = () => {
      clearTimeout(timer);
      void watcher.close();
      resolve();
    };
  });
  return { changed, ready, close };
}
