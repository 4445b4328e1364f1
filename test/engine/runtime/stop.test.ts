import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  RegistrationError,
  SimulatedClock,
  type Controller,
  type QController,
} from '../../../src/index.js';
import { createHarness, Int, Str, type Harness } from './test-controllers.js';

// The stop's grace period (`STOP_GRACE_MS`) is on the wall clock: these tests fake `setTimeout`
// once the work they stop is under way, so that the grace ends only when they say so.
let h: Harness;
afterEach(async () => {
  vi.useRealTimers();
  await h.runtime.stop();
});

/** A promise and what settles it: the outside world a reconcile waits on. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

/** Lets the runtime's macrotasks (the scheduler's wakeups, the watches) run. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}

/** A queue controller Int -> Str whose reconcile waits on `outside` before it writes. */
function waitingQ(outside: Promise<void>, events: string[]): QController {
  return {
    name: 'Waiting',
    settings: {
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
      outputs: [{ type: Str.type, kind: 'exclusive' }],
      shutdownHook: () => {
        events.push('shutdownHook');
      },
    },
    mapInput: () => Promise.resolve([]),
    async reconcile(rt, pointer) {
      events.push('reconcile-start');
      // An external call that does not watch any signal.
      await outside;
      try {
        await rt.modify(Str.create(pointer.id), (draft) => {
          draft.spec.value = 'written';
        });
        events.push('wrote');
      } catch (error) {
        events.push(`refused: ${(error as { code?: string }).code}`);
        throw error;
      }
    },
  };
}

/** Stops the runtime, noting in `events` when the stop resolved. */
function stopNoting(events: string[]): Promise<void> {
  return h.runtime.stop().then(() => {
    events.push('stopped');
  });
}

describe('Runtime.stop', () => {
  it('waits for the reconciles in flight, then runs the shutdown hook', async () => {
    h = createHarness();
    const events: string[] = [];
    const outside = gate();
    await h.runtime.register(waitingQ(outside.promise, events));
    await h.state.create(Int.create('1'));
    void h.runtime.converge();
    await until(() => events.includes('reconcile-start'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stopped = stopNoting(events);
    await vi.advanceTimersByTimeAsync(500);
    // Still reconciling: the stop waits, and the shutdown hook has not run.
    expect(events).toEqual(['reconcile-start']);
    outside.open();
    await stopped;
    expect(events).toEqual(['reconcile-start', 'wrote', 'shutdownHook', 'stopped']);
    expect((await h.state.get(Str.pointer('1'))).spec).toEqual({ value: 'written' });
    expect(h.runtime.status('Waiting')?.condition).toBe('stopped');
  });

  it('refuses the writes of a reconcile that outlives the grace period: none lands after it resolved', async () => {
    h = createHarness();
    const events: string[] = [];
    const outside = gate();
    await h.runtime.register(waitingQ(outside.promise, events));
    await h.state.create(Int.create('1'));
    void h.runtime.converge();
    await until(() => events.includes('reconcile-start'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stopped = stopNoting(events);
    await vi.advanceTimersByTimeAsync(999);
    expect(events).toEqual(['reconcile-start']);
    await vi.advanceTimersByTimeAsync(1);
    await stopped;
    expect(events).toEqual(['reconcile-start', 'shutdownHook', 'stopped']);
    outside.open();
    await until(() => events.length > 3);
    expect(events.at(-1)).toBe('refused: controller-stopped');
    expect(await h.state.list(Str.kind())).toEqual([]);
  });

  it('ends a convergence run it cuts short as aborted, and runs nothing after it', async () => {
    h = createHarness();
    const events: string[] = [];
    const outside = gate();
    await h.runtime.register(waitingQ(outside.promise, events));
    await h.state.create(Int.create('1'));
    const run = h.runtime.converge();
    await until(() => events.includes('reconcile-start'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stopped = stopNoting(events);
    await vi.advanceTimersByTimeAsync(1000);
    await stopped;
    // The reconcile still awaits the outside world: the run does not wait for it (nor report
    // the half-done work as converged).
    await vi.advanceTimersByTimeAsync(10);
    const report = await run;
    expect(report).toMatchObject({ reason: 'aborted', converged: false });
    vi.useRealTimers();
    await h.state.create(Int.create('2'));
    expect(await h.runtime.converge()).toMatchObject({ reason: 'aborted', converged: false });
    expect(events).toEqual(['reconcile-start', 'shutdownHook', 'stopped']);
    outside.open();
  });

  it('logs a shutdown hook that throws and goes on: the stop resolves, every controller stopped', async () => {
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    const logs: string[] = [];
    const runtime = createRuntime(state, {
      clock,
      logSink: (record) => logs.push(`${String(record.fields.controller)}: ${record.message}`),
    });
    h = { clock, state, runtime };
    const events: string[] = [];
    const throwing = waitingQ(Promise.resolve(), events);
    await runtime.register(
      {
        ...throwing,
        name: 'Throwing',
        settings: {
          ...throwing.settings,
          outputs: [],
          shutdownHook: () => {
            throw new Error('hook bug');
          },
        },
      },
      waitingQ(Promise.resolve(), events),
    );
    await runtime.converge();
    await runtime.stop();
    expect(events).toEqual(['shutdownHook']);
    expect(runtime.status('Throwing')?.condition).toBe('stopped');
    expect(runtime.status('Waiting')?.condition).toBe('stopped');
    expect(logs).toContain('Throwing: shutdown hook failed');
  });

  it('is not held forever by a run hook that ignores its signal', async () => {
    h = createHarness();
    const events: string[] = [];
    await h.runtime.register({
      ...waitingQ(Promise.resolve(), events),
      settings: {
        ...waitingQ(Promise.resolve(), events).settings,
        runHook: () => new Promise<void>(() => undefined),
      },
    });
    await h.runtime.converge();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stopped = stopNoting(events);
    await vi.advanceTimersByTimeAsync(1000);
    await stopped;
    expect(events).toEqual(['shutdownHook', 'stopped']);
  });

  it('refuses the writes of a whole-world pass that outlives the grace period', async () => {
    h = createHarness();
    const events: string[] = [];
    const outside = gate();
    const controller: Controller = {
      name: 'Slow',
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'weak' }],
      outputs: [{ type: Str.type, kind: 'exclusive' }],
      async run(rt) {
        for await (const _ of rt.events()) {
          events.push('pass-start');
          await outside.promise;
          try {
            await rt.modify(Str.create('out'), (draft) => {
              draft.spec.value = 'late';
            });
            events.push('wrote');
          } catch (error) {
            events.push(`refused: ${(error as { code?: string }).code}`);
          }
        }
      },
    };
    await h.runtime.register(controller);
    void h.runtime.converge();
    await until(() => events.includes('pass-start'));
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const stopped = stopNoting(events);
    await vi.advanceTimersByTimeAsync(1000);
    await stopped;
    outside.open();
    await until(() => events.length > 2);
    expect(events).toEqual(['pass-start', 'stopped', 'refused: controller-stopped']);
    expect(await h.state.list(Str.kind())).toEqual([]);
  });

  it('refuses a controller registered after it, which would otherwise start and write', async () => {
    h = createHarness();
    await h.runtime.converge();
    await h.runtime.stop();
    let runs = 0;
    const late: Controller = {
      name: 'Late',
      inputs: [],
      outputs: [{ type: Str.type, kind: 'exclusive' }],
      async run(rt) {
        runs++;
        await rt.modify(Str.create('late'), (draft) => {
          draft.spec.value = 'after stop';
        });
      },
    };
    const refused = await h.runtime.register(late).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(RegistrationError);
    expect((refused as Error).message).toBe(
      'cannot register controllers:\n  - "Late": the runtime is stopped (stop() was called); a stopped runtime runs nothing and cannot be started again: create a new runtime',
    );
    expect(h.runtime.controllerNames()).toEqual([]);
    // What a started controller would have written has had every chance to land.
    await h.runtime.converge();
    await new Promise((resolve) => setImmediate(resolve));
    expect(runs).toBe(0);
    expect(await h.state.list(Str.kind())).toEqual([]);
  });

  it('refuses new inputs of a queue controller after it', async () => {
    h = createHarness();
    const events: string[] = [];
    await h.runtime.register(waitingQ(Promise.resolve(), events));
    await h.runtime.stop();
    await expect(
      h.runtime.addInputs('Waiting', [{ namespace: 'other', type: Int.type, kind: 'primary' }]),
    ).rejects.toThrow(/^cannot add inputs:\n {2}- "Waiting": the runtime is stopped/);
  });
});
