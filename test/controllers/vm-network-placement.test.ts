/**
 * The vm-network Placement controller finds the VMs of a host through its placements' host label
 * (the state's label index). A host that appears after a VM's reconcile read it as missing, and
 * whose mapper runs before that placement (and its label) is written, must still get the VM.
 */
import { describe, expect, it } from 'vitest';
import { createPlacementController } from '../../fixtures/vm-network/placement.js';
import { HOST_LABEL, Host, Placement, VM } from '../../fixtures/vm-network/types.js';
import {
  createInMemoryState,
  createRuntime,
  SimulatedClock,
  type Draft,
  type Kind,
  type ListOptions,
  type Pointer,
  type State,
  type Updater,
  type UpdateOptions,
} from '../../src/index.js';
import type { SyncCore } from '../../src/engine/state/sync-core.js';

describe('the vm-network Placement controller', () => {
  it('places a VM on a host created between its host read and its placement write', async () => {
    const clock = new SimulatedClock();
    const inner = createInMemoryState({ now: () => clock.now() });
    let raced = false;
    let mapped!: () => void;
    const mapperRan = new Promise<void>((resolve) => (mapped = resolve));
    const overrides: Partial<State & SyncCore> = {
      peekVersion(pointer: Pointer) {
        const version = inner.peekVersion(pointer);
        if (pointer.type === Host.type && !raced) {
          raced = true;
          // The host appears right after the transform read it as missing.
          queueMicrotask(() => void inner.create(Host.create('h1', { cpus: 8, zone: 'z1' })));
        }
        return version;
      },
      async list(kind: Kind, options?: ListOptions) {
        const listed = await inner.list(kind, options);
        if (kind.type === Placement.type && options?.labelQueries) mapped();
        return listed as never;
      },
      async modifyWithResult<S>(empty: Draft<S>, fn: Updater<S>, options?: UpdateOptions) {
        if (empty.metadata.type !== Placement.type)
          return inner.modifyWithResult(empty, fn, options);
        return inner.modifyWithResult(
          empty,
          async (draft: Draft<S>) => {
            await fn(draft);
            // The placement lands only after the host's mapper looked for its label.
            if (raced) await mapperRan;
          },
          options,
        );
      },
    };
    const state = new Proxy(inner, {
      get(target, prop) {
        const own = (overrides as Record<PropertyKey, unknown>)[prop];
        if (own !== undefined) return own;
        const value: unknown = Reflect.get(target, prop);
        return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
      },
    });
    const runtime = createRuntime(state, { clock });
    await runtime.register(createPlacementController());
    await runtime.converge();
    await inner.create(VM.create('vm-1', { cpus: 2, image: 'debian', host: 'h1' }));

    const report = await runtime.converge();
    await runtime.stop();

    expect(report.converged).toBe(true);
    expect(raced).toBe(true);
    const placement = await inner.get<{ fits: boolean }>(Placement.pointer('vm-1'));
    expect(placement.metadata.labels[HOST_LABEL]).toBe('h1');
    expect(placement.spec.fits).toBe(true);
  });
});
