import * as path from 'node:path';
import { runCli } from '../../src/cli/program.js';

export const REPO = path.resolve(import.meta.dirname, '../..');

export interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the real CLI in-process with captured streams, from the repository root by default. */
export async function cli(
  argv: string[],
  options: {
    cwd?: string;
    env?: Record<string, string>;
    isTTY?: boolean;
    /** The standard input's text, for `-f -`. */
    stdin?: string | Uint8Array;
    onInterrupt?: (handler: () => void) => () => void;
  } = {},
): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (t: string) => (stdout += t) },
    stderr: { write: (t: string) => (stderr += t) },
    cwd: options.cwd ?? REPO,
    env: options.env ?? {},
    isTTY: options.isTTY ?? false,
    ...(options.stdin !== undefined
      ? { readStdin: () => Promise.resolve(options.stdin ?? '') }
      : {}),
    ...(options.onInterrupt ? { onInterrupt: options.onInterrupt } : {}),
  });
  return { code, stdout, stderr };
}

/** The runs {@link cliOnce} made, by argument list: one test file's (each file has its modules). */
const runsOnce = new Map<string, Promise<CliResult>>();

/**
 * The real CLI, as {@link cli} runs it from the repository root, run once per argument list: for
 * the tests of one file that each assert on the same run of a fixture nothing edits. The first
 * test that asks makes the run, the others read it; each keeps its own assertions, and a test
 * run alone makes its own.
 */
export function cliOnce(argv: readonly string[]): Promise<CliResult> {
  const key = JSON.stringify(argv);
  let run = runsOnce.get(key);
  if (run === undefined) {
    run = cli([...argv]);
    runsOnce.set(key, run);
  }
  return run;
}
