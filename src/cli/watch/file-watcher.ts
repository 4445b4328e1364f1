import * as path from 'node:path';
import { watch } from 'chokidar';

import type { WatchFiles } from '../../app/file-events.js';

export type { FileEvent, FileWatcher, WatchFiles } from '../../app/file-events.js';

/**
 * The real watcher, on chokidar: hidden entries and `node_modules` are skipped, as the manifest
 * walker skips them; the given paths themselves are always watched.
 */
export const watchWithChokidar: WatchFiles = (paths, onEvent) => {
  const roots = new Set(paths.map((p) => path.resolve(p)));
  const watcher = watch([...roots], {
    ignoreInitial: true,
    ignored: (file: string) => {
      if (roots.has(file)) return false;
      const name = path.basename(file);
      return name.startsWith('.') || name === 'node_modules';
    },
  });
  for (const kind of ['add', 'change', 'unlink', 'addDir', 'unlinkDir'] as const) {
    watcher.on(kind, (file: string) => onEvent({ kind, path: path.resolve(file) }));
  }
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return { close: () => watcher.close(), ready };
};
