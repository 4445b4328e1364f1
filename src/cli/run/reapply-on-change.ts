import * as path from 'node:path';
import { toError } from '../../engine/errors.js';
import type { ApplyCounts } from '../../app/serve-project.js';
import type { ServedRuntime } from '../../app/served-runtime.js';
import type { Finding } from '../../loaders/finding.js';
import { SCRIPT_FILE, type FileEvent } from '../../app/file-events.js';
import type { FileWatcher, WatchFiles } from '../watch/file-watcher.js';
import { changedSince } from '../watch/changed-since.js';

/** Backoff of an apply that failed (the state unreachable): from 500 ms, doubled, up to 5 s. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5_000;

/**
 * Why the runtime must start again to take the files' change: the scripts the config loaded
 * changed (the config, code it imports), or the manifests' definitions or declared controllers
 * (a CRD, a kro RGD, a transform) did. Both may.
 */
export interface RestartCause {
  /** The changed scripts, by absolute path, sorted. */
  readonly scripts: readonly string[];
  readonly definitions: boolean;
}

/** What the watcher says, and asks, as `cosi run` logs and restarts. */
export interface ReapplyReport {
  /** An apply begins (the files changed, or a failed one is retried). */
  applying?(): void;
  applied(counts: ApplyCounts, skipped: readonly Finding[]): void;
  refused(findings: readonly Finding[]): void;
  failed(error: Error, retryInMs: number): void;
  /**
   * Starts the runtime again, which loads the code and definitions and applies the manifests:
   * resolves true once it runs, false when it did not restart for what only another change of
   * the files fixes (said by the caller; the runtime that ran may run on, and the next change
   * restarts); rejects for what may pass (the state unreachable), tried again with backoff.
   */
  restart(cause: RestartCause): Promise<boolean>;
}

/**
 * Applies the manifests again after file changes (`cosi run --watch`): changes within 100 ms are
 * one apply, applies never overlap, and the changes made while one runs (a restart) are one apply
 * after it. Manifests with errors are reported and not applied (the
 * last good ones keep running); an apply that fails (the state unreachable) is reported and
 * retried with backoff, since the files did not change and nothing else would apply them again.
 * A changed script (the config, code it imports) or changed definitions start the runtime
 * again (`report.restart`), as a process restarted by hand would load them; one that could not
 * start is started again at the next change.
 *
 * A save between `since` (when the start began to read the files) and the end of the watcher's
 * initial scan is heard by neither: once the watcher is ready, what was written since is taken
 * as a change, so an edit saved as the start says it applied is applied too.
 */
export function reapplyOnChange(
  cwd: string,
  files: readonly string[],
  watchFiles: WatchFiles,
  served: Pick<ServedRuntime, 'reapply'>,
  report: ReapplyReport,
  since?: number,
): ReapplyWatcher {
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();
  let closed = false;
  /** Whether the watcher closed (read after an await, where it may have). */
  const isClosed = (): boolean => closed;
  /** The wait before retrying a failed apply: doubled on each failure, reset by a success. */
  let retryDelay = RETRY_FIRST_MS;
  /**
   * Whether an apply waits its turn (behind a restart): it reads the files as they are when it
   * begins, so the changes until then are all its own, not one apply each.
   */
  let queued = false;
  const schedule = (ms: number): void => {
    clearTimeout(timer);
    if (closed) return;
    timer = setTimeout(() => {
      if (queued) return;
      queued = true;
      chain = chain.then(() => {
        queued = false;
        return reapply();
      });
    }, ms);
  };
  /** Scripts changed since the runtime last started, by absolute path. */
  const scripts = new Set<string>();
  /** The definitions changed since the runtime last started. */
  let definitions = false;
  /** A manifest (not a script) changed since the manifests were last applied. */
  let manifests = false;
  /** Applies the manifests to the runtime that runs: definitions changed start it again. */
  const applyManifests = async (): Promise<void> => {
    manifests = false;
    report.applying?.();
    const result = await served.reapply();
    if ('findings' in result) report.refused(result.findings);
    else if ('definitionsChanged' in result) definitions = true;
    else report.applied(result.applied, result.skipped);
  };
  const reapply = async (): Promise<void> => {
    if (closed) return;
    try {
      if (scripts.size === 0 && !definitions) await applyManifests();
      if (scripts.size > 0 || definitions) {
        // Taken before the restart loads them: a save during it (after the load read the file)
        // is a change again, and starts the runtime once more; one that could not start keeps
        // them for the next change.
        const cause = { scripts: [...scripts].sort(), definitions };
        const manifestsChanged = manifests;
        scripts.clear();
        definitions = false;
        manifests = false;
        let restarted = false;
        try {
          restarted = await report.restart(cause);
        } finally {
          if (!restarted) {
            for (const file of cause.scripts) scripts.add(file);
            definitions ||= cause.definitions;
          }
        }
        // Not restarted (the config saved mid-edit): the last good code runs on, and applies
        // the manifests' change as it would have without the config's (none runs: it waits).
        if (!restarted && manifestsChanged) await applyManifests();
      }
      retryDelay = RETRY_FIRST_MS;
    } catch (error) {
      // Closed meanwhile: the runtime it applied to was stopped.
      if (isClosed()) return;
      report.failed(toError(error), retryDelay);
      schedule(retryDelay);
      retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
    }
  };
  const changed = (event: FileEvent): void => {
    if (SCRIPT_FILE.test(event.path)) scripts.add(event.path);
    else manifests = true;
    schedule(100);
  };
  const watchAll = (paths: readonly string[]): FileWatcher =>
    watchFiles(
      paths.map((f) => path.resolve(cwd, f)),
      changed,
    );
  let watcher = watchAll(files);
  if (since !== undefined) {
    // Read once the watcher is ready: a save from then on is its to report.
    void (watcher.ready ?? Promise.resolve())
      .then(() =>
        changedSince(
          files.map((f) => path.resolve(cwd, f)),
          since,
        ),
      )
      .then(
        (events) => {
          if (!isClosed()) for (const event of events) changed(event);
        },
        () => undefined,
      );
  }
  /** The replaced watchers' closes, waited for by `close`. */
  const replaced: Promise<void>[] = [];
  return {
    watch: (paths) => {
      if (closed) return;
      // The old watcher closes once the new one watches: a save meanwhile is heard by one.
      const old = watcher;
      watcher = watchAll(paths);
      replaced.push((watcher.ready ?? Promise.resolve()).then(() => old.close()));
    },
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await Promise.all([watcher.close(), ...replaced]);
      await chain;
    },
  };
}

/** The watcher of `reapplyOnChange`, whose files can change as it runs. */
export interface ReapplyWatcher extends FileWatcher {
  /**
   * Watches `files` instead (the config imports other modules after a restart), keeping what
   * changed meanwhile: a save during the restart still starts the runtime again.
   */
  watch(files: readonly string[]): void;
}
