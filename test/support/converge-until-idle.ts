import { expect } from 'vitest';
import type { Runtime } from '../../src/index.js';

/**
 * Converges until a run, after `settled` (every event of the last run came back, as on etcd),
 * finds nothing to do; at most 20 runs, each converged without errors.
 */
export async function convergeUntilIdle(
  runtime: Runtime,
  settled: () => Promise<void>,
): Promise<void> {
  for (let run = 0; ; run++) {
    expect(run).toBeLessThan(20);
    const report = await runtime.converge();
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(0);
    if (run > 0 && report.reconciles === 0) return;
    await settled();
  }
}
