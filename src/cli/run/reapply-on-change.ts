import * as path from 'node:path';
import { toError } from '../../engine/errors.js';
import type { ApplyCounts } from '../../app/serve-project.js';
import type { ServedRuntime } from '../../app/served-runtime.js';
import type { Finding } from '../../loaders/finding.js';
import { SCRIPT_FILE } from '../../app/file-events.js';
import type { FileWatcher, WatchFiles } from '../watch/file-watcher.js';

/** Backoff of an apply that failed (the state unreachable): from 500 ms, doubled, up to 5 s. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5_000;

/** What the watcher says, as `cosi run` logs it. */
export interface ReapplyReport {
  /** An apply begins (the files changed, or a failed one is retried). */
  applying?(): void;
  applied(counts: ApplyCounts, skipped: readonly Finding[]): void;
  refused(findings: readonly Finding[]): void;
  failed(error: Error, retryInMs: number): void;
  /** Scripts (the config, code it imports) changed: a running service does not load them again. */
  codeChanged(files: readonly string[]): void;
  /**
   * The manifests' definitions or declared controllers (a kro RGD, a transform) changed: the
   * resources were applied, but the running controllers and types are the started ones.
   */
  definitionsChanged?(): void;
}

/**
 * Applies the manifests again after file changes (`cosi run --watch`): changes within 100 ms are
 * one apply, and applies never overlap. Manifests with errors are reported and not applied (the
 * last good ones keep running); an apply that fails (the state unreachable) is reported and
 * retried with backoff, since the files did not change and nothing else would apply them again.
 * A changed script is said (the config, code it imports): the process runs the code it started
 * with, as a controller-runtime manager does, and only a restart loads it.
 */
export function reapplyOnChange(
  cwd: string,
  files: readonly string[],
  watchFiles: WatchFiles,
  served: Pick<ServedRuntime, 'reapply'>,
  report: ReapplyReport,
): FileWatcher {
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();
  let closed = false;
  /** The wait before retrying a failed apply: doubled on each failure, reset by a success. */
  let retryDelay = RETRY_FIRST_MS;
  const schedule = (ms: number): void => {
    clearTimeout(timer);
    if (closed) return;
    timer = setTimeout(() => {
      chain = chain.then(reapply);
    }, ms);
  };
  /** Scripts changed since the last apply, by absolute path. */
  const scripts = new Set<string>();
  const reapply = async (): Promise<void> => {
    if (closed) return;
    if (scripts.size > 0) {
      report.codeChanged([...scripts].sort());
      scripts.clear();
    }
    try {
      report.applying?.();
      const result = await served.reapply();
      retryDelay = RETRY_FIRST_MS;
      if ('findings' in result) report.refused(result.findings);
      else {
        report.applied(result.applied, result.skipped);
        if (result.definitionsChanged === true) report.definitionsChanged?.();
      }
    } catch (error) {
      report.failed(toError(error), retryDelay);
      schedule(retryDelay);
      retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
    }
  };
  const watcher = watchFiles(
    files.map((f) => path.resolve(cwd, f)),
    (event) => {
      if (SCRIPT_FILE.test(event.path)) scripts.add(event.path);
      schedule(100);
    },
  );
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await watcher.close();
      await chain;
    },
  };
}
