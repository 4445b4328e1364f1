import { afterEach, describe, expect, it } from 'vitest';
import {
  RequeueError,
  requeueAfter,
  SkipError,
  type Pointer,
  type QController,
  type QRuntime,
} from '../../../src/index.js';
import { createHarness, Int, Sentence, Str, type Harness } from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

interface QOptions {
  name?: string;
  concurrency?: number;
  reconcile?: (rt: QRuntime, p: Pointer) => Promise<void>;
}

/** Int (primary) -> Str, with Sentences as a mapped input: a sentence `x` re-reconciles int `x`. */
function intToStrQ(options: QOptions = {}): QController {
  return {
    name: options.name ?? 'IntToStrQ',
    settings: {
      inputs: [
        { namespace: Int.namespace, type: Int.type, kind: 'primary' },
        { namespace: Sentence.namespace, type: Sentence.type, kind: 'mapped' },
      ],
      outputs: [{ type: Str.type, kind: 'exclusive' }],
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    },
    reconcile:
      options.reconcile ??
      (async (rt, pointer) => {
        const int = await rt.find<{ value: number }>(pointer);
        const sentence = await rt.find<{ value: string }>(Sentence.pointer(pointer.id));
        if (!int) return;
        await rt.modify(Str.create(pointer.id), (d) => {
          d.spec.value = `${int.spec.value}${sentence ? `:${sentence.spec.value}` : ''}`;
        });
      }),
    mapInput: async (_rt, md) => [Int.pointer(md.id)],
  };
}

const strValue = async (id: string): Promise<string> =>
  (await h.state.get<{ value: string }>(Str.pointer(id))).spec.value;

describe('queue controllers', () => {
  it('reconciles every existing primary at start and each changed one after', async () => {
    h = createHarness();
    await h.state.create(Int.create('a', { value: 1 }));
    await h.state.create(Int.create('b', { value: 2 }));
    await h.runtime.register(intToStrQ());
    await h.runtime.converge();
    expect([await strValue('a'), await strValue('b')]).toEqual(['1', '2']);
    const processed = h.runtime.metrics('IntToStrQ')!.processed;
    await h.state.modify(Int.create('b'), (d) => {
      d.spec.value = 3;
    });
    await h.runtime.converge();
    expect(await strValue('b')).toBe('3');
    expect(h.runtime.metrics('IntToStrQ')!.processed).toBe(processed + 1);
  });

  it('maps a secondary input to the primary it affects with mapInput', async () => {
    h = createHarness();
    await h.state.create(Int.create('a', { value: 1 }));
    await h.runtime.register(intToStrQ());
    await h.runtime.converge();
    await h.state.create(Sentence.create('a', { value: 'hello' }));
    await h.runtime.converge();
    expect(await strValue('a')).toBe('1:hello');
    const m = h.runtime.metrics('IntToStrQ')!;
    expect(m.mappedIn).toBe(1);
    expect(m.mappedOut).toBe(1);
  });

  it('requeues after a RequeueError on the simulated clock without counting a failure', async () => {
    h = createHarness();
    const times: number[] = [];
    await h.state.create(Int.create('poll', { value: 1 }));
    await h.runtime.register(
      intToStrQ({
        reconcile: async (rt) => {
          times.push(rt.clock.now());
          if (times.length < 3) throw requeueAfter(5_000);
        },
      }),
    );
    const t0 = h.clock.now();
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(times.map((t) => t - t0)).toEqual([0, 5_000, 10_000]);
    expect(report.controllers[0]).toMatchObject({ errors: 0 });
    expect(h.runtime.metrics('IntToStrQ')!.requeues).toBe(2);
  });

  it('counts a RequeueError that wraps an error as a failure but keeps its interval', async () => {
    h = createHarness();
    const times: number[] = [];
    await h.state.create(Int.create('poll'));
    await h.runtime.register(
      intToStrQ({
        reconcile: async (rt) => {
          times.push(rt.clock.now());
          if (times.length === 1) throw new RequeueError(2_000, new Error('not ready'));
        },
      }),
    );
    const t0 = h.clock.now();
    await h.runtime.converge();
    expect(times.map((t) => t - t0)).toEqual([0, 2_000]);
  });

  it('runs up to `concurrency` keys at once, never one key twice at once', async () => {
    h = createHarness();
    let running = 0;
    let peak = 0;
    const active = new Set<string>();
    let overlap = false;
    for (let i = 0; i < 8; i++) await h.state.create(Int.create(`i${i}`));
    await h.runtime.register(
      intToStrQ({
        concurrency: 3,
        reconcile: async (rt, p) => {
          if (active.has(p.id)) overlap = true;
          active.add(p.id);
          peak = Math.max(peak, ++running);
          // Yield a few times so that other workers get to start.
          for (let k = 0; k < 5; k++) await rt.find(p);
          running--;
          active.delete(p.id);
        },
      }),
    );
    await h.runtime.converge();
    expect(peak).toBe(3);
    expect(overlap).toBe(false);
  });

  it('runs a key re-added while in flight once more afterwards', async () => {
    h = createHarness();
    await h.state.create(Int.create('k', { value: 1 }));
    let calls = 0;
    await h.runtime.register(
      intToStrQ({
        reconcile: async (rt, p) => {
          calls++;
          if (calls === 1) {
            // Changing the primary while reconciling it queues it again.
            await h.state.modify(Int.create('k'), (d) => {
              d.spec.value = 2;
            });
          }
          await rt.find(p);
        },
      }),
    );
    await h.runtime.converge();
    expect(calls).toBe(2);
  });

  it('backs off a poison item on its own while the others converge', async () => {
    h = createHarness();
    const attempts: number[] = [];
    for (const id of ['a', 'poison', 'z']) await h.state.create(Int.create(id, { value: 1 }));
    await h.runtime.register(
      intToStrQ({
        reconcile: async (rt, p) => {
          if (p.id === 'poison') {
            attempts.push(rt.clock.now());
            throw new Error('cannot digest');
          }
          await rt.modify(Str.create(p.id), (d) => {
            d.spec.value = 'ok';
          });
        },
      }),
    );
    const t0 = h.clock.now();
    const report = await h.runtime.converge({ maxAttempts: 5 });
    expect([await strValue('a'), await strValue('z')]).toEqual(['ok', 'ok']);
    expect(attempts.map((t) => t - t0)).toEqual([0, 500, 1250, 2375, 4063]);
    expect(report.converged).toBe(false);
    expect(report.reason).toBe('failing');
    expect(report.controllers[0]?.failingItems).toEqual([
      {
        pointer: Int.pointer('poison'),
        attempts: 5,
        error: { code: 'error', message: 'cannot digest' },
      },
    ]);
    expect(report.controllers[0]?.lastError?.message).toBe('cannot digest');
  });

  it('records a terminal error without retrying it until the next event of its item', async () => {
    h = createHarness();
    let calls = 0;
    await h.state.create(Int.create('t', { value: 1 }));
    const terminal = Object.assign(new Error('unfixable'), { code: 'terminal' });
    await h.runtime.register(
      intToStrQ({
        reconcile: async (rt, p) => {
          calls++;
          const int = await rt.get<{ value: number }>(p);
          if (int.spec.value === 1) throw terminal;
        },
      }),
    );
    const t0 = h.clock.now();
    const report = await h.runtime.converge();
    expect([calls, h.clock.now() - t0]).toEqual([1, 0]);
    expect(report.reason).toBe('failing');
    expect(report.controllers[0]?.failingItems).toEqual([
      { pointer: Int.pointer('t'), attempts: 1, error: { code: 'terminal', message: 'unfixable' } },
    ]);
    await h.runtime.converge();
    expect(calls).toBe(1);
    await h.state.modify(Int.create('t'), (d) => {
      d.spec.value = 2;
    });
    const fixed = await h.runtime.converge();
    expect(calls).toBe(2);
    expect(fixed.converged).toBe(true);
    expect(fixed.controllers[0]?.failingItems).toEqual([]);
  });

  it('clears the backoff of an item on SkipError and does not retry it', async () => {
    h = createHarness();
    let calls = 0;
    await h.state.create(Int.create('s'));
    await h.runtime.register(
      intToStrQ({
        reconcile: async () => {
          calls++;
          throw new SkipError();
        },
      }),
    );
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(calls).toBe(1);
    expect(h.runtime.metrics('IntToStrQ')!.skips).toBe(1);
  });

  it('reports a mapInput that returns a non-primary pointer', async () => {
    h = createHarness();
    await h.runtime.register({
      ...intToStrQ(),
      mapInput: async (_rt, md) => [Sentence.pointer(md.id)],
    });
    await h.runtime.converge();
    await h.state.create(Sentence.create('a'));
    const report = await h.runtime.converge();
    expect(report.controllers[0]?.lastError?.message).toContain('not a primary input');
  });
});
