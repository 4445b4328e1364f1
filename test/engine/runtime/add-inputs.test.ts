/**
 * `Runtime.addInputs`: a registered queue controller reads another namespace from then on (an
 * RGD's controller following its instances into a namespace that appeared during a run).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  defineResource,
  isRegistrationError,
  type Controller,
  type QController,
} from '../../../src/index.js';
import { createHarness, type Harness } from '../../support/harness.js';

const Order = defineResource<{ amount: number }>({
  type: 'Orders.shop.example.org',
  defaultSpec: () => ({ amount: 0 }),
});
const Invoice = defineResource<{ total: number }>({
  type: 'Invoices.shop.example.org',
  defaultSpec: () => ({ total: 0 }),
});

/** The same draft, in namespace east. */
const inEast = <D extends { metadata: object }>(draft: D): D => ({
  ...draft,
  metadata: { ...draft.metadata, namespace: 'east' },
});

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** Bills each order of the namespaces it reads, in the order's namespace. */
function billing(): QController {
  return {
    name: 'Billing',
    settings: {
      inputs: [{ namespace: 'default', type: Order.type, kind: 'primary' }],
      outputs: [{ type: Invoice.type, kind: 'exclusive' }],
    },
    async reconcile(rt, pointer) {
      const order = await rt.find<{ amount: number }>(pointer);
      if (!order) return;
      const invoice = {
        ...Invoice.create(pointer.id),
        metadata: { ...Invoice.create(pointer.id).metadata, namespace: pointer.namespace },
      };
      await rt.modify(invoice, (d) => {
        d.spec.total = order.spec.amount;
      });
    },
    mapInput: async () => [],
  };
}

const invoiceIn = async (namespace: string, id: string) =>
  (await h.state.list<{ total: number }>({ namespace, type: Invoice.type })).find(
    (r) => r.metadata.id === id,
  );

describe('Runtime.addInputs', () => {
  it('queues what a new primary input holds, and routes its changes from then on', async () => {
    h = createHarness();
    await h.state.create(Order.create('o1', { amount: 1 }));
    await h.state.create(inEast(Order.create('o2', { amount: 2 })));
    await h.runtime.register(billing());
    expect((await h.runtime.converge()).converged).toBe(true);
    expect((await invoiceIn('default', 'o1'))?.spec.total).toBe(1);
    // Not an input yet: the order of namespace east is not billed.
    expect(await invoiceIn('east', 'o2')).toBeUndefined();

    await h.runtime.addInputs('Billing', [
      { namespace: 'east', type: Order.type, kind: 'primary' },
    ]);
    expect((await h.runtime.converge()).converged).toBe(true);
    expect((await invoiceIn('east', 'o2'))?.spec.total).toBe(2);
    // A change there wakes it, as one of an input registered from the start.
    await h.state.modify(inEast(Order.create('o2')), (d) => {
      d.spec.amount = 20;
    });
    await h.runtime.converge();
    expect((await invoiceIn('east', 'o2'))?.spec.total).toBe(20);
    // The graph shows it.
    expect(h.runtime.dependencyGraph().edges).toContainEqual({
      controller: 'Billing',
      namespace: 'east',
      type: Order.type,
      kind: 'primary',
    });
  });

  it('before start: the start lists it with the others', async () => {
    h = createHarness();
    await h.state.create(inEast(Order.create('o2', { amount: 2 })));
    await h.runtime.register(billing());
    await h.runtime.addInputs('Billing', [
      { namespace: 'east', type: Order.type, kind: 'primary' },
    ]);
    await h.runtime.converge();
    expect((await invoiceIn('east', 'o2'))?.spec.total).toBe(2);
  });

  it('refuses a duplicate input, a kind a queue controller cannot have, and a whole-world controller', async () => {
    h = createHarness();
    const world: Controller = {
      name: 'World',
      inputs: [],
      outputs: [],
      async run() {},
    };
    await h.runtime.register(billing(), world);
    const refusal = async (run: () => Promise<void>): Promise<string> => {
      try {
        await run();
      } catch (error) {
        expect(isRegistrationError(error)).toBe(true);
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(
      await refusal(() =>
        h.runtime.addInputs('Billing', [
          { namespace: 'default', type: Order.type, kind: 'primary' },
        ]),
      ),
    ).toContain('declares input default/Orders.shop.example.org twice');
    expect(
      await refusal(() =>
        h.runtime.addInputs('Billing', [
          { namespace: 'east', type: Order.type, kind: 'weak' as 'primary' },
        ]),
      ),
    ).toMatch(/weak/);
    expect(
      await refusal(() =>
        h.runtime.addInputs('World', [{ namespace: 'east', type: Order.type, kind: 'primary' }]),
      ),
    ).toContain('"World" is no registered queue controller');
    expect(
      await refusal(() =>
        h.runtime.addInputs('Nobody', [{ namespace: 'east', type: Order.type, kind: 'primary' }]),
      ),
    ).toContain('"Nobody" is no registered queue controller');
  });

  it('maps what a new mapped input already holds, and follows many kinds without a listener warning', async () => {
    h = createHarness();
    const Coupon = defineResource<{ order: string }>({
      type: 'Coupons.shop.example.org',
      defaultSpec: () => ({ order: '' }),
    });
    const mapped: string[] = [];
    const controller: QController = {
      name: 'Coupons',
      settings: {
        inputs: [{ namespace: 'default', type: Order.type, kind: 'primary' }],
        outputs: [{ type: Invoice.type, kind: 'exclusive' }],
      },
      async reconcile() {},
      mapInput: async (_rt, md) => {
        mapped.push(`${md.namespace}/${md.id}`);
        return [];
      },
    };
    await h.state.create(inEast(Coupon.create('c1', { order: 'o1' })));
    await h.runtime.register(controller);
    await h.runtime.converge();
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      await h.runtime.addInputs('Coupons', [
        { namespace: 'east', type: Coupon.type, kind: 'mapped' },
      ]);
      await h.runtime.converge();
      expect(mapped).toEqual(['east/c1']);
      // One watch (and one abort listener) per kind: twenty namespaces followed.
      for (let i = 0; i < 20; i++) {
        await h.runtime.addInputs('Coupons', [
          { namespace: `team-${i}`, type: Order.type, kind: 'primary' },
        ]);
      }
      await h.runtime.converge();
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).not.toContain('MaxListenersExceededWarning');
  });
});
