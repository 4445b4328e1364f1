import { afterEach, describe, expect, it } from 'vitest';
import { type Controller } from '../../../src/index.js';
import { createHarness, Int, Str, type Harness } from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** Fails its first `failures` runs, recording the (simulated) time of each start. */
function flaky(failures: number, starts: number[], reset = true): Controller {
  let runs = 0;
  return {
    name: 'Flaky',
    inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'weak' }],
    outputs: [{ type: Str.type, kind: 'exclusive' }],
    async run(rt) {
      starts.push(rt.clock.now());
      runs++;
      for await (const _ of rt.events()) {
        if (runs <= failures) throw new Error(`boom ${runs}`);
        await rt.modify(Str.create('ok'), (d) => {
          d.spec.value = 'done';
        });
        if (reset) rt.resetRestartBackoff();
      }
    },
  };
}

describe('controller restarts', () => {
  it('restarts a controller that throws after 500 ms, then x1.5 each time', async () => {
    h = createHarness();
    const starts: number[] = [];
    await h.runtime.register(flaky(3, starts));
    const t0 = h.clock.now();
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(starts.map((t) => t - t0)).toEqual([0, 500, 1250, 2375]);
    expect(report.controllers[0]).toMatchObject({ name: 'Flaky', errors: 3, restarts: 3 });
    expect((await h.state.get<{ value: string }>(Str.pointer('ok'))).spec.value).toBe('done');
  });

  it('keeps the error of a failing controller in its status', async () => {
    h = createHarness();
    await h.runtime.register(flaky(100, []));
    const report = await h.runtime.converge({ maxAttempts: 4 });
    expect(report.converged).toBe(false);
    expect(report.reason).toBe('failing');
    expect(report.controllers[0]).toMatchObject({
      condition: 'failed',
      lastError: { code: 'error', message: 'boom 4' },
      errors: 4,
    });
    expect(h.runtime.status('Flaky')?.condition).toBe('failed');
  });

  it.each([
    [true, [0, 500, 1000]],
    [false, [0, 500, 1250]],
  ])(
    'restarts after the initial interval again only after resetRestartBackoff (reset: %s)',
    async (reset, expected) => {
      h = createHarness();
      const starts: number[] = [];
      let runs = 0;
      // Run 1 fails at once; run 2 reconciles once (resetting if told to), then fails.
      const controller: Controller = {
        name: 'Resetter',
        inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'weak' }],
        outputs: [{ type: Str.type, kind: 'exclusive' }],
        async run(rt) {
          starts.push(rt.clock.now());
          const run = ++runs;
          let passes = 0;
          for await (const _ of rt.events()) {
            passes++;
            if (run === 1) throw new Error('first run fails');
            if (run === 2 && passes === 1) {
              if (reset) rt.resetRestartBackoff();
              rt.queueReconcile();
              continue;
            }
            if (run === 2) throw new Error('second run fails later');
          }
        },
      };
      await h.runtime.register(controller);
      const t0 = h.clock.now();
      await h.runtime.converge();
      expect(starts.map((t) => t - t0)).toEqual(expected);
    },
  );
});
