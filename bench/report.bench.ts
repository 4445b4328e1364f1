/**
 * `cosi report` on generated trees of VMs and Hosts through the vm-network controllers, at 1,000
 * and 10,000 resources (the same with --quick: the sizes the issue asks about): the size of
 * the HTML page (bytes per resource; target: a few MB at 10k) and its time against `cosi check`
 * of the same tree in the same run (the baseline: the report adds recording the run, assembling
 * the data and laying the graph out), best of two each.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { generateTree } from './vm-network-tree.js';
import { formatCount, growth, printTable, sizes } from './harness.js';
import type * as ProgramModule from '../src/cli/program.js';

const SIZES = sizes([1_000, 10_000], [1_000, 10_000]);
const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

export async function run(): Promise<void> {
  const { runCli } = (await import(dist('cli/program.js'))) as typeof ProgramModule;
  const config = path.resolve('fixtures/vm-network/cosi.config.ts');
  const io: Parameters<typeof runCli>[1] = {
    stdout: { write: () => true },
    stderr: { write: () => true },
    cwd: process.cwd(),
    env: {},
    isTTY: false,
  };
  const best = async (argv: string[]): Promise<number> => {
    const times: number[] = [];
    for (let i = 0; i < 2; i++) {
      const start = performance.now();
      const code = await runCli(argv, io);
      times.push(performance.now() - start);
      if (code !== 0) throw new Error(`${argv.join(' ')} exited ${code}`);
    }
    return Math.min(...times);
  };
  const rows: string[][] = [];
  const times: number[] = [];
  for (const [i, n] of SIZES.entries()) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-report-bench-'));
    try {
      await generateTree(dir, n);
      const file = path.join(dir, 'report.html');
      const common = ['-f', dir, '--config', config, '-q'];
      const check = await best(['check', ...common, '-o', 'json']);
      const report = await best(['report', ...common, '-o', file]);
      times.push(report);
      const bytes = (await stat(file)).size;
      rows.push([
        formatCount(n),
        `${(bytes / 1024 / 1024).toFixed(2)} MB`,
        `${(bytes / n).toFixed(0)} B`,
        `${check.toFixed(0)} ms`,
        `${report.toFixed(0)} ms`,
        `${(report / check).toFixed(2)}x`,
        growth(SIZES, times, i),
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  printTable(
    'report: the HTML page of a generated vm-network tree, against cosi check of it',
    ['resources', 'page', 'per resource', 'check', 'report', 'report / check', 'growth'],
    rows,
  );
}
