import { processIo } from './io.js';
import { runCli } from './program.js';

/**
 * The command-line entry point. `bin/cosi.js` calls `main` and sets the exit code it returns.
 */
export async function main(argv: readonly string[]): Promise<number> {
  return runCli(argv, processIo());
}
