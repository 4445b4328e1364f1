/** The `code` of a {@link ProcessExitError}, as a run's error records keep it. */
export const PROCESS_EXIT_CODE = 'process-exit';

/**
 * `process.exit` called by a project's code (its config or a controller): thrown where it was
 * called instead of ending the process, so that it becomes a finding of that controller or a
 * configuration error, and the exit code stays the command's.
 */
export class ProcessExitError extends Error {
  readonly code = PROCESS_EXIT_CODE;

  constructor(readonly exitCode: unknown) {
    super(`called process.exit(${describeCode(exitCode)})`);
    this.name = 'ProcessExitError';
  }
}

export const isProcessExit = (error: unknown): error is ProcessExitError =>
  error instanceof ProcessExitError;

/**
 * Runs `fn` with `process.exit` replaced by a function that throws a {@link ProcessExitError},
 * and puts the original back when it settles. cosi itself never calls `process.exit` (the
 * command's exit code is returned to `bin/cosi.js`), so every call in that time is the project's;
 * the one exception, `run`'s exit at a second signal (`CliIo.exit`), calls the original it took
 * before any guard was in place.
 *
 * Limits: a project that catches the error (a bare `catch {}` around the call) goes on as if
 * nothing happened; `process.exit` captured before the run (`const { exit } = process` at the
 * top of a module loaded earlier), `process.reallyExit`, `process.abort()` and
 * `process.kill(process.pid)` are not intercepted. In a project worker (`project-worker.ts`), an
 * exit that gets past the guard ends only the worker, which its supervisor reports.
 */
export async function withProcessExitGuard<T>(fn: () => Promise<T>): Promise<T> {
  // Put back as it was taken: a plain function (Node's does not depend on `this`).
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = process.exit;
  const guard = (code?: unknown): never => {
    throw new ProcessExitError(code);
  };
  process.exit = guard;
  // An error nothing caught (a controller's timer that throws) ends the thread through Node's own
  // `process.exit`: the guard would throw there, and Node print that second error's stack.
  const restore = (): void => {
    if (process.exit === guard) process.exit = original;
  };
  process.on('uncaughtExceptionMonitor', restore);
  try {
    return await fn();
  } finally {
    process.off('uncaughtExceptionMonitor', restore);
    restore();
  }
}

function describeCode(code: unknown): string {
  if (code === undefined) return '';
  return typeof code === 'number' || typeof code === 'string' ? JSON.stringify(code) : '...';
}
