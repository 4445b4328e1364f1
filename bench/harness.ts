/**
 * Shared helpers for the benchmarks: load the built package, time work against a baseline, print a
 * table.
 *
 * Benchmarks measure the real build (`dist/`), not the sources: the types come from `src/`, the
 * code from `../dist/index.js`, loaded at run time.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type * as Cosi from '../src/index.js';

export type CosiModule = typeof Cosi;

/** The built package, as `import ... from 'cosi'` would get it. Run `npm run build` first. */
export async function loadBuiltCosi(): Promise<CosiModule> {
  const url = new URL('../dist/index.js', import.meta.url).href;
  return (await import(url)) as CosiModule;
}

export interface Measurement {
  /** Units of work done per run (resources created, listed...). */
  readonly ops: number;
  /** The best (shortest) run, in milliseconds. */
  readonly ms: number;
  readonly opsPerSecond: number;
}

/** A piece of work to time: `prepare` runs untimed before each run and hands its result over. */
export interface Workload<T> {
  readonly prepare: () => T | Promise<T>;
  readonly work: (input: T) => void | Promise<void>;
}

export interface CompareOptions {
  /** Timed runs of each side, after one warm-up run each. */
  readonly runs?: number;
}

/**
 * Times the engine and its baseline, both doing `ops` units of work, and keeps the best run of
 * each. Runs alternate between the two sides, so that a busy machine slows both alike; a garbage
 * collection before each run keeps one run's garbage from being billed to the next.
 *
 * What a run worked on (its prepared input: a store it filled, say) stays alive until the next run
 * of the same side has finished. In V8 the hidden classes of frozen objects are held only by the
 * objects and, weakly, by the code optimized for them: when the last store using them was
 * collected before a run, that run started on thrown-away code and re-optimized as it went (create
 * at 10k came out between 13 and 25 ms a run, median 21). A real process keeps its state, so the
 * steady state is what is measured; both sides alike.
 */
export async function compare<A, B>(
  ops: number,
  engine: Workload<A>,
  baseline: Workload<B>,
  options: CompareOptions = {},
): Promise<{ cosi: Measurement; baseline: Measurement }> {
  const runs = options.runs ?? 3;
  let bestEngine = Number.POSITIVE_INFINITY;
  let bestBaseline = Number.POSITIVE_INFINITY;
  const engineRuns = new Runner(engine);
  const baselineRuns = new Runner(baseline);
  // Run 0 warms the JIT up and is not counted.
  for (let i = 0; i <= runs; i++) {
    const engineMs = await engineRuns.timeOnce();
    const baselineMs = await baselineRuns.timeOnce();
    if (i > 0) {
      bestEngine = Math.min(bestEngine, engineMs);
      bestBaseline = Math.min(bestBaseline, baselineMs);
    }
  }
  return { cosi: toMeasurement(ops, bestEngine), baseline: toMeasurement(ops, bestBaseline) };
}

/** Runs one side of a comparison, holding on to the last run's input until the next has run. */
class Runner<T> {
  /** Only held, never read: see {@link compare}. */
  previous: T | undefined;

  constructor(private readonly workload: Workload<T>) {}

  async timeOnce(): Promise<number> {
    const input = await this.workload.prepare();
    collectGarbage();
    const start = process.hrtime.bigint();
    await this.workload.work(input);
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    this.previous = input;
    return ms;
  }
}

const toMeasurement = (ops: number, ms: number): Measurement => ({
  ops,
  ms,
  opsPerSecond: (ops / ms) * 1000,
});

function collectGarbage(): void {
  if (typeof gc === 'function') gc();
}

/**
 * Heap in use after eight full collections (with `--expose-gc`): what a run retains. Two were
 * not enough: after a large load, heap use held steady for four cycles and then the fifth still
 * freed megabytes (V8 lets go of some of what its code caches refer to only after some cycles),
 * which read as retained.
 */
export function retainedHeap(): number {
  if (typeof gc === 'function') for (let i = 0; i < 8; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** Time and heap of a run, per resource retained beyond what was there before. */
export interface TimeAndHeap {
  readonly ms: number;
  readonly bytesPerResource: number;
}

/** `--quick` on the command line: the small sizes only. */
export const quick = process.argv.includes('--quick');

/** The sizes a benchmark runs at: `full` normally, `small` with `--quick`. */
export const sizes = (full: readonly number[], small: readonly number[]): readonly number[] =>
  quick ? small : full;

export const formatCount = (n: number): string =>
  n >= 1_000_000 && n % 1_000_000 === 0
    ? `${n / 1_000_000}M`
    : n >= 1_000 && n % 1_000 === 0
      ? `${n / 1_000}k`
      : String(n);

/**
 * How a time grew from the previous size to this one, against how the size grew: `x10 -> x10.4`
 * is linear, `x5 -> x24` quadratic. Empty for the first size.
 */
export function growth(
  sizesSoFar: readonly number[],
  times: readonly number[],
  index: number,
): string {
  if (index === 0) return '';
  const n = (sizesSoFar[index] as number) / (sizesSoFar[index - 1] as number);
  const t = (times[index] as number) / (times[index - 1] as number);
  return `size x${n.toFixed(n < 10 ? 1 : 0)} -> time x${t.toFixed(1)}`;
}

/** Prints a left/right aligned table: a title, a header, a rule and the rows. */
export function printTable(
  title: string,
  header: readonly string[],
  rows: readonly (readonly string[])[],
  notes: readonly string[] = [],
): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const format = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const lines = [title, '', format(header), rule, ...rows.map(format), ...notes, ''];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Prints rows of engine-vs-loop runs at growing sizes, with ratios and growth. */
export function printScaling(
  title: string,
  name: string,
  runs: readonly { readonly n: number; readonly loop: TimeAndHeap; readonly cosi: TimeAndHeap }[],
): void {
  const ns = runs.map((r) => r.n);
  const times = runs.map((r) => r.cosi.ms);
  printTable(
    title,
    ['size', 'loop ms', `${name} ms`, `${name} / loop`, 'heap beyond loop', 'growth'],
    runs.map((r, i) => [
      formatCount(r.n),
      r.loop.ms.toFixed(0),
      r.cosi.ms.toFixed(0),
      `${(r.cosi.ms / r.loop.ms).toFixed(1)}x`,
      `${(r.cosi.bytesPerResource - r.loop.bytesPerResource).toFixed(0)} B/resource`,
      growth(ns, times, i),
    ]),
  );
}

/** One whole process's cost. */
export interface ProcessRun {
  readonly ms: number;
  /** Peak resident set, in kilobytes. */
  readonly maxRss: number;
  /** CPU time, user + system, of every thread, in milliseconds. */
  readonly cpuMs: number;
}

/** The median time, peak RSS and CPU time of some runs (each median on its own). */
export function medianRun(runs: readonly ProcessRun[]): ProcessRun {
  const median = (values: number[]): number => values.sort((a, b) => a - b)[values.length >> 1]!;
  return {
    ms: median(runs.map((r) => r.ms)),
    maxRss: median(runs.map((r) => r.maxRss)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
  };
}

/**
 * The wall time of `node ...args`, ms, from spawn to close, with nothing preloaded: what a user
 * waits. (`runProcess` preloads a module to read the process's CPU time and peak memory, and a
 * preload is a round of Node's ES module loader in the process and in each of its workers: tens
 * of ms on a start of a hundred.)
 */
export function runProcessWall(
  args: readonly string[],
  cwd?: string,
  env?: NodeJS.ProcessEnv,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, [...args], {
      stdio: 'ignore',
      ...(cwd ? { cwd } : {}),
      ...(env ? { env } : {}),
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}`));
      else resolve(performance.now() - start);
    });
  });
}

/**
 * Runs `node args...` (in `cwd` when given) with a preload that reports the peak RSS and the CPU
 * time on exit;
 * rejects when it exits non-zero, with the end of its stderr.
 */
export function runProcess(
  args: readonly string[],
  cwd?: string,
  env?: NodeJS.ProcessEnv,
): Promise<ProcessRun> {
  const preload = fileURLToPath(new URL('./report-rss.mjs', import.meta.url));
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, ['--import', preload, ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
      ...(cwd ? { cwd } : {}),
      ...(env ? { env } : {}),
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - start;
      const match = /COSI_BENCH_MAX_RSS (\d+)/.exec(stderr);
      const cpu = /COSI_BENCH_CPU_US (\d+)/.exec(stderr);
      if (code !== 0 || !match || !cpu) {
        reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(-2000)}`));
        return;
      }
      resolve({ ms, maxRss: Number(match[1]), cpuMs: Number(cpu[1]) / 1000 });
    });
  });
}
