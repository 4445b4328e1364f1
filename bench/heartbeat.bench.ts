/**
 * What the project worker's heartbeat costs the engine: the qtransform chain (a reconcile per
 * item and stage, the most reconciles per resource of the benchmarks) with and without the
 * heartbeat cosi installs in its worker (`onReconcileStart` writing the controller and the item
 * into shared memory), alternating, the best of five each, at 10,000 and 100,000 inputs
 * (--quick: 2,000 and 10,000).
 */
import { formatCount, loadBuiltCosi, printTable, sizes } from './harness.js';
import { engine } from './qtransform-chain.bench.js';
import type * as Heartbeat from '../src/app/user-code-heartbeat.js';

const SIZES = sizes([10_000, 100_000], [2_000, 10_000]);
const RUNS = 5;

export async function run(): Promise<void> {
  const cosi = await loadBuiltCosi();
  const { createHeartbeatBuffer, heartbeatWriter } = (await import(
    new URL('../dist/app/user-code-heartbeat.js', import.meta.url).href
  )) as typeof Heartbeat;
  const monitor = heartbeatWriter(createHeartbeatBuffer());
  const withHeartbeat = { onReconcileStart: monitor.reconcile };
  for (let i = 0; i < 3; i++) {
    await engine(cosi, 2_000, 'time');
    await engine(cosi, 2_000, 'time', withHeartbeat);
  }
  const rows: string[][] = [];
  for (const n of SIZES) {
    let plain = Number.POSITIVE_INFINITY;
    let beating = Number.POSITIVE_INFINITY;
    for (let i = 0; i < RUNS; i++) {
      plain = Math.min(plain, (await engine(cosi, n, 'time')).ms);
      beating = Math.min(beating, (await engine(cosi, n, 'time', withHeartbeat)).ms);
    }
    rows.push([
      formatCount(n),
      plain.toFixed(0),
      beating.toFixed(0),
      `${((beating / plain - 1) * 100).toFixed(1)}%`,
    ]);
  }
  monitor.stop();
  printTable(
    'heartbeat: the qtransform chain with and without the worker heartbeat',
    ['size', 'plain ms', 'heartbeat ms', 'cost'],
    rows,
  );
}
