import { afterEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  SimulatedClock,
  type QController,
  type Runtime,
} from '../../../src/index.js';
import { Int, intToStr } from './test-controllers.js';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.stop();
});

/** A runtime told every reconcile start, and what it was told, in order. */
function observed(): {
  runtime: Runtime;
  starts: string[];
  state: ReturnType<typeof createInMemoryState>;
} {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  const starts: string[] = [];
  runtime = createRuntime(state, {
    clock,
    onReconcileStart: (controller, item) => {
      starts.push(item ? `${controller} ${item.type}/${item.id}` : controller);
    },
  });
  return { runtime, starts, state };
}

describe('onReconcileStart', () => {
  it('is told the queue controller and its item before its code runs', async () => {
    const { runtime, starts, state } = observed();
    const seen: string[] = [];
    const controller: QController = {
      name: 'Q',
      settings: {
        inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
        outputs: [],
      },
      async mapInput() {
        return [];
      },
      async reconcile() {
        // The start was told before this ran.
        seen.push(starts.at(-1) ?? '');
      },
    };
    await runtime.register(controller);
    await state.create(Int.create('a', { value: 1 }));
    await state.create(Int.create('b', { value: 2 }));
    await runtime.converge();
    expect(starts).toEqual([`Q ${Int.type}/a`, `Q ${Int.type}/b`]);
    expect(seen).toEqual(starts);
  });

  it('is told a whole-world pass without an item', async () => {
    const { runtime, starts, state } = observed();
    await runtime.register(intToStr('World'));
    await state.create(Int.create('a', { value: 1 }));
    await runtime.converge();
    expect(starts.length).toBeGreaterThan(0);
    expect(new Set(starts)).toEqual(new Set(['World']));
  });

  it("is told a controller's mapEvent and the event's resource before the mapping runs", async () => {
    const { runtime, starts, state } = observed();
    const seen: string[] = [];
    await runtime.register({
      name: 'Mapper',
      settings: {
        inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'mapped' }],
        outputs: [],
      },
      mapEvent() {
        seen.push(starts.at(-1) ?? 'nothing told');
        return [];
      },
      async reconcile() {},
    });
    await state.create(Int.create('a', { value: 1 }));
    await runtime.converge();
    expect(seen).toEqual([`Mapper ${Int.type}/a`]);
  });

  it("is told a whole-world controller's run as it starts, before it asks for an event", async () => {
    const { runtime, starts } = observed();
    const seen: string[] = [];
    await runtime.register({
      name: 'Starter',
      inputs: [],
      outputs: [],
      run() {
        // Code before the first event (a loop there must be named).
        seen.push(starts.at(-1) ?? 'nothing told');
        return Promise.resolve();
      },
    });
    await runtime.converge();
    expect(seen).toEqual(['Starter']);
  });
});
