import { afterEach, describe, expect, it } from 'vitest';
import { requeueAfter, type Controller, type LogRecord } from '../../../src/index.js';
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

  it('stops at the virtual time bound when a controller keeps requeueing', async () => {
    h = createHarness();
    await h.state.create(Int.create('forever'));
    await h.runtime.register({
      name: 'Poller',
      settings: {
        inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
        outputs: [],
      },
      reconcile: async () => {
        throw requeueAfter(60_000);
      },
      mapInput: async () => [],
    });
    const report = await h.runtime.converge({ maxTime: 10 * 60_000 });
    expect(report.converged).toBe(false);
    expect(report.reason).toBe('max-time');
    expect(report.elapsed).toBe(10 * 60_000);
    expect(h.runtime.metrics('Poller')!.reconciles).toBe(11);
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
