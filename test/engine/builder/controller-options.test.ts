import { afterEach, describe, expect, it } from 'vitest';
import { controllerManagedBy } from '../../../src/engine/builder/builder.js';
import type { CreateEvent } from '../../../src/engine/builder/events.js';
import { enqueueRequestsFromMapFunc, handlerFuncs } from '../../../src/engine/builder/handlers.js';
import { Config, createHarness, Host, recorder, VM, type Harness } from './fixtures.js';
import { findById, listAll } from '../../../src/engine/runtime/typed.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('create events', () => {
  // Ported from kubernetes-sigs/controller-runtime pkg/internal/source/event_handler.go OnAdd (isInInitialList)
  it('marks the replay of existing objects isInInitialList, and new objects not', async () => {
    h = createHarness();
    await h.state.create(VM.create('old'));
    const seen: string[] = [];
    await controllerManagedBy(h.runtime)
      .named('vm-births')
      .watches(
        VM,
        handlerFuncs({
          create: (e: CreateEvent, q) => {
            seen.push(`${e.object.metadata.id} ${String(e.isInInitialList)}`);
            q.add({ namespace: e.object.metadata.namespace, id: e.object.metadata.id });
          },
        }),
      )
      .complete(() => undefined);
    await h.runtime.converge();
    await h.state.create(VM.create('new'));
    await h.runtime.converge();
    expect(seen).toEqual(['old true', 'new false']);
  });
});

describe('reconcile results', () => {
  // Ported from kubernetes-sigs/controller-runtime pkg/internal/controller/controller.go reconcileHandler (Requeue -> AddRateLimited)
  it('comes back after the growing backoff delay for { requeue: true }, without counting a failure', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, (_ctx, _request, call) => (call <= 3 ? { requeue: true } : undefined));
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    const start = h.clock.now();
    const report = await h.runtime.converge();
    // The default backoff: 500 ms, x1.5.
    expect(r.calls.map((c) => c.at - start)).toEqual([0, 500, 1250, 2375]);
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(0);
    expect(report.controllers[0]?.failingItems).toEqual([]);
  });

  it('starts the requeue backoff over after a result without requeue', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, (_ctx, _request, call) =>
      call === 2 ? undefined : { requeue: call < 4 },
    );
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    await h.runtime.converge();
    const afterFirst = r.calls.map((c) => c.at);
    await h.state.modify(VM.create('web'), (d) => {
      d.spec.cpus = 2;
    });
    const start = h.clock.now();
    await h.runtime.converge();
    expect(afterFirst.length).toBe(2);
    // Calls 3 and 4: the backoff starts again at 500 ms.
    expect(r.calls.slice(2).map((c) => c.at - start)).toEqual([0, 500]);
  });

  it('lets requeueAfter win over requeue, as controller-runtime does', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, (_ctx, _request, call) =>
      call === 1 ? { requeue: true, requeueAfter: 10_000 } : undefined,
    );
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    const start = h.clock.now();
    await h.runtime.converge();
    expect(r.calls.map((c) => c.at - start)).toEqual([0, 10_000]);
  });
});

describe('controller options', () => {
  it('retries failures with the backoff of rateLimiter', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, (_ctx, _request, call) => {
      if (call <= 3) throw new Error(`attempt ${call} failed`);
      return undefined;
    });
    await controllerManagedBy(h.runtime)
      .for(VM)
      .withOptions({ rateLimiter: { initial: 5, multiplier: 2, max: 15 } })
      .complete(r);
    const start = h.clock.now();
    await h.runtime.converge();
    expect(r.calls.map((c) => c.at - start)).toEqual([0, 5, 15, 30]);
  });

  it('uses rateLimiter for { requeue: true } too', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, (_ctx, _request, call) => (call <= 2 ? { requeue: true } : undefined));
    await controllerManagedBy(h.runtime)
      .for(VM)
      .withOptions({ rateLimiter: { initial: 100, multiplier: 3 } })
      .complete(r);
    const start = h.clock.now();
    await h.runtime.converge();
    expect(r.calls.map((c) => c.at - start)).toEqual([0, 100, 400]);
  });

  it('refuses a rateLimiter that is not a number in build(), before the clock turns NaN', async () => {
    h = createHarness();
    await expect(
      controllerManagedBy(h.runtime)
        .for(VM)
        .withOptions({ rateLimiter: { initial: Number.NaN } })
        .complete(() => undefined),
    ).rejects.toMatchObject({
      code: 'registration',
      message: expect.stringContaining('backoff: initial must be a finite number') as unknown,
    });
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  // Ported from kubernetes-sigs/controller-runtime pkg/internal/controller/controller_test.go "should timeout reconcile after ReconciliationTimeout"
  it('aborts the reconcile signal after reconciliationTimeout on the runtime clock, and retries', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const reasons: string[] = [];
    const r = recorder(h, async ({ signal }, _request, call) => {
      if (call > 1) return undefined;
      // Waits for something that never comes; only the deadline ends the wait.
      await new Promise<void>((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          reasons.push((signal.reason as Error).name);
          reject(signal.reason as Error);
        });
      });
      return undefined;
    });
    await controllerManagedBy(h.runtime)
      .for(VM)
      .withOptions({ reconciliationTimeout: 30_000 })
      .complete(r);
    const start = h.clock.now();
    const report = await h.runtime.converge();
    expect(reasons).toEqual(['TimeoutError']);
    // Timed out at 30 s, retried after the 500 ms backoff.
    expect(r.calls.map((c) => c.at - start)).toEqual([0, 30_500]);
    expect(report.errors).toBe(1);
    expect(report.converged).toBe(true);
  });

  it('leaves the signal alone, and no timer behind, when the reconcile finishes in time', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    let signal: AbortSignal | undefined;
    const r = recorder(h, (ctx) => {
      signal = ctx.signal;
      return undefined;
    });
    await controllerManagedBy(h.runtime)
      .for(VM)
      .withOptions({ reconciliationTimeout: 30_000 })
      .complete(r);
    const start = h.clock.now();
    await h.runtime.converge();
    expect(signal?.aborted).toBe(false);
    expect(h.clock.now()).toBe(start);
    expect(h.clock.pendingTimers()).toBe(0);
  });

  it('aborts the reconcile signal when the controller stops', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    let started: (signal: AbortSignal) => void = () => undefined;
    const inFlight = new Promise<AbortSignal>((resolve) => (started = resolve));
    const r = recorder(h, async (ctx) => {
      started(ctx.signal);
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve));
      return undefined;
    });
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    await h.runtime.start();
    const signal = await inFlight;
    expect(signal.aborted).toBe(false);
    await h.runtime.stop();
    expect(signal.aborted).toBe(true);
  });
});

describe('map functions', () => {
  // The controller-runtime pattern: "list the related objects in the map function".
  it('may be async and list related objects through the read-only client', async () => {
    h = createHarness();
    await h.state.create(Host.create('rack-1'));
    await h.state.create(VM.create('a', { cpus: 1, image: 'rack-1' }));
    await h.state.create(VM.create('b', { cpus: 1, image: 'rack-2' }));
    await h.state.create(VM.create('c', { cpus: 1, image: 'rack-1' }));
    const r = recorder(h);
    await controllerManagedBy(h.runtime)
      .for(VM)
      .watches(
        Host,
        enqueueRequestsFromMapFunc(async (host: ReturnType<typeof Host.create>, { client }) => {
          // The typed helpers take the read-only client as they take a controller's reader.
          const vms = await listAll(client, VM, { namespace: host.metadata.namespace });
          expect(await findById(client, Host, host.metadata.id)).toBeDefined();
          return vms.items
            .filter((vm) => vm.spec.image === host.metadata.id)
            .map((vm) => ({ namespace: vm.metadata.namespace, id: vm.metadata.id }));
        }),
      )
      .complete(r);
    await h.runtime.converge();
    r.calls.length = 0;

    await h.state.modify(Host.create('rack-1'), (d) => {
      d.spec.zone = 'b';
    });
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(r.ids().sort()).toEqual(['a', 'c']);
  });

  it('retries an async map that fails, with backoff, and reports it meanwhile', async () => {
    h = createHarness();
    await h.state.create(VM.create('a'));
    let failures = 1;
    const r = recorder(h);
    await controllerManagedBy(h.runtime)
      .for(VM)
      .watches(
        Config,
        enqueueRequestsFromMapFunc(async (config: ReturnType<typeof Config.create>) => {
          await Promise.resolve();
          if (failures-- > 0) throw new Error('lookup failed');
          return config.spec.vms.map((id) => ({ namespace: config.metadata.namespace, id }));
        }),
      )
      .complete(r);
    await h.runtime.converge();
    r.calls.length = 0;

    await h.state.create(Config.create('c', { vms: ['a'] }));
    const start = h.clock.now();
    const report = await h.runtime.converge();
    expect(report.errors).toBe(1);
    expect(report.converged).toBe(true);
    expect(r.calls.map((c) => [c.id, c.at - start])).toEqual([['a', 500]]);
  });

  it('gets a client that reads and tells the scope of a type, and cannot write', async () => {
    h = createHarness();
    const methods: string[][] = [];
    await controllerManagedBy(h.runtime)
      .for(VM)
      .watches(
        Config,
        enqueueRequestsFromMapFunc((_config, { client }) => {
          methods.push(Object.keys(client).sort());
          return [];
        }),
      )
      .complete(() => undefined);
    await h.state.create(Config.create('c'));
    await h.runtime.converge();
    expect(methods).toEqual([['find', 'get', 'kubernetesKind', 'list']]);
  });
});
