import { limitHeapGrowth } from './heap-growth.js';
import { processIo } from './io.js';
import { runCli } from './program.js';

/**
 * The command-line entry point. `bin/cosi.js` calls `main` and sets the exit code it returns.
 * The process takes cosi's heap growth step first (see {@link limitHeapGrowth}).
 */
export async function main(argv: readonly string[]): Promise<number> {
  limitHeapGrowth();
  return runCli(argv, processIo());
}
