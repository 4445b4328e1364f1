/**
 * `startTrackingOutputs` / `cleanupOutputs`: a whole-world controller destroys the outputs it did
 * not write in a pass. On a domain of quotas: each requested quota is granted twice over.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineResource, type Controller } from '../../../src/index.js';
import { createHarness, type Harness } from '../../support/harness.js';

const Quota = defineResource<{ units: number }>({
  type: 'Quotas.limits.example.org',
  defaultNamespace: 'requested',
  defaultSpec: () => ({ units: 0 }),
});
const GRANTED = 'granted';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

interface GrantOptions {
  /** Called in each pass after tracking started; may throw to crash the pass. */
  during?: () => void;
}

function grantDouble(options: GrantOptions = {}): Controller {
  return {
    name: 'GrantDouble',
    inputs: [{ namespace: Quota.namespace, type: Quota.type, kind: 'strong' }],
    outputs: [{ type: Quota.type, kind: 'shared' }],
    async run(rt) {
      for await (const _ of rt.events()) {
        rt.startTrackingOutputs();
        options.during?.();
        for (const quota of await rt.list<{ units: number }>(Quota.kind())) {
          await rt.modify(
            Quota.create(quota.metadata.id, undefined, { namespace: GRANTED }),
            (d) => {
              d.spec.units = quota.spec.units * 2;
            },
          );
        }
        await rt.cleanupOutputs(Quota.kind(GRANTED));
      }
    },
  };
}

async function granted(): Promise<Record<string, number>> {
  const quotas = await h.state.list<{ units: number }>(Quota.kind(GRANTED));
  return Object.fromEntries(quotas.map((q) => [q.metadata.id, q.spec.units]));
}

describe('output tracking', () => {
  // Ported from cosi-project/runtime pkg/controller/conformance/runtime.go TestIntDoublerController
  it('destroys the outputs a pass did not write', async () => {
    h = createHarness();
    await h.state.create(Quota.create('one', { units: 1 }));
    await h.runtime.register(grantDouble());
    await h.runtime.converge();
    await h.state.create(Quota.create('two', { units: 2 }));
    await h.runtime.converge();
    expect(await granted()).toEqual({ one: 2, two: 4 });

    await h.state.create(Quota.create('three', { units: 3 }));
    await h.runtime.converge();
    expect(await granted()).toEqual({ one: 2, two: 4, three: 6 });

    await h.state.destroy(Quota.pointer('three'));
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(await granted()).toEqual({ one: 2, two: 4 });
  });

  it('leaves alone what the controller does not own', async () => {
    h = createHarness();
    await h.state.create(Quota.create('manual', { units: 100 }, { namespace: GRANTED }));
    await h.state.create(Quota.create('one', { units: 1 }));
    await h.runtime.register(grantDouble());
    await h.runtime.converge();
    expect(await granted()).toEqual({ manual: 100, one: 2 });
  });

  it('refuses to start twice in a pass, and cleanupOutputs without a start, saying what to do', async () => {
    h = createHarness();
    const caught: string[] = [];
    await h.runtime.register({
      name: 'Careless',
      inputs: [],
      outputs: [{ type: Quota.type, kind: 'shared' }],
      async run(rt) {
        for await (const _ of rt.events()) {
          await rt.cleanupOutputs(Quota.kind(GRANTED)).catch((e: unknown) => {
            caught.push((e as Error).message);
          });
          rt.startTrackingOutputs();
          try {
            rt.startTrackingOutputs();
          } catch (e) {
            caught.push((e as Error).message);
          }
          return;
        }
      },
    });
    await h.runtime.converge();
    expect(caught).toHaveLength(2);
    expect(caught[0]).toMatch(/call startTrackingOutputs\(\) at the start of the pass/);
    expect(caught[1]).toMatch(/already on; end each pass with cleanupOutputs\(\)/);
  });

  it('drops the tracking of a pass that crashed, so the restarted run can start again', async () => {
    h = createHarness();
    await h.state.create(Quota.create('one', { units: 1 }));
    let passes = 0;
    await h.runtime.register(
      grantDouble({
        during: () => {
          if (++passes === 1) throw new Error('quota service down');
        },
      }),
    );
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(report.controllers[0]).toMatchObject({ errors: 1, restarts: 1 });
    expect(await granted()).toEqual({ one: 2 });
  });
});
