import { describe, expect, it } from 'vitest';
import { createInMemoryState, defineResource, teardownSignal } from '../../../src/index.js';

const Lease = defineResource<{ holder: string }>({
  type: 'Leases.locks.example.org',
  defaultNamespace: 'locks',
  defaultSpec: () => ({ holder: '' }),
});

/** Lets the state deliver what its watches have queued. */
const delivered = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('teardownSignal', () => {
  // Ported from cosi-project/runtime pkg/state/conformance/state.go TestContextWithTeardown
  it('aborts when the resource is destroyed or starts tearing down, and at once when it is missing', async () => {
    const state = createInMemoryState();
    const missing = await teardownSignal(state, Lease.pointer('r1'));
    await delivered();
    expect(missing.aborted).toBe(true);

    await state.create(Lease.create('r1'));
    await state.create(Lease.create('r2'));
    const first = await teardownSignal(state, Lease.pointer('r1'));
    const second = await teardownSignal(state, Lease.pointer('r2'));
    await delivered();
    expect([first.aborted, second.aborted]).toEqual([false, false]);

    await state.destroy(Lease.pointer('r1'));
    await delivered();
    expect([first.aborted, second.aborted]).toEqual([true, false]);
    expect((first.reason as Error).message).toMatch(/was destroyed/);

    await state.teardown(Lease.pointer('r2'));
    await delivered();
    expect(second.aborted).toBe(true);
    expect((second.reason as Error).message).toMatch(/is tearing down/);
  });

  it('aborts at once for a resource that is already tearing down', async () => {
    const state = createInMemoryState();
    await state.create(Lease.create('r'));
    await state.addFinalizer(Lease.pointer('r'), 'holder');
    await state.teardown(Lease.pointer('r'));
    const signal = await teardownSignal(state, Lease.pointer('r'));
    await delivered();
    expect(signal.aborted).toBe(true);
  });

  it('does not abort on other changes of the resource', async () => {
    const state = createInMemoryState();
    await state.create(Lease.create('r'));
    const signal = await teardownSignal(state, Lease.pointer('r'));
    await state.modify(Lease.create('r'), (d) => {
      d.spec.holder = 'someone';
    });
    await state.addFinalizer(Lease.pointer('r'), 'holder');
    await delivered();
    expect(signal.aborted).toBe(false);
  });

  it('follows the signal it is given, with its reason', async () => {
    const state = createInMemoryState();
    await state.create(Lease.create('r'));
    const parent = new AbortController();
    const signal = await teardownSignal(state, Lease.pointer('r'), parent.signal);
    await delivered();
    expect(signal.aborted).toBe(false);
    parent.abort(new Error('shutting down'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('shutting down');
    const late = await teardownSignal(state, Lease.pointer('r'), parent.signal);
    expect(late.aborted).toBe(true);
  });
});
