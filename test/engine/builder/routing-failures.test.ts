import { afterEach, describe, expect, it } from 'vitest';
import { controllerManagedBy } from '../../../src/engine/builder/builder.js';
import type { ObjectLike } from '../../../src/engine/builder/events.js';
import { enqueueRequestsFromMapFunc } from '../../../src/engine/builder/handlers.js';
import { predicateFuncs } from '../../../src/engine/builder/predicates.js';
import type { Request } from '../../../src/engine/builder/reconciler.js';
import { Config, createHarness, Host, recorder, VM, type Harness } from './fixtures.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('a predicate or map function that throws', () => {
  it('fails the event: the run does not converge and the report names the failing change', async () => {
    h = createHarness();
    const r = recorder(h);
    const throwsOnBoom = predicateFuncs({
      create: (e) => {
        if (e.object.metadata.id === 'boom') throw new Error('predicate bug');
        return true;
      },
    });
    await controllerManagedBy(h.runtime)
      .for(VM, { predicates: [throwsOnBoom] })
      .complete(r);
    await h.runtime.converge();
    await h.state.create(VM.create('boom'));
    const report = await h.runtime.converge({ maxAttempts: 3 });
    expect(report.converged).toBe(false);
    expect(report.reason).toBe('failing');
    const [controller] = report.controllers;
    expect(controller?.condition).toBe('failed');
    expect(controller?.errors).toBeGreaterThan(0);
    expect(controller?.failingItems).toEqual([
      expect.objectContaining({
        pointer: VM.pointer('boom'),
        attempts: 3,
        mapping: true,
        error: expect.objectContaining({ message: 'predicate bug' }) as unknown,
      }),
    ]);
  });

  it('routes the event again with backoff, so a throw that passes does not lose the change', async () => {
    h = createHarness();
    const r = recorder(h);
    let calls = 0;
    const flaky = enqueueRequestsFromMapFunc((host: ObjectLike): Request[] => {
      calls++;
      if (calls <= 2) throw new Error('not yet');
      return [{ namespace: host.metadata.namespace, id: 'web' }];
    });
    await controllerManagedBy(h.runtime).for(VM).watches(Host, flaky).complete(r);
    await h.state.create(Host.create('h'));
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(r.ids()).toEqual(['web']);
    // Retried after the backoff, not at once.
    expect(r.calls[0]?.at).toBeGreaterThan(0);
    expect(report.controllers[0]?.errors).toBe(2);
    expect(report.controllers[0]?.failingItems).toEqual([]);
  });

  it('fails the event when a map function returns something that is no list, saying so', async () => {
    h = createHarness();
    const r = recorder(h);
    const broken = enqueueRequestsFromMapFunc(() => 7 as unknown as Request[]);
    await controllerManagedBy(h.runtime).for(VM).watches(Host, broken).complete(r);
    await h.runtime.converge();
    await h.state.create(Host.create('h'));
    const report = await h.runtime.converge({ maxAttempts: 2 });
    expect(report.converged).toBe(false);
    expect(report.controllers[0]?.failingItems).toEqual([
      expect.objectContaining({
        pointer: Host.pointer('h'),
        error: expect.objectContaining({
          message:
            'a map function returned 7, not a list of requests { namespace, id } (null or [] for none)',
        }) as unknown,
      }),
    ]);
  });

  it('takes null from a map function, sync or async, as no request (a nil slice in Go)', async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime)
      .for(VM)
      .watches(
        Host,
        enqueueRequestsFromMapFunc(() => null),
      )
      .watches(
        Config,
        enqueueRequestsFromMapFunc(() => Promise.resolve(null)),
      )
      .complete(r);
    await h.state.create(Host.create('h'));
    await h.state.create(Config.create('c'));
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(report.controllers[0]?.errors).toBe(0);
    expect(r.calls).toEqual([]);
  });

  it('fails the event when a map function returns undefined (a forgotten return), saying so', async () => {
    h = createHarness();
    const r = recorder(h);
    const forgot = enqueueRequestsFromMapFunc(() => undefined as unknown as Request[]);
    await controllerManagedBy(h.runtime).for(VM).watches(Host, forgot).complete(r);
    await h.state.create(Host.create('h'));
    const report = await h.runtime.converge({ maxAttempts: 2 });
    expect(report.converged).toBe(false);
    expect(report.controllers[0]?.failingItems.map((f) => f.error.message)).toEqual([
      'a map function returned undefined, not a list of requests { namespace, id } (null or [] for none)',
    ]);
  });

  it('fails the event, naming the controller, when a request is not { namespace, id }', async () => {
    h = createHarness();
    const r = recorder(h);
    const bareIds = enqueueRequestsFromMapFunc(() => ['web'] as unknown as Request[]);
    const numericIds = enqueueRequestsFromMapFunc(() =>
      Promise.resolve([{ namespace: 'default', id: 7 }] as unknown as Request[]),
    );
    await controllerManagedBy(h.runtime)
      .for(VM)
      .watches(Host, bareIds)
      .watches(Config, numericIds)
      .complete(r);
    await h.runtime.converge();
    await h.state.create(Host.create('h'));
    await h.state.create(Config.create('c'));
    const report = await h.runtime.converge({ maxAttempts: 2 });
    expect(report.converged).toBe(false);
    expect(r.calls).toEqual([]);
    const messages = report.controllers[0]?.failingItems.map((f) => f.error.message).sort();
    expect(messages).toEqual([
      'controller "vm": a handler or map function queued "web": a request is an object { namespace, id }',
      'controller "vm": a handler or map function queued {"namespace":"default","id":7}: its id must be a non-empty string',
    ]);
  });
});
