/**
 * What the run record costs: the engine chain of bench/engine.bench.ts (Int -> Str -> Sentence,
 * whole-world controllers) with no recorder, then with a `RunRecord` installed, at 10,000 and
 * 50,000 inputs (--quick: 2,000 and 10,000). Target: under 15% more time with the record; without
 * it the runtime pays one check per call site, which the "off" column shows next to the
 * engine benchmark's own figures.
 */
import { engine } from './engine.bench.js';
import { formatCount, loadBuiltCosi, printTable, sizes, type TimeAndHeap } from './harness.js';

const SIZES = sizes([10_000, 50_000], [2_000, 10_000]);

export async function run(): Promise<void> {
  const cosi = await loadBuiltCosi();
  await engine(cosi, 2_000);
  await engine(cosi, 2_000, true);
  const rows: string[][] = [];
  for (const n of SIZES) {
    // Off and on alternately, three times, the best of each: a loaded machine's noise is larger
    // than what is measured, and the best run is the one least disturbed by it.
    const off: TimeAndHeap[] = [];
    const on: TimeAndHeap[] = [];
    for (let i = 0; i < 3; i++) {
      off.push(await engine(cosi, n));
      on.push(await engine(cosi, n, true));
    }
    const base = Math.min(...off.map((r) => r.ms));
    const best = Math.min(...on.map((r) => r.ms));
    const heap = Math.min(...on.map((r) => r.bytesPerResource));
    rows.push([
      formatCount(n),
      `${base.toFixed(0)} ms`,
      `${best.toFixed(0)} ms`,
      `${(((best - base) / base) * 100).toFixed(1)}%`,
      `${heap.toFixed(0)} B`,
    ]);
  }
  printTable(
    'record: the engine chain with the run record off and on',
    ['inputs', 'off', 'on', 'overhead', 'heap/resource (on)'],
    rows,
  );
}
