/**
 * A controller wakes once the work under way upstream of it is done, not in the middle of it: on
 * a state behind I/O (etcd) an upstream pass takes many turns of the event loop, and a
 * downstream controller woken by its first writes would run again for every few of the rest.
 * Here the upstream's reconciles wait a few macrotasks each, as writes to etcd would.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  defineResource,
  SimulatedClock,
  type Controller,
  type QController,
  type Runtime,
} from '../../../src/index.js';

const Order = defineResource<{ n: number }>({
  type: 'Orders.upstream.test',
  defaultSpec: () => ({ n: 0 }),
});
const Line = defineResource<{ n: number }>({
  type: 'Lines.upstream.test',
  defaultSpec: () => ({ n: 0 }),
});

const macrotasks = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

const Seed = defineResource<{ n: number }>({
  type: 'Seeds.upstream.test',
  defaultSpec: () => ({ n: 0 }),
});

type Type = typeof Order;

/** Writes a `to` per `from` of the same id, each after a few macrotasks. */
function slowCopy(name: string, from: Type, to: Type): QController {
  return {
    name,
    settings: {
      inputs: [{ namespace: from.namespace, type: from.type, kind: 'primary' }],
      outputs: [{ type: to.type, kind: 'exclusive' }],
      concurrency: 2,
    },
    async reconcile(rt, pointer) {
      const input = await rt.find<{ n: number }>(pointer);
      if (!input) return;
      await macrotasks(3);
      await rt.modify(to.create(pointer.id), (output) => {
        output.spec.n = input.spec.n;
      });
    },
    mapInput: async () => [],
  };
}

/** Writes a Line per Order, each after a few macrotasks. */
const slowProducer = (): QController => slowCopy('Producer', Order, Line);

/** Sums the Lines; notes how many it saw in each pass. */
function summer(seen: number[]): Controller {
  return {
    name: 'Summer',
    inputs: [{ namespace: Line.namespace, type: Line.type, kind: 'weak' }],
    outputs: [],
    async run(rt) {
      for await (const _ of rt.events()) seen.push((await rt.list(Line.kind())).length);
    },
  };
}

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.stop();
});

describe('upstream first', () => {
  it('a downstream controller runs once, after the upstream work under way, and sees all of it', async () => {
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    runtime = createRuntime(state, { clock });
    for (let i = 0; i < 12; i++) await state.create(Order.create(`o${i}`, { n: i }));
    const seen: number[] = [];
    await runtime.register(slowProducer(), summer(seen));
    const report = await runtime.converge();
    expect(report.converged).toBe(true);
    expect(seen).toEqual([12]);
  });

  it('waits for each controller of a chain upstream of it in turn', async () => {
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    runtime = createRuntime(state, { clock });
    for (let i = 0; i < 8; i++) await state.create(Seed.create(`s${i}`, { n: i }));
    const seen: number[] = [];
    await runtime.register(slowCopy('Seeder', Seed, Order), slowProducer(), summer(seen));
    const report = await runtime.converge();
    expect(report.converged).toBe(true);
    expect(seen).toEqual([8]);
    // The producer in the middle waited for the seeder: a reconcile per order, none twice.
    expect(runtime.metrics('Producer')?.reconciles).toBe(8);
  });

  it('does not wait on a controller that is downstream of it too (a cycle)', async () => {
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    runtime = createRuntime(state, { clock });
    for (let i = 0; i < 4; i++) await state.create(Order.create(`o${i}`, { n: i }));
    const seen: number[] = [];
    // The producer reads Lines too: each feeds the other, neither waits.
    const producer = slowProducer();
    const cyclic: QController = {
      ...producer,
      settings: {
        ...producer.settings,
        inputs: [
          ...producer.settings.inputs,
          { namespace: Line.namespace, type: Line.type, kind: 'mapped' },
        ],
      },
    };
    const looping: Controller = {
      ...summer(seen),
      outputs: [{ type: Order.type, kind: 'shared' }],
    };
    await runtime.register(cyclic, looping);
    const report = await runtime.converge();
    expect(report.converged).toBe(true);
    // Its first pass came before the producer finished its first item.
    expect(seen[0]).toBe(0);
    expect(seen.at(-1)).toBe(4);
  });
});
