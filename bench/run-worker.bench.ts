/**
 * `cosi run` in memory on generated vm-network trees of 1,000, 5,000 and 10,000 manifests
 * (--quick: the first two): the time from the command's start to its "converged" log line, and
 * the convergence alone (from leading to converged, as the log says it), with the controllers in
 * the supervised worker thread (as `cosi run` runs them) against the same command with them on
 * the main thread (as a test on the sources runs it), alternated, best of two each.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type * as RunModule from '../src/cli/commands/run.js';
import type { CliIo } from '../src/cli/io.js';
import { printTable, sizes } from './harness.js';
import { generateTree } from './vm-network-tree.js';

const SIZES = sizes([1_000, 5_000, 10_000], [1_000, 5_000]);
const TRIES = 2;

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

export async function run(): Promise<void> {
  const { runRuntime } = (await import(dist('cli/commands/run.js'))) as typeof RunModule;
  const rows: string[][] = [];
  for (const manifests of SIZES) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-run-bench-'));
    try {
      await generateTree(dir, manifests);
      await cp(dir);
      const best = { worker: [Infinity, Infinity], thread: [Infinity, Infinity] };
      for (let i = 0; i < TRIES; i++) {
        for (const where of ['thread', 'worker'] as const) {
          const [total, converge] = await once(runRuntime, dir, where === 'worker');
          best[where] = [Math.min(best[where][0]!, total), Math.min(best[where][1]!, converge)];
        }
      }
      const [wt, wc] = best.worker as [number, number];
      const [tt, tc] = best.thread as [number, number];
      rows.push([
        manifests.toLocaleString('en-US'),
        `${wt.toFixed(0)} ms`,
        `${wc.toFixed(0)} ms`,
        `${tt.toFixed(0)} ms`,
        `${tc.toFixed(0)} ms`,
        `${(wt / tt).toFixed(2)}x / ${(wc / tc).toFixed(2)}x`,
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
  printTable(
    `cosi run (memory): start to converged, and the convergence alone; controllers in the worker vs on the main thread (best of ${TRIES})`,
    ['manifests', 'worker: total', 'converge', 'baseline main thread: total', 'converge', 'ratio'],
    rows,
  );
}

/** The project's config beside the generated tree. */
async function cp(dir: string): Promise<void> {
  const { copyFile } = await import('node:fs/promises');
  await copyFile(
    path.resolve('fixtures/vm-network/cosi.config.ts'),
    path.join(dir, 'cosi.config.ts'),
  );
}

/** One `cosi run` until it logs its convergence, then SIGTERM: [total ms, convergence ms]. */
async function once(
  runRuntime: typeof RunModule.runRuntime,
  dir: string,
  isolateUserCode: boolean,
): Promise<[number, number]> {
  let stderr = '';
  let terminate = (): void => undefined;
  let converged: ((line: string) => void) | undefined;
  const seen = new Promise<string>((resolve) => (converged = resolve));
  const io: CliIo = {
    stdout: { write: () => true },
    stderr: {
      write: (text: string) => {
        stderr += text;
        const line = /converged in (\S+)/.exec(text);
        if (line?.[1]) converged?.(line[1]);
        return true;
      },
    },
    cwd: dir,
    env: {},
    isTTY: false,
    isolateUserCode,
    onInterrupt: () => () => undefined,
    onTerminate: (handler) => {
      terminate = handler;
      return () => undefined;
    },
  };
  const t0 = performance.now();
  const running = runRuntime(io, [dir], { state: 'memory', leaseTtl: '5s' });
  const failed = running.then(() => {
    throw new Error(`cosi run ended before it converged:\n${stderr}`);
  });
  const took = await Promise.race([seen, failed]);
  const total = performance.now() - t0;
  terminate();
  const { exitCode } = await running;
  if (exitCode !== 0) throw new Error(`cosi run exited ${exitCode}:\n${stderr}`);
  return [total, parseMs(took)];
}

/** `850ms`, `1.2s`, `1m3s` as ms. */
function parseMs(text: string): number {
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/([\d.]+)(ms|s|m)/g)) {
    ms += Number(n) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000);
  }
  return ms;
}
