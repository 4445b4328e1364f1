/**
 * `cosi run` in memory on generated vm-network trees of 1,000, 5,000 and 10,000 manifests
 * (--quick: the first two): the time from the command's start to its "converged" log line, and
 * the convergence alone (from leading to converged, as the log says it), with the controllers in
 * the supervised worker thread (as `cosi run` runs them) against the same command with them on
 * the main thread (as a test on the sources runs it, and as `cosi run` did before), each in a
 * fresh process, alternated, best of two each.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { printTable, sizes } from './harness.js';
import { generateTree } from './vm-network-tree.js';

const SIZES = sizes([1_000, 5_000, 10_000], [1_000, 5_000]);
const TRIES = 2;
const execFileAsync = promisify(execFile);

const dist = (p: string): string => new URL(`../dist/${p}`, import.meta.url).href;

export async function run(): Promise<void> {
  const rows: string[][] = [];
  for (const manifests of SIZES) {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-run-bench-'));
    try {
      await generateTree(dir, manifests);
      const best = { worker: [Infinity, Infinity], thread: [Infinity, Infinity] };
      for (let i = 0; i < TRIES; i++) {
        for (const where of ['thread', 'worker'] as const) {
          const [total, converge] = await once(dir, where === 'worker');
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

/**
 * One `cosi run` in a fresh process (each side starts cold, as a real `cosi run` does), until it
 * logs its convergence, then SIGTERM: [total ms from the command's start, convergence ms].
 */
async function once(dir: string, isolateUserCode: boolean): Promise<[number, number]> {
  const script = `
    const { runRuntime } = await import(${JSON.stringify(dist('cli/commands/run.js'))});
    let stderr = '';
    let terminate = () => undefined;
    let converged;
    const seen = new Promise((resolve) => (converged = resolve));
    const io = {
      stdout: { write: () => true },
      stderr: { write: (text) => { stderr += text; const m = /converged in (\\S+)/.exec(text); if (m) converged(m[1]); return true; } },
      cwd: ${JSON.stringify(dir)},
      env: {},
      isTTY: false,
      isolateUserCode: ${String(isolateUserCode)},
      onInterrupt: () => () => undefined,
      onTerminate: (handler) => { terminate = handler; return () => undefined; },
    };
    const t0 = performance.now();
    const running = runRuntime(io, [${JSON.stringify(dir)}], {
      state: 'memory', leaseTtl: '5s', config: ${JSON.stringify(path.resolve('fixtures/vm-network/cosi.config.ts'))},
    });
    const took = await Promise.race([seen, running.then(() => { throw new Error('ended before it converged: ' + stderr); })]);
    const total = performance.now() - t0;
    terminate();
    const { exitCode } = await running;
    process.stdout.write(JSON.stringify({ total, took, exitCode, stderr }));
    process.exit(0);
  `;
  // A file, not `-e`: the worker would inherit `--input-type`.
  const file = path.join(dir, 'run-once.mjs');
  await writeFile(file, script);
  const { stdout } = await execFileAsync(process.execPath, [file], {
    maxBuffer: 1 << 26,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const result = JSON.parse(stdout) as {
    total: number;
    took: string;
    exitCode: number;
    stderr: string;
  };
  if (result.exitCode !== 0)
    throw new Error(`cosi run exited ${result.exitCode}:\n${result.stderr}`);
  return [result.total, parseMs(result.took)];
}

/** `850ms`, `1.2s`, `1m3s` as ms. */
function parseMs(text: string): number {
  let ms = 0;
  for (const [, n, unit] of text.matchAll(/([\d.]+)(ms|s|m)/g)) {
    ms += Number(n) * (unit === 'ms' ? 1 : unit === 's' ? 1000 : 60_000);
  }
  return ms;
}
