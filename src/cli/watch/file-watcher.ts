import * as path from 'node:path';
import { watch } from 'chokidar';

/** What changed on disk. Directory events matter because a new directory may hold manifests. */
export interface FileEvent {
  readonly kind: 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';
  /** Absolute. */
  readonly path: string;
}

/** A running file watcher. */
export interface FileWatcher {
  close(): Promise<void>;
}

/**
 * Starts watching absolute paths (files, or directories recursively) and calls `onEvent` for
 * every change after the initial scan. Injected into the watch session, so tests drive it with
 * synthetic events.
 */
export type WatchFiles = (
  paths: readonly string[],
  onEvent: (event: FileEvent) => void,
) => FileWatcher;

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
  return { close: () => watcher.close() };
};
