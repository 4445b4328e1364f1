/** What changed on disk. Directory events matter because a new directory may hold manifests. */
export interface FileEvent {
  readonly kind: 'add' | 'change' | 'unlink' | 'addDir' | 'unlinkDir';
  /** Absolute. */
  readonly path: string;
}

/** A script's file name: the config, or code it imports (`.ts`, `.mjs`, ...). */
export const SCRIPT_FILE = /\.(?:[cm]?ts|[cm]?js)$/;

/** A manifest's file name, as `watch` reads it again when it changes. */
export const MANIFEST_FILE = /\.(?:ya?ml|json)$/i;

/**
 * Whether a change can matter to a watched project: a manifest, a script, or a directory (which
 * may hold manifests). A log written beside the project (`cosi watch > watch.log`) does not.
 */
export function concernsProject(event: FileEvent): boolean {
  return (
    SCRIPT_FILE.test(event.path) ||
    MANIFEST_FILE.test(event.path) ||
    event.kind === 'addDir' ||
    event.kind === 'unlinkDir'
  );
}

/** A running file watcher. */
export interface FileWatcher {
  close(): Promise<void>;
  /** Resolves once the initial scan is over: changes from then on are reported. */
  readonly ready?: Promise<void>;
}

/**
 * Starts watching absolute paths (files, or directories recursively) and calls `onEvent` for
 * every change after the initial scan. Injected into the watch session (the CLI gives chokidar),
 * so tests drive it with synthetic events.
 */
export type WatchFiles = (
  paths: readonly string[],
  onEvent: (event: FileEvent) => void,
) => FileWatcher;
