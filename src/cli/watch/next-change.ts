import * as path from 'node:path';
import { concernsProject } from '../../app/file-events.js';
import { displayPath } from '../../app/display-path.js';
import { watchWithChokidar } from './file-watcher.js';

/** Changes this close together start one new session, as the session's own debounce does. */
const DEBOUNCE_MS = 100;

/** Before the session said what it watches: the manifest paths and the working directory. */
export function startingRoots(files: readonly string[], cwd: string): string[] {
  return [...files.map((f) => path.resolve(cwd, f)), cwd];
}

/**
 * `changed` resolves at the first change below `roots` that can matter to the project (a
 * manifest, a script, a directory: not a log written beside it), after a short debounce, with the
 * display paths (from `cwd`) of what changed; or at `close`, with none. Either stops the watching.
 */
export function nextChangeIn(
  roots: readonly string[],
  cwd: string,
): {
  changed: Promise<readonly string[]>;
  ready: Promise<void>;
  close: () => void;
} {
  let close = (): void => undefined;
  let ready = Promise.resolve();
  const changed = new Promise<readonly string[]>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    const files = new Set<string>();
    const watcher = watchWithChokidar(roots, (event) => {
      if (!concernsProject(event)) return;
      files.add(displayPath(cwd, event.path));
      clearTimeout(timer);
      timer = setTimeout(close, DEBOUNCE_MS);
    });
    ready = watcher.ready ?? ready;
    close = () => {
      clearTimeout(timer);
      void watcher.close();
      resolve([...files].sort());
    };
  });
  return { changed, ready, close };
}
