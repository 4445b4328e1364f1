/**
 * Reads and writes are counted per state call, as COSI's metrics wrapper counts them: on a domain
 * of sensors (input) shown on displays (output).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  defineResource,
  type Controller,
  type ControllerMetrics,
  type ControllerRuntime,
} from '../../../src/index.js';
import { createHarness, type Harness } from '../../support/harness.js';

const Sensor = defineResource<{ celsius: number }>({
  type: 'Sensors.climate.example.org',
  defaultNamespace: 'climate',
  defaultSpec: () => ({ celsius: 0 }),
});
const Display = defineResource<{ text: string }>({
  type: 'Displays.climate.example.org',
  defaultNamespace: 'climate',
  defaultSpec: () => ({ text: '' }),
});

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

const metrics = (name: string): Readonly<ControllerMetrics> => {
  const m = h.runtime.metrics(name);
  if (!m) throw new Error(`no controller ${name}`);
  return m;
};

describe('controller metrics', () => {
  // Ported from cosi-project/runtime pkg/controller/conformance/runtime.go TestControllerRuntimeMetrics
  it('count a list and a modify creating the output as two reads, and a failed destroy as a write', async () => {
    h = createHarness();
    const showTemperature: Controller = {
      name: 'ShowTemperature',
      inputs: [{ namespace: Sensor.namespace, type: Sensor.type, kind: 'weak' }],
      outputs: [{ type: Display.type, kind: 'exclusive' }],
      async run(rt) {
        for await (const _ of rt.events()) {
          for (const sensor of await rt.list<{ celsius: number }>(Sensor.kind())) {
            if (sensor.spec.celsius === 451) throw new Error('the display caught fire');
            await rt.modify(Display.create(sensor.metadata.id), (d) => {
              d.spec.text = `${sensor.spec.celsius} °C`;
            });
            // Destroying what is not there fails, and still counts as a write.
            await rt.destroy(Display.pointer('nowhere')).catch(() => undefined);
          }
          rt.resetRestartBackoff();
        }
      },
    };
    await h.state.create(Sensor.create('kitchen', { celsius: 21 }));
    await h.runtime.register(showTemperature);
    await h.runtime.converge();
    expect((await h.state.get<{ text: string }>(Display.pointer('kitchen'))).spec.text).toBe(
      '21 °C',
    );
    expect(metrics('ShowTemperature')).toMatchObject({ wakeups: 1, reads: 2, writes: 2 });
    await h.state.modify(Sensor.create('kitchen'), (d) => {
      d.spec.celsius = 451;
    });
    await h.runtime.converge({ maxAttempts: 1 });
    expect(metrics('ShowTemperature')).toMatchObject({
      wakeups: 2,
      reads: 3,
      writes: 2,
      crashes: 1,
    });
  });

  let passes = 0;

  /** Runs `pass` once in a controller and returns how many reads and writes it counted. */
  async function countPass(
    pass: (rt: ControllerRuntime) => Promise<unknown>,
  ): Promise<{ reads: number; writes: number }> {
    const name = `Pass${++passes}`;
    await h.runtime.register({
      name,
      inputs: [{ namespace: Display.namespace, type: Display.type, kind: 'strong' }],
      outputs: [{ type: Display.type, kind: 'shared' }],
      async run(rt) {
        for await (const _ of rt.events()) {
          await pass(rt).catch(() => undefined);
          return;
        }
      },
    });
    await h.runtime.converge();
    const { reads, writes } = metrics(name);
    return { reads, writes };
  }

  it('count a modify as a read and a create, or as two reads and an update only when it changes', async () => {
    h = createHarness();
    const created = await countPass((rt) =>
      rt.modify(Display.create('mine'), (d) => {
        d.spec.text = 'y';
      }),
    );
    expect(created).toEqual({ reads: 1, writes: 1 });
    await h.state.modify(
      Display.create('other'),
      (d) => {
        d.spec.text = 'z';
      },
      { owner: 'Other' },
    );
    const owned = await countPass((rt) =>
      rt.modify(Display.create('other'), (d) => {
        d.spec.text = 'z';
      }),
    );
    expect(owned).toEqual({ reads: 2, writes: 0 });
    const refused = await countPass((rt) =>
      rt.modify(Display.create('other'), (d) => {
        d.spec.text = 'stolen';
      }),
    );
    expect(refused).toEqual({ reads: 2, writes: 1 });
  });

  it('count a modify whose updater is asynchronous the same way, once the updater has finished', async () => {
    h = createHarness();
    const later = async (): Promise<void> => {
      await Promise.resolve();
    };
    const created = await countPass((rt) =>
      rt.modify(Display.create('mine'), async (d) => {
        await later();
        d.spec.text = 'y';
      }),
    );
    expect(created).toEqual({ reads: 1, writes: 1 });
    const updated = await countPass((rt) =>
      rt.modify(Display.create('mine'), async (d) => {
        await later();
        d.spec.text = 'changed';
      }),
    );
    expect(updated).toEqual({ reads: 2, writes: 1 });
    await h.state.create(Display.create('other'), { owner: 'Other' });
    // Refused after the updater finished (another owner): a write, as with a synchronous one.
    const refused = await countPass((rt) =>
      rt.modify(Display.create('other'), async (d) => {
        await later();
        d.spec.text = 'stolen';
      }),
    );
    expect(refused).toEqual({ reads: 2, writes: 1 });
    // An updater that fails wrote nothing.
    const failed = await countPass((rt) =>
      rt.modify(Display.create('never'), async () => {
        await later();
        throw new Error('no');
      }),
    );
    expect(failed).toEqual({ reads: 1, writes: 0 });
  });

  it('count a failed create as a write', async () => {
    h = createHarness();
    await h.state.create(Display.create('hall'));
    expect(await countPass((rt) => rt.create(Display.create('hall')))).toEqual({
      reads: 0,
      writes: 1,
    });
  });

  it('count a teardown as a read, plus a read and a write when it changes the phase', async () => {
    h = createHarness();
    const counts = await countPass(async (rt) => {
      await rt.create(Display.create('porch'));
      await rt.teardown(Display.pointer('porch'));
      await rt.teardown(Display.pointer('porch'));
    });
    expect(counts).toEqual({ reads: 3, writes: 2 });
  });

  it('count a finalizer change as two reads, and a write only when it changes something', async () => {
    h = createHarness();
    await h.state.create(Display.create('attic'));
    const counts = await countPass(async (rt) => {
      await rt.addFinalizer(Display.pointer('attic'), 'keep');
      await rt.addFinalizer(Display.pointer('attic'), 'keep');
      await rt.removeFinalizer(Display.pointer('gone'), 'keep');
    });
    expect(counts).toEqual({ reads: 5, writes: 1 });
  });

  it('report per controller the changes it made, not the calls it counted', async () => {
    h = createHarness();
    await h.runtime.register({
      name: 'Noisy',
      inputs: [],
      outputs: [{ type: Display.type, kind: 'exclusive' }],
      async run(rt) {
        for await (const _ of rt.events()) {
          await rt.modify(Display.create('lobby'), (d) => {
            d.spec.text = 'hello';
          });
          await rt.modify(Display.create('lobby'), (d) => {
            d.spec.text = 'hello';
          });
          await rt.destroy(Display.pointer('nowhere')).catch(() => undefined);
        }
      },
    });
    const report = await h.runtime.converge();
    expect(report.controllers[0]).toMatchObject({ name: 'Noisy', writes: 1 });
    expect(report.writes).toBe(1);
    expect(metrics('Noisy')).toMatchObject({ reads: 3, writes: 2 });
  });
});
