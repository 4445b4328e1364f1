/**
 * How long a user waits for a command that does little: `cosi --version`, `cosi --help` and
 * `cosi check` of the example project (fixtures/vm-network), each a whole process, paired with a
 * bare `node -e 0` in the same run (one of each in turn, so a busy machine slows both alike).
 * Prints the medians and their ratio. Targets (issue 36): --version and --help within 1.5x of
 * bare node, check of the example within 2.5x.
 */
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { medianRun, printTable, quick, runProcess, type ProcessRun } from './harness.js';

const benchDir = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(benchDir, '..');
const cli = path.join(root, 'bin/cosi.js');
const RUNS = quick ? 7 : 21;

/** The commands measured, by label, with their target ratio to bare node. */
const COMMANDS: readonly (readonly [string, readonly string[], number])[] = [
  ['cosi --version', ['--version'], 1.5],
  ['cosi --help', ['--help'], 1.5],
  ['cosi check fixtures/vm-network', ['check', '-q', 'fixtures/vm-network'], 2.5],
];

export async function run(): Promise<void> {
  const rows: string[][] = [];
  for (const [label, args, target] of COMMANDS) {
    const bare: ProcessRun[] = [];
    const command: ProcessRun[] = [];
    // One unmeasured run of each warms the file cache (and jiti's transpile cache for check).
    await runProcess(['-e', '0'], root);
    await runProcess([cli, ...args], root);
    for (let i = 0; i < RUNS; i++) {
      bare.push(await runProcess(['-e', '0'], root));
      command.push(await runProcess([cli, ...args], root));
    }
    const node = medianRun(bare);
    const cosi = medianRun(command);
    const ratio = cosi.ms / node.ms;
    rows.push([
      label,
      node.ms.toFixed(0),
      cosi.ms.toFixed(0),
      `${ratio.toFixed(2)}x`,
      `${target}x`,
      ratio <= target ? 'yes' : 'NO',
      (cosi.maxRss / 1024).toFixed(0),
    ]);
  }
  printTable(
    `start-up: whole processes, median of ${RUNS}, each paired with a bare node -e 0`,
    ['command', 'node -e 0 ms', 'cosi ms', 'ratio', 'target', 'met', 'peak MB'],
    rows,
  );
}
