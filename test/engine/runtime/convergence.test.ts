import { afterEach, describe, expect, it } from 'vitest';
import {
  requeueAfter,
  type Controller,
  type LogRecord,
  type QController,
  type QRuntime,
} from '../../../src/index.js';
import { mergeReports, type ConvergenceReport } from '../../../src/engine/runtime/convergence.js';
import { createMetrics } from '../../../src/engine/runtime/metrics.js';
import {
  createHarness,
  Int,
  intToStr,
  Sentence,
  Str,
  strToSentence,
  type Harness,
} from './test-controllers.js';
import { createInMemoryState, createRuntime, SimulatedClock } from '../../../src/index.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** Two controllers that keep rewriting each other's input: they never settle. */
function pingPong(): Controller[] {
  const ping: Controller = {
    name: 'Ping',
    inputs: [{ namespace: Sentence.namespace, type: Sentence.type, kind: 'weak' }],
    outputs: [{ type: Str.type, kind: 'exclusive' }],
    async run(rt) {
      for await (const _ of rt.events()) {
        const ball = await rt.find<{ value: string }>(Sentence.pointer('ball'));
        await rt.modify(Str.create('ball'), (d) => {
          d.spec.value = String(Number(ball?.spec.value ?? 0) + 1);
        });
      }
    },
  };
  const pong: Controller = {
    name: 'Pong',
    inputs: [{ namespace: Str.namespace, type: Str.type, kind: 'weak' }],
    outputs: [{ type: Sentence.type, kind: 'exclusive' }],
    async run(rt) {
      for await (const _ of rt.events()) {
        const ball = await rt.find<{ value: string }>(Str.pointer('ball'));
        await rt.modify(Sentence.create('ball'), (d) => {
          d.spec.value = String(Number(ball?.spec.value ?? 0) + 1);
        });
      }
    },
  };
  return [ping, pong];
}

describe('convergence', () => {
  it('reports a ping-pong pair as not converged, naming both and what they fight over', async () => {
    h = createHarness();
    await h.runtime.register(...pingPong());
    const report = await h.runtime.converge({ maxWrites: 200 });
    expect(report.converged).toBe(false);
    expect(report.reason).toBe('max-writes');
    expect(report.oscillating.map((o) => [o.pointer, o.writers])).toEqual([
      [Str.pointer('ball'), ['Ping']],
      [Sentence.pointer('ball'), ['Pong']],
    ]);
    expect(report.oscillating[0]!.writes).toBeGreaterThan(90);
  });

  it('stops the engine when a bound is hit, so nothing keeps running', async () => {
    h = createHarness();
    await h.runtime.register(...pingPong());
    await h.runtime.converge({ maxWrites: 50 });
    const writes = h.runtime.metrics('Ping')!.writes;
    await h.runtime.settle();
    await new Promise((resolve) => setImmediate(resolve));
    expect(h.runtime.metrics('Ping')!.writes).toBe(writes);
  });

  /** A queue controller over Int writing Str, reconciling with `reconcile`. */
  const poller = (reconcile: (rt: QRuntime, id: string) => Promise<void>): QController => ({
    name: 'Poller',
    settings: {
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
      outputs: [{ type: Str.type, kind: 'exclusive' }],
    },
    reconcile: (rt, pointer) => reconcile(rt, pointer.id),
    mapInput: async () => [],
  });

  it('calls a periodic resync that writes nothing steady, and steady converged, at the time bound', async () => {
    h = createHarness();
    await h.state.create(Int.create('forever'));
    await h.runtime.register(
      poller(async (rt, id) => {
        // Makes sure of its output (written once, the same after), then comes back in a minute.
        await rt.modify(Str.create(id), (d) => {
          d.spec.value = 'ensured';
        });
        throw requeueAfter(60_000);
      }),
    );
    const report = await h.runtime.converge({ maxTime: 10 * 60_000 });
    expect(report).toMatchObject({ converged: true, reason: 'steady', oscillating: [] });
    expect(report.writes).toBe(1);
    expect(report.elapsed).toBe(10 * 60_000);
    expect(h.runtime.metrics('Poller')!.reconciles).toBe(11);
    expect(report.controllers[0]!.waitingItems).toEqual([Int.pointer('forever')]);
  });

  it('is not steady at the first quiet requeue: a controller waiting on the clock writes first', async () => {
    h = createHarness();
    await h.state.create(Int.create('later'));
    await h.runtime.register(
      poller(async (rt, id) => {
        if (rt.clock.now() >= 30 * 60_000) {
          await rt.modify(Str.create(id), (d) => {
            d.spec.value = 'written at 30m';
          });
        }
        throw requeueAfter(10_000);
      }),
    );
    const report = await h.runtime.converge({ maxTime: 60 * 60_000 });
    expect(report).toMatchObject({ converged: true, reason: 'steady' });
    expect((await h.state.get<{ value: string }>(Str.pointer('later'))).spec.value).toBe(
      'written at 30m',
    );
  });

  it('is not steady when a controller requeues and never tried to write: it waits on something', async () => {
    h = createHarness();
    await h.state.create(Int.create('forever'));
    await h.runtime.register(
      poller(async () => {
        throw requeueAfter(60_000);
      }),
    );
    const report = await h.runtime.converge({ maxTime: 10 * 60_000 });
    expect(report).toMatchObject({ converged: false, reason: 'max-time' });
    expect(report.controllers[0]!.waitingItems).toEqual([Int.pointer('forever')]);
  });

  it('is not steady when a requeue writes every time, or when one fails after the last write', async () => {
    h = createHarness();
    await h.state.create(Int.create('busy'));
    let n = 0;
    await h.runtime.register(
      poller(async (rt, id) => {
        await rt.modify(Str.create(id), (d) => {
          d.spec.value = String(++n);
        });
        throw requeueAfter(60_000);
      }),
    );
    const busy = await h.runtime.converge({ maxTime: 10 * 60_000 });
    expect(busy).toMatchObject({ converged: false, reason: 'max-time' });
    await h.runtime.stop();

    h = createHarness();
    await h.state.create(Int.create('flaky'));
    let calls = 0;
    await h.runtime.register(
      poller(async (rt, id) => {
        await rt.modify(Str.create(id), (d) => {
          d.spec.value = 'ensured';
        });
        // Fails now and then, never enough to be given up: the run is not a fixed point.
        if (++calls % 3 === 0) throw new Error('backend timed out');
        throw requeueAfter(60_000);
      }),
    );
    const flaky = await h.runtime.converge({ maxTime: 10 * 60_000 });
    expect(flaky.converged).toBe(false);
    expect(flaky.reason).toBe('max-time');
  });

  it('gives the same report and the same state for the same input', async () => {
    const run = async () => {
      const clock = new SimulatedClock();
      const state = createInMemoryState({ now: () => clock.now() });
      const runtime = createRuntime(state, { clock });
      await runtime.register(intToStr(), strToSentence());
      for (let i = 0; i < 20; i++) await state.create(Int.create(`n${i}`, { value: i }));
      const first = await runtime.converge();
      await state.teardown(Int.pointer('n3'));
      await state.modify(Int.create('n4'), (d) => {
        d.spec.value = 44;
      });
      const second = await runtime.converge();
      const sentences = await state.list(Sentence.kind());
      await runtime.stop();
      return { first, second, sentences };
    };
    const a = await run();
    const b = await run();
    expect(b).toEqual(a);
    expect(a.first.converged && a.second.converged).toBe(true);
  });

  it('logs with a controller field, and only when asked', async () => {
    const records: LogRecord[] = [];
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    const runtime = createRuntime(state, { clock, logSink: (r) => records.push(r) });
    h = { state, clock, runtime };
    await runtime.register({
      name: 'Talker',
      inputs: [],
      outputs: [],
      async run(rt, _signal, log) {
        for await (const _ of rt.events()) log.info('reconciled', { n: 1 });
      },
    });
    await runtime.converge();
    expect(records).toEqual([
      {
        level: 'info',
        message: 'reconciled',
        time: clock.now(),
        fields: { controller: 'Talker', n: 1 },
      },
    ]);
  });
});

describe('merging the reports of two runs in a row', () => {
  const controller = (name: string, counts: { reconciles: number; errors: number }) => ({
    name,
    kind: 'controller' as const,
    condition: 'idle' as const,
    reconciles: counts.reconciles,
    writes: counts.reconciles,
    errors: counts.errors,
    restarts: 0,
    failingItems: [],
    waitingItems: [],
    metrics: createMetrics(),
    ...(counts.errors > 0 ? { lastError: { code: 'error', message: 'boom' } } : {}),
  });
  const report = (
    reconciles: number,
    controllers: ReturnType<typeof controller>[],
  ): ConvergenceReport => ({
    converged: true,
    reason: 'quiescent',
    rounds: 1,
    elapsed: 10,
    reconciles,
    writes: reconciles,
    errors: 0,
    controllers,
    oscillating: [],
  });

  it('adds the counts, overall and per controller, and keeps the later outcome and last error', () => {
    const merged = mergeReports(
      report(3, [controller('A', { reconciles: 3, errors: 1 })]),
      report(2, [
        controller('A', { reconciles: 2, errors: 0 }),
        controller('B', { reconciles: 1, errors: 0 }),
      ]),
    );
    expect(merged).toMatchObject({ rounds: 2, elapsed: 20, reconciles: 5, writes: 5 });
    expect(
      merged.controllers.map((c) => [c.name, c.reconciles, c.errors, c.lastError?.message]),
    ).toEqual([
      ['A', 5, 1, 'boom'],
      ['B', 1, 0, undefined],
    ]);
  });
});
