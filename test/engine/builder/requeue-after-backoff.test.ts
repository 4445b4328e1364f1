/** A `{ requeueAfter }` result is a success for the backoff, as controller-runtime treats it. */
import { afterEach, describe, expect, it } from 'vitest';
import { controllerManagedBy } from '../../../src/engine/builder/builder.js';
import { createHarness, recorder, VM, type Harness } from './fixtures.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('requeueAfter and the backoff', () => {
  // Ported from kubernetes-sigs/controller-runtime pkg/internal/controller/controller.go reconcileHandler (RequeueAfter forgets the item in the rate limiter)
  it('clears the backoff: the next error waits the base interval again', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, (_ctx, _request, call) => {
      if (call === 3) return { requeueAfter: 100 };
      if (call <= 4) throw new Error(`attempt ${call} failed`);
      return undefined;
    });
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    const start = h.clock.now();
    const report = await h.runtime.converge();
    expect(r.calls.map((c) => c.at - start)).toEqual([0, 500, 1250, 1350, 1850]);
    expect(report.converged).toBe(true);
  });

  it('does not leave the request failing, nor count toward maxAttempts', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, (_ctx, _request, call) => {
      if (call === 7) return undefined;
      if (call % 2 === 0) return { requeueAfter: 100 };
      throw new Error(`attempt ${call} failed`);
    });
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    const report = await h.runtime.converge({ maxAttempts: 2 });
    expect(r.calls).toHaveLength(7);
    expect(report.converged).toBe(true);
    expect(report.controllers[0]?.failingItems).toEqual([]);
  });
});
