/**
 * How the commands that read a whole run grow with it: `apply`, `check`, `get`, `explain` and
 * `graph --resources` on generated vm-network trees of 1k, 10k and 50k resources (--quick: 1k
 * and 5k), each its own process, against a process that walks and parses the same tree (the
 * least any command has to do). A step of 10x in size should cost at most about 12x: a
 * quadratic path shows as x100. The growth is printed in wall time and in CPU time (user +
 * system): on a loaded machine the wall time also counts waits for a core, the CPU time does not.
 */
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCount, growth, printTable, runProcess, sizes, type ProcessRun } from './harness.js';
import { generateTree } from './vm-network-tree.js';

const SIZES = sizes([1_000, 10_000, 50_000], [1_000, 5_000]);
const benchDir = path.dirname(fileURLToPath(import.meta.url));
const cli = path.resolve(benchDir, '../bin/cosi.js');

/** The commands measured, by label; `{last}` is the id of the tree's last VM. */
const COMMANDS: readonly (readonly [string, readonly string[]])[] = [
  ['apply', ['apply', '-q']],
  ['check', ['check']],
  ['get vm', ['get', 'vm', '-q']],
  ['explain vm', ['explain', 'vm/{last}']],
  ['graph --resources', ['graph', '--resources', '-q']],
];

export async function run(): Promise<void> {
  const baseline: ProcessRun[] = [];
  const byCommand = new Map<string, ProcessRun[]>(COMMANDS.map(([label]) => [label, []]));
  for (const n of SIZES) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-growth-bench-'));
    try {
      await cp(path.resolve(benchDir, '../fixtures/vm-network'), dir, { recursive: true });
      await generateTree(path.join(dir, 'generated'), n);
      const last = lastVm(n);
      baseline.push(await runProcess([path.join(benchDir, 'walk-and-parse.mjs'), dir]));
      for (const [label, args] of COMMANDS) {
        const argv = args.map((arg) => arg.replace('{last}', last));
        byCommand.get(label)!.push(await runProcess([cli, ...argv, '-f', dir], dir));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  const rows: string[][] = [];
  const add = (label: string, runs: readonly ProcessRun[]): void => {
    const times = runs.map((r) => r.ms);
    const cpu = runs.map((r) => r.cpuMs);
    runs.forEach((r, i) => {
      rows.push([
        label,
        formatCount(SIZES[i]!),
        r.ms.toFixed(0),
        r.cpuMs.toFixed(0),
        `${(r.cpuMs / baseline[i]!.cpuMs).toFixed(1)}x`,
        (r.maxRss / 1024).toFixed(0),
        growth(SIZES, times, i),
        growth(SIZES, cpu, i).replace('time', 'CPU'),
      ]);
    });
  };
  add('walk + parse (baseline)', baseline);
  for (const [label] of COMMANDS) add(`cosi ${label}`, byCommand.get(label)!);
  printTable(
    'commands on a whole run: vm-network trees, each command its own process',
    [
      'command',
      'size',
      'wall ms',
      'CPU ms',
      'CPU / baseline',
      'peak MB',
      'wall growth',
      'CPU growth',
    ],
    rows,
  );
}

/** The id of the last VM of a generated tree of `n` resources (every 100th is a host). */
function lastVm(n: number): string {
  let i = n - 1;
  while (i % 100 === 0) i--;
  return `vm-${i}`;
}
