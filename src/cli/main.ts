import { withProcessExitGuard } from '../app/process-exit-guard.js';
import { limitHeapGrowth } from './heap-growth.js';
import { processIo } from './io.js';
import { runCli } from './program.js';

/**
 * The command-line entry point. `bin/cosi.js` calls `main` and sets the exit code it returns.
 * The process takes cosi's heap growth step first (see {@link limitHeapGrowth}). A project's
 * code that calls `process.exit` gets an error thrown instead (see {@link withProcessExitGuard}):
 * the command's exit code is the one that counts.
 */
export async function main(argv: readonly string[]): Promise<number> {
  limitHeapGrowth();
  return withProcessExitGuard(() => runCli(argv, processIo()));
}
