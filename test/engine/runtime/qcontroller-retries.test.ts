/**
 * How a queue controller retries: a failing `mapInput` is retried like a failing reconcile, and a
 * plain requeue is a success that clears the item's backoff. On a domain of orders (primary),
 * coupons (mapped onto the order of the same id) and invoices (output).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  defineResource,
  requeueAfter,
  type Pointer,
  type QController,
  type QRuntime,
  type ReducedMetadata,
} from '../../../src/index.js';
import { createHarness, type Harness } from '../../support/harness.js';

const Order = defineResource<{ amount: number }>({
  type: 'Orders.shop.example.org',
  defaultNamespace: 'shop',
  defaultSpec: () => ({ amount: 0 }),
});
const Coupon = defineResource<{ discount: number }>({
  type: 'Coupons.shop.example.org',
  defaultNamespace: 'shop',
  defaultSpec: () => ({ discount: 0 }),
});
const Invoice = defineResource<{ total: number }>({
  type: 'Invoices.shop.example.org',
  defaultNamespace: 'shop',
  defaultSpec: () => ({ total: 0 }),
});

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

interface BillingOptions {
  mapInput?: (md: ReducedMetadata) => Promise<readonly Pointer[]>;
  reconcile?: (rt: QRuntime, pointer: Pointer) => Promise<void>;
}

/** Bills each order, minus the discount of the coupon of the same id. */
function billing(options: BillingOptions = {}): QController {
  return {
    name: 'Billing',
    settings: {
      inputs: [
        { namespace: Order.namespace, type: Order.type, kind: 'primary' },
        { namespace: Coupon.namespace, type: Coupon.type, kind: 'mapped' },
      ],
      outputs: [{ type: Invoice.type, kind: 'exclusive' }],
    },
    reconcile:
      options.reconcile ??
      (async (rt, pointer) => {
        const order = await rt.find<{ amount: number }>(pointer);
        if (!order) return;
        const coupon = await rt.find<{ discount: number }>(Coupon.pointer(pointer.id));
        await rt.modify(Invoice.create(pointer.id), (d) => {
          d.spec.total = order.spec.amount - (coupon?.spec.discount ?? 0);
        });
      }),
    mapInput: async (_rt, md) => (options.mapInput ? options.mapInput(md) : [Order.pointer(md.id)]),
  };
}

const total = async (id: string): Promise<number> =>
  (await h.state.get<{ total: number }>(Invoice.pointer(id))).spec.total;

describe('a failing mapInput', () => {
  // Ported from cosi-project/runtime pkg/controller/runtime/internal/qruntime/qruntime.go runReconcile (a failed map job is requeued with backoff)
  it('is retried with backoff, and the primary is reconciled once it maps', async () => {
    h = createHarness();
    await h.state.create(Order.create('o1', { amount: 100 }));
    const mapped: number[] = [];
    await h.runtime.register(
      billing({
        mapInput: async (md) => {
          mapped.push(h.clock.now());
          if (mapped.length <= 2) throw new Error('coupon service unavailable');
          return [Order.pointer(md.id)];
        },
      }),
    );
    await h.runtime.converge();
    expect(await total('o1')).toBe(100);
    await h.state.create(Coupon.create('o1', { discount: 30 }));
    const t0 = h.clock.now();
    const report = await h.runtime.converge();
    expect(mapped.map((t) => t - t0)).toEqual([0, 500, 1250]);
    expect(await total('o1')).toBe(70);
    expect(report.converged).toBe(true);
    expect(report.controllers[0]).toMatchObject({ errors: 2, failingItems: [] });
  });

  it('that keeps failing is a failing item of the mapped input: not idle, not converged', async () => {
    h = createHarness();
    await h.state.create(Order.create('o1', { amount: 100 }));
    await h.runtime.register(
      billing({
        mapInput: async () => {
          throw new Error('coupon service unavailable');
        },
      }),
    );
    await h.runtime.converge();
    await h.state.create(Coupon.create('o1', { discount: 30 }));
    const report = await h.runtime.converge({ maxAttempts: 3 });
    expect(report.converged).toBe(false);
    expect(report.reason).toBe('failing');
    expect(report.controllers[0]).toMatchObject({
      condition: 'failed',
      lastError: { code: 'error', message: 'coupon service unavailable' },
      failingItems: [
        {
          pointer: Coupon.pointer('o1'),
          attempts: 3,
          error: { code: 'error', message: 'coupon service unavailable' },
        },
      ],
    });
    expect(await total('o1')).toBe(100);
  });

  it('is given another chance by the next convergence run', async () => {
    h = createHarness();
    await h.state.create(Order.create('o1', { amount: 100 }));
    let healthy = false;
    await h.runtime.register(
      billing({
        mapInput: async (md) => {
          if (!healthy) throw new Error('coupon service unavailable');
          return [Order.pointer(md.id)];
        },
      }),
    );
    await h.runtime.converge();
    await h.state.create(Coupon.create('o1', { discount: 30 }));
    expect((await h.runtime.converge({ maxAttempts: 2 })).reason).toBe('failing');
    healthy = true;
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(await total('o1')).toBe(70);
  });
});

describe('a plain requeue', () => {
  /** A reconcile that plays a script: an Error, a requeue (ms) or success (`ok`), one per call. */
  function scripted(script: readonly (Error | number | 'ok')[], calls: number[]): BillingOptions {
    return {
      reconcile: async () => {
        const step = script[calls.length] ?? 'ok';
        calls.push(h.clock.now());
        if (step instanceof Error) throw step;
        if (typeof step === 'number') throw requeueAfter(step);
      },
    };
  }

  // Ported from cosi-project/runtime pkg/controller/generic/qtransform/qtransform_test.go TestRequeueErrorBackoff
  it('is a success: the next failure backs off from the base interval again', async () => {
    h = createHarness();
    await h.state.create(Order.create('o1', { amount: 100 }));
    const calls: number[] = [];
    const boom = new Error('ledger locked');
    await h.runtime.register(billing(scripted([boom, boom, 100, boom, 'ok'], calls)));
    const t0 = h.clock.now();
    const report = await h.runtime.converge();
    // 500 and 750 ms for the first two failures; after the requeue, 500 ms again, not 1125.
    expect(calls.map((t) => t - t0)).toEqual([0, 500, 1250, 1350, 1850]);
    expect(report.converged).toBe(true);
    expect(h.runtime.metrics('Billing')).toMatchObject({ crashes: 3, requeues: 1 });
  });

  it('takes the item out of the failing items: the controller waits, not in backoff', async () => {
    h = createHarness();
    await h.state.create(Order.create('o1', { amount: 100 }));
    const calls: number[] = [];
    await h.runtime.register(billing(scripted([new Error('ledger locked'), 600_000], calls)));
    // Stop while the requeue waits.
    const report = await h.runtime.converge({ maxTime: 60_000 });
    expect(calls).toHaveLength(2);
    expect(report.controllers[0]).toMatchObject({ condition: 'idle', failingItems: [] });
    expect(h.runtime.status('Billing')?.condition).toBe('idle');
  });

  it('of no interval comes back after the item’s growing backoff, never at once', async () => {
    h = createHarness();
    await h.state.create(Order.create('o1', { amount: 100 }));
    const calls: number[] = [];
    await h.runtime.register(billing(scripted([0, 0, 0, -1, 'ok'], calls)));
    const t0 = h.clock.now();
    const report = await h.runtime.converge();
    expect(calls.map((t) => t - t0)).toEqual([0, 500, 1250, 2375, 4063]);
    expect(report.converged).toBe(true);
    expect(h.runtime.metrics('Billing')).toMatchObject({ requeues: 4, crashes: 0 });
  });

  it('of no interval, asked for forever, ends the run at its time bound in a bounded number of reconciles', async () => {
    h = createHarness();
    await h.state.create(Order.create('o1', { amount: 100 }));
    let reconciles = 0;
    await h.runtime.register(
      billing({
        reconcile: async () => {
          reconciles++;
          throw requeueAfter(0);
        },
      }),
    );
    const report = await h.runtime.converge();
    // It never wrote: waiting on something, not polling (not 'steady').
    expect(report.reason).toBe('max-time');
    // 500 ms x1.5 up to 60 s, then 60 s: about seventy reconciles in the hour's bound.
    expect(reconciles).toBeLessThan(100);
  });

  it('does not count toward maxAttempts', async () => {
    h = createHarness();
    await h.state.create(Order.create('o1', { amount: 100 }));
    const calls: number[] = [];
    const boom = new Error('ledger locked');
    await h.runtime.register(billing(scripted([boom, 100, boom, 100, boom, 100, 'ok'], calls)));
    const report = await h.runtime.converge({ maxAttempts: 2 });
    expect(calls).toHaveLength(7);
    expect(report.converged).toBe(true);
    expect(report.controllers[0]?.failingItems).toEqual([]);
  });
});
