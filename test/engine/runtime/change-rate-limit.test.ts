/** The runtime's `changeRateLimit`: each controller's writes wait for a token of its own bucket. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  defineResource,
  SimulatedClock,
  type Controller,
  type Runtime,
} from '../../../src/index.js';

const Light = defineResource<{ on: boolean }>({
  type: 'Lights.home.example.org',
  defaultNamespace: 'home',
  defaultSpec: () => ({ on: false }),
});
const Fan = defineResource<{ on: boolean }>({
  type: 'Fans.home.example.org',
  defaultNamespace: 'home',
  defaultSpec: () => ({ on: false }),
});

let runtime: Runtime;
afterEach(async () => {
  await runtime.stop();
});

/** Switches `count` devices on in one pass, noting the clock after each write. */
function switcher(
  name: string,
  device: typeof Light,
  count: number,
  times: number[],
  clock: SimulatedClock,
): Controller {
  return {
    name,
    inputs: [],
    outputs: [{ type: device.type, kind: 'exclusive' }],
    async run(rt) {
      for await (const _ of rt.events()) {
        // Reads are not limited.
        for (let i = 0; i < count; i++) await rt.list(device.kind());
        for (let i = 0; i < count; i++) {
          await rt.modify(device.create(`d${i}`), (d) => {
            d.spec.on = true;
          });
          times.push(clock.now());
        }
      }
    },
  };
}

function setup(limit?: { limit: number; burst: number }): SimulatedClock {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  runtime = createRuntime(state, { clock, ...(limit ? { changeRateLimit: limit } : {}) });
  return clock;
}

describe('changeRateLimit', () => {
  // Ported from cosi-project/runtime pkg/controller/runtime/runtime_test.go ("rate limited" runtime: WithChangeRateLimit)
  it('lets a burst through, then one write per 1/limit seconds, on the simulated clock', async () => {
    const clock = setup({ limit: 2, burst: 2 });
    const times: number[] = [];
    await runtime.register(switcher('Lights', Light, 6, times, clock));
    const t0 = clock.now();
    const report = await runtime.converge();
    expect(report.converged).toBe(true);
    expect(times.map((t) => t - t0)).toEqual([0, 0, 500, 1000, 1500, 2000]);
  });

  it('gives each controller a bucket of its own', async () => {
    const clock = setup({ limit: 1, burst: 2 });
    const lights: number[] = [];
    const fans: number[] = [];
    await runtime.register(
      switcher('Lights', Light, 2, lights, clock),
      switcher('Fans', Fan, 2, fans, clock),
    );
    const t0 = clock.now();
    await runtime.converge();
    expect([...lights, ...fans].map((t) => t - t0)).toEqual([0, 0, 0, 0]);
  });

  it('does not limit anything without the option', async () => {
    const clock = setup();
    const times: number[] = [];
    await runtime.register(switcher('Lights', Light, 50, times, clock));
    const t0 = clock.now();
    await runtime.converge();
    expect(new Set(times.map((t) => t - t0))).toEqual(new Set([0]));
  });

  it('ends a write that waits for its turn when the runtime stops', async () => {
    const clock = setup({ limit: 1, burst: 1 });
    const times: number[] = [];
    await runtime.register(switcher('Lights', Light, 3, times, clock));
    const report = await runtime.converge({ maxTime: 100 });
    expect(report.reason).toBe('max-time');
    expect(times).toHaveLength(1);
    await runtime.stop();
    expect(runtime.status('Lights')?.condition).toBe('stopped');
  });

  it('refuses a limit that could never let a write through', () => {
    expect(() => setup({ limit: 0, burst: 1 })).toThrow(/changeRateLimit.limit/);
    expect(() => setup({ limit: 5, burst: 0 })).toThrow(/changeRateLimit.burst/);
    runtime = createRuntime(createInMemoryState());
  });
});
