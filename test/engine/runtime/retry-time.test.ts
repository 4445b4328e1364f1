/**
 * A report names when a controller in backoff tries again (`retryIn`, on the clock of the run):
 * the restart of a whole-world controller, the earliest retry of a queue controller's failing
 * items. On a domain of kettles (input) and brews (output).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineResource, type Controller, type QController } from '../../../src/index.js';
import { createHarness, type Harness } from '../../support/harness.js';

const Kettle = defineResource<{ litres: number }>({
  type: 'Kettles.kitchen.example.org',
  defaultNamespace: 'kitchen',
  defaultSpec: () => ({ litres: 1 }),
});
const Brew = defineResource<{ cups: number }>({
  type: 'Brews.kitchen.example.org',
  defaultNamespace: 'kitchen',
  defaultSpec: () => ({ cups: 0 }),
});

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('the retry time of a controller in backoff', () => {
  it('is the restart of a whole-world controller that keeps crashing', async () => {
    h = createHarness();
    await h.state.create(Kettle.create('k1'));
    const boiler: Controller = {
      name: 'Boiler',
      inputs: [{ namespace: Kettle.namespace, type: Kettle.type, kind: 'weak' }],
      outputs: [{ type: Brew.type, kind: 'exclusive' }],
      async run(rt) {
        for await (const _ of rt.events()) throw new Error('no water');
      },
    };
    await h.runtime.register(boiler);
    // Crashes at 0 and 500; the next restart (500 + 750) is past the 1 s bound.
    const report = await h.runtime.converge({ maxTime: 1000 });
    expect(report.reason).toBe('max-time');
    expect(report.controllers[0]).toMatchObject({ condition: 'backoff', retryIn: 750 });
  });

  it('is the earliest retry of a queue controller failing items', async () => {
    h = createHarness();
    await h.state.create(Kettle.create('k1'));
    await h.state.create(Kettle.create('k2'));
    const brewer: QController = {
      name: 'Brewer',
      settings: {
        inputs: [{ namespace: Kettle.namespace, type: Kettle.type, kind: 'primary' }],
        outputs: [{ type: Brew.type, kind: 'exclusive' }],
      },
      reconcile: (_rt, pointer) =>
        pointer.id === 'k1' ? Promise.reject(new Error('no water')) : Promise.resolve(),
      mapInput: async () => [],
    };
    await h.runtime.register(brewer);
    const report = await h.runtime.converge({ maxTime: 1000 });
    expect(report.reason).toBe('max-time');
    expect(report.controllers[0]).toMatchObject({ condition: 'backoff', retryIn: 750 });
  });

  it('is absent once the controller restarted and runs', async () => {
    h = createHarness();
    await h.state.create(Kettle.create('k1'));
    let runs = 0;
    await h.runtime.register({
      name: 'Boiler',
      inputs: [{ namespace: Kettle.namespace, type: Kettle.type, kind: 'weak' }],
      outputs: [],
      async run(rt) {
        runs++;
        for await (const _ of rt.events()) if (runs === 1) throw new Error('no water');
      },
    });
    const report = await h.runtime.converge();
    // Restarted, it waits for its next event: idle.
    expect(report.controllers[0]).toMatchObject({ condition: 'idle', errors: 1 });
    expect(report.controllers[0]).not.toHaveProperty('retryIn');
  });
});

describe('the condition of a whole-world controller', () => {
  it('is idle while its run waits for the next event, running while a pass is under way', async () => {
    h = createHarness();
    await h.state.create(Kettle.create('k1'));
    let inPass: (condition: string | undefined) => void = () => undefined;
    const seenInPass = new Promise<string | undefined>((resolve) => {
      inPass = resolve;
    });
    await h.runtime.register({
      name: 'Boiler',
      inputs: [{ namespace: Kettle.namespace, type: Kettle.type, kind: 'weak' }],
      outputs: [],
      async run(rt) {
        for await (const _ of rt.events()) {
          inPass(h.runtime.status('Boiler')?.condition);
        }
      },
    });
    const report = await h.runtime.converge();
    expect(report.reason).toBe('quiescent');
    expect(await seenInPass).toBe('running');
    // Converged, the run waits in rt.events(): nothing to do, as a queue controller with an
    // empty queue.
    expect(report.controllers[0]).toMatchObject({ name: 'Boiler', condition: 'idle' });
    expect(h.runtime.status('Boiler')?.condition).toBe('idle');
  });
});
