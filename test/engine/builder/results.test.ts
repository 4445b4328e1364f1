import { afterEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  SimulatedClock,
  type LogRecord,
} from '../../../src/index.js';
import { controllerManagedBy } from '../../../src/engine/builder/builder.js';
import { terminalError } from '../../../src/engine/errors.js';
import type {
  ReconcileContext,
  ReconcileRequest,
  Result,
} from '../../../src/engine/builder/reconciler.js';
import { createHarness, recorder, VM, type Harness } from './fixtures.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('reconcile results', () => {
  it('comes back after requeueAfter on the simulated clock, without counting a failure', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, (_ctx, _request, call) =>
      call === 1 ? { requeueAfter: 30_000 } : undefined,
    );
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    const start = h.clock.now();
    const report = await h.runtime.converge();
    expect(r.calls.map((c) => c.at - start)).toEqual([0, 30_000]);
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(0);
    expect(h.runtime.metrics('vm')?.requeues).toBe(1);
  });

  it('treats requeueAfter 0 and an empty result as done', async () => {
    h = createHarness();
    await h.state.create(VM.create('a'));
    await h.state.create(VM.create('b'));
    const r = recorder(h, (_ctx, request) => (request.id === 'a' ? { requeueAfter: 0 } : {}));
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    const start = h.clock.now();
    await h.runtime.converge();
    expect(r.ids()).toEqual(['a', 'b']);
    expect(h.clock.now()).toBe(start);
  });

  it.each([
    [{ RequeueAfter: 30_000 }, 'unknown key "RequeueAfter" (did you mean requeueAfter?)'],
    [{ requeueAfer: 30_000 }, 'unknown key "requeueAfer" (did you mean requeueAfter?)'],
    [{ requeueAfter: '30s' }, 'requeueAfter must be a finite number of ms, got "30s"'],
    [{ requeueAfter: Number.NaN }, 'requeueAfter must be a finite number of ms, got NaN'],
    [{ requeue: 'true' }, 'requeue must be true or false, got "true"'],
  ])(
    'fails the reconcile of a result it cannot take, %j, saying why, where it was done in silence',
    async (result, problem) => {
      h = createHarness();
      await h.state.create(VM.create('web'));
      const r = recorder(h, () => result as Result);
      await controllerManagedBy(h.runtime).for(VM).complete(r);
      const report = await h.runtime.converge({ maxAttempts: 2 });
      expect(report.reason).toBe('failing');
      expect(r.calls).toHaveLength(2);
      expect(report.controllers[0]?.failingItems[0]?.error.message).toBe(
        `controller "vm": the reconcile returned a result it cannot take: ${problem}`,
      );
    },
  );

  it('takes a result with other keys, such as the resource a last write resolved to, as done', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, async ({ client }, request) => {
      const vm = await client.get(VM.pointer(request.id));
      return vm as unknown as Result;
    });
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(r.calls).toHaveLength(1);
  });

  it('retries a request whose reconcile throws, with exponential backoff', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, (_ctx, _request, call) => {
      if (call <= 2) throw new Error(`attempt ${call} failed`);
      return undefined;
    });
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    const start = h.clock.now();
    const report = await h.runtime.converge();
    // The engine's backoff: 500 ms, then x1.5.
    expect(r.calls.map((c) => c.at - start)).toEqual([0, 500, 1250]);
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(2);
  });

  it('reports a synchronous throw of a function reconciler as an error, not a crash', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    await controllerManagedBy(h.runtime)
      .for(VM)
      .complete(() => {
        throw new Error('boom');
      });
    const report = await h.runtime.converge({ maxAttempts: 3 });
    expect(report.reason).toBe('failing');
    expect(report.controllers[0]?.failingItems).toEqual([
      { pointer: VM.pointer('web'), attempts: 3, error: { code: 'error', message: 'boom' } },
    ]);
    expect(h.runtime.status('vm')?.lastError?.message).toBe('boom');
  });

  it('does not retry a terminal error and keeps it visible', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, () => {
      throw terminalError(new Error('image does not exist'));
    });
    const compiled = await controllerManagedBy(h.runtime).for(VM).build(r);
    const start = h.clock.now();
    const report = await h.runtime.converge();
    expect(r.calls).toHaveLength(1);
    expect(h.clock.now()).toBe(start);
    expect(report.converged).toBe(false);
    expect(report.reason).toBe('failing');
    expect(report.controllers[0]?.failingItems).toEqual([
      {
        pointer: VM.pointer('web'),
        attempts: 1,
        error: { code: 'terminal', message: 'terminal error: image does not exist' },
      },
    ]);
    expect(h.runtime.status('vm')?.condition).toBe('failed');
    // Another convergence run does not retry it either: only a new event does.
    await h.runtime.converge();
    expect(r.calls).toHaveLength(1);
    const [failure] = compiled.terminalErrors();
    expect(compiled.terminalErrors()).toHaveLength(1);
    expect(failure?.request).toEqual({ namespace: 'default', id: 'web', type: VM.type });
    expect(failure?.error).toMatchObject({
      code: 'terminal',
      message: 'terminal error: image does not exist',
    });
    expect(failure?.at).toBe(start);
  });

  it('does not retry an error that wraps a terminal error in its cause, as errors.Is finds one wrapped with %w', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, () => {
      throw new Error('reconciling web', {
        cause: terminalError(new Error('image does not exist')),
      });
    });
    const compiled = await controllerManagedBy(h.runtime).for(VM).build(r);
    const start = h.clock.now();
    const report = await h.runtime.converge();
    expect(r.calls).toHaveLength(1);
    expect(h.clock.now()).toBe(start);
    expect(report.reason).toBe('failing');
    const failing = report.controllers[0]?.failingItems ?? [];
    expect(failing.map((f) => [f.pointer, f.attempts, f.error.message])).toEqual([
      [VM.pointer('web'), 1, 'reconciling web'],
    ]);
    expect(compiled.terminalErrors().map((f) => f.error.message)).toEqual(['reconciling web']);
  });

  it('does not retry an AggregateError that joins a terminal error, as errors.Join does', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, () => {
      throw new AggregateError(
        [new Error('disk busy'), terminalError('no such image')],
        'two failures',
      );
    });
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    await h.runtime.converge();
    expect(r.calls).toHaveLength(1);
  });

  it('reconciles a request with a terminal error again on its next event, and forgets the error once it succeeds', async () => {
    h = createHarness();
    await h.state.create(VM.create('web', { cpus: 0, image: 'debian' }));
    const r = recorder(h, async ({ client }, request) => {
      const vm = await client.get<{ cpus: number }>(VM.pointer(request.id));
      if (vm.spec.cpus === 0) throw terminalError('a VM needs a CPU');
      return undefined;
    });
    const compiled = await controllerManagedBy(h.runtime).for(VM).build(r);
    await h.runtime.converge();
    expect(compiled.terminalErrors()).toHaveLength(1);
    await h.state.modify(VM.create('web'), (d) => {
      d.spec.cpus = 1;
    });
    await h.runtime.converge();
    expect(r.calls).toHaveLength(2);
    expect(compiled.terminalErrors()).toEqual([]);
  });
});

describe('reconcilers', () => {
  it('may be objects whose reconcile method keeps its this', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    class Counter {
      count = 0;
      async reconcile(): Promise<undefined> {
        this.count++;
        return undefined;
      }
    }
    const counter = new Counter();
    await controllerManagedBy(h.runtime).for(VM).complete(counter);
    await h.runtime.converge();
    expect(counter.count).toBe(1);
  });

  it('get a logger that names the controller and the request', async () => {
    const records: LogRecord[] = [];
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    const runtime = createRuntime(state, { clock, logSink: (r) => records.push(r) });
    h = { clock, state, runtime };
    await state.create(VM.create('web'));
    await controllerManagedBy(runtime)
      .for(VM)
      .complete((ctx: ReconcileContext, request: ReconcileRequest) => {
        ctx.log.info('reconciling', { id: request.id });
        return undefined;
      });
    await runtime.converge();
    const record = records.find((rec) => rec.message === 'reconciling');
    expect(record?.fields).toMatchObject({
      controller: 'vm',
      request: 'default/web',
      type: VM.type,
      id: 'web',
    });
  });
});
