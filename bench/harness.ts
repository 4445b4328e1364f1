/**
 * Shared helpers for the benchmarks: load the built package, time work against a baseline, print a
 * table.
 *
 * Benchmarks measure the real build (`dist/`), not the sources: the types come from `src/`, the
 * code from `../dist/index.js`, loaded at run time.
 */
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
  // Run 0 warms the JIT up and is not counted.
  for (let i = 0; i <= runs; i++) {
    const engineMs = await timeOnce(engine);
    const baselineMs = await timeOnce(baseline);
    if (i > 0) {
      bestEngine = Math.min(bestEngine, engineMs);
      bestBaseline = Math.min(bestBaseline, baselineMs);
    }
  }
  return { cosi: toMeasurement(ops, bestEngine), baseline: toMeasurement(ops, bestBaseline) };
}

async function timeOnce<T>(workload: Workload<T>): Promise<number> {
  const input = await workload.prepare();
  collectGarbage();
  const start = process.hrtime.bigint();
  await workload.work(input);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const toMeasurement = (ops: number, ms: number): Measurement => ({
  ops,
  ms,
  opsPerSecond: (ops / ms) * 1000,
});

function collectGarbage(): void {
  if (typeof gc === 'function') gc();
}

/** One line of a comparison: the engine against a hand-written baseline doing the same work. */
export interface ComparisonRow {
  readonly operation: string;
  readonly cosi: Measurement;
  readonly baselineName: string;
  readonly baseline: Measurement;
}

const formatRate = (m: Measurement): string => Math.round(m.opsPerSecond).toLocaleString('en-US');

/** Prints a table of engine vs baseline rates, with how many times faster the baseline is. */
export function printComparison(title: string, rows: readonly ComparisonRow[]): void {
  const header = ['operation', 'cosi ops/s', 'baseline', 'baseline ops/s', 'baseline / cosi'];
  const body = rows.map((row) => [
    row.operation,
    formatRate(row.cosi),
    row.baselineName,
    formatRate(row.baseline),
    `${(row.baseline.opsPerSecond / row.cosi.opsPerSecond).toFixed(1)}x`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((line) => line[i]!.length)));
  // Text columns left-aligned, numbers right-aligned.
  const numeric = [false, true, false, true, true];
  const format = (cells: readonly string[]): string =>
    cells
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  const lines = [title, '', format(header), rule, ...body.map(format), ''];
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** Heap in use after two full collections (with `--expose-gc`): what a run retains. */
export function retainedHeap(): number {
  if (typeof gc === 'function') {
    gc();
    gc();
  }
  return process.memoryUsage().heapUsed;
}

/** Time and heap of a run, per resource retained beyond what was there before. */
export interface TimeAndHeap {
  readonly ms: number;
  readonly bytesPerResource: number;
}

/** Prints an engine run next to the hand-written loop doing the same work, with the ratios. */
export function printTimeAndHeap(
  title: string,
  name: string,
  loop: TimeAndHeap,
  cosi: TimeAndHeap,
): void {
  const row = (label: string, m: TimeAndHeap): string =>
    `  ${label.padEnd(20)}${m.ms.toFixed(0).padStart(7)} ms   ${m.bytesPerResource.toFixed(0).padStart(6)} B/resource`;
  const lines = [
    title,
    '',
    row('hand-written loop', loop),
    row(`cosi ${name}`, cosi),
    '',
    `  ${name} / loop: ${(cosi.ms / loop.ms).toFixed(1)}x time; heap beyond the loop's data: ${(cosi.bytesPerResource - loop.bytesPerResource).toFixed(0)} B/resource`,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}
