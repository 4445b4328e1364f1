/**
 * A queue controller's run hook runs beside its workers. As in COSI (`qruntime.runWithBackoff`):
 * one that returns is done; one that throws is restarted with backoff, and the backoff starts
 * over when the run that failed had lasted more than a minute, so a hook that fails now and then
 * after long healthy runs is not restarted later and later, nor given up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { QController, QRuntime } from '../../../src/index.js';
import { createHarness, Int, Str, type Harness } from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** A queue controller whose run hook runs `runs[i]` on its i-th start, recording when each started. */
function withHook(
  runs: readonly ((rt: QRuntime) => Promise<void>)[],
  starts: number[],
): QController {
  return {
    name: 'Hooked',
    settings: {
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
      outputs: [{ type: Str.type, kind: 'exclusive' }],
      runHook: async (rt) => {
        starts.push(rt.clock.now());
        await runs[starts.length - 1]?.(rt);
      },
    },
    reconcile: async () => {},
    mapInput: async () => [],
  };
}

const fail = async (): Promise<void> => {
  throw new Error('hook failed');
};
/** Runs for `ms` on the controller's clock, then fails. */
const failAfter =
  (ms: number) =>
  (rt: QRuntime): Promise<void> =>
    new Promise((_, reject) => {
      rt.clock.setTimer(ms, () => reject(new Error(`hook failed after ${ms} ms`)));
    });
const end = async (): Promise<void> => {};

describe('a queue controller run hook', () => {
  it('is restarted after 500 ms when it throws, then x1.5, and not once it returns', async () => {
    h = createHarness();
    const starts: number[] = [];
    await h.runtime.register(withHook([fail, fail, fail, end], starts));
    const t0 = h.clock.now();
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(starts.map((t) => t - t0)).toEqual([0, 500, 1250, 2375]);
    expect(report.controllers[0]).toMatchObject({ name: 'Hooked', errors: 3, restarts: 3 });
  });

  it('is restarted after the initial 500 ms again when the run that failed lasted over a minute', async () => {
    h = createHarness();
    const starts: number[] = [];
    await h.runtime.register(withHook([fail, fail, failAfter(61_000), fail, end], starts));
    const t0 = h.clock.now();
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    // 0 fails, 500 fails, 1250 runs 61 s and fails at 62250: 500 ms, not 1125 ms; then x1.5.
    expect(starts.map((t) => t - t0)).toEqual([0, 500, 1250, 62_750, 63_500]);
  });

  it('keeps backing off a hook whose failing runs are short', async () => {
    h = createHarness();
    const starts: number[] = [];
    await h.runtime.register(withHook([fail, fail, failAfter(59_000), end], starts));
    const t0 = h.clock.now();
    await h.runtime.converge();
    // 1250 runs 59 s and fails at 60250: the backoff goes on, 1125 ms.
    expect(starts.map((t) => t - t0)).toEqual([0, 500, 1250, 61_375]);
  });
});
