/**
 * The spec's NewVMNetController example (controllers chapter): "Create a VM → a NetworkConfig
 * appears. Teardown the VM → detachBridge runs, the finalizer drops, both are destroyed in order."
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createVMNetController,
  NetworkConfig,
  VM,
  VM_NET_CONTROLLER,
  type NetworkConfigSpec,
} from '../../fixtures/vm-network/controllers.js';
import type { StateEvent } from '../../src/index.js';
import { createHarness, type Harness } from './harness.js';

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.runtime.stop();
});

describe('the VM network example', () => {
  it('makes a NetworkConfig for a new VM and holds the VM with a finalizer', async () => {
    await h.runtime.register(createVMNetController());
    await h.state.create(VM.create('web-1', { cpus: 2, image: 'debian' }));
    const report = await h.runtime.converge();

    expect(report.converged).toBe(true);
    const net = await h.state.get<NetworkConfigSpec>(NetworkConfig.pointer('web-1'));
    expect(net.spec).toEqual({ hostname: 'web-1', bridge: 'br-debian' });
    expect(net.metadata.owner).toBe(VM_NET_CONTROLLER);
    expect((await h.state.get(VM.pointer('web-1'))).metadata.finalizers).toEqual([
      VM_NET_CONTROLLER,
    ]);
  });

  it('on VM teardown runs detachBridge, drops the finalizer, and destroys the NetworkConfig before the VM', async () => {
    const story: string[] = [];
    await h.runtime.register(
      createVMNetController({
        detachBridge: async (id) => {
          story.push(`detachBridge ${id}`);
        },
      }),
    );
    await h.state.create(VM.create('web-1', { cpus: 2, image: 'debian' }));
    await h.runtime.converge();

    const record = (event: StateEvent): void => {
      if (event.type === 'destroyed') {
        story.push(`destroyed ${event.resource.metadata.type}`);
      } else if (
        event.type === 'updated' &&
        event.old.metadata.finalizers.includes(VM_NET_CONTROLLER) &&
        !event.resource.metadata.finalizers.includes(VM_NET_CONTROLLER)
      ) {
        story.push('finalizer dropped');
      }
    };
    await h.state.watchKind(VM.kind(), record);
    await h.state.watchKind(NetworkConfig.kind(), record);

    // As `cosi delete` would: tear down, wait for the finalizers, destroy.
    const deleted = h.state.teardownAndDestroy(VM.pointer('web-1'));
    const report = await h.runtime.converge();
    await deleted;

    expect(report.converged).toBe(true);
    expect(story).toEqual([
      'detachBridge web-1',
      `destroyed ${NetworkConfig.type}`,
      'finalizer dropped',
      `destroyed ${VM.type}`,
    ]);
    expect(await h.state.list(VM.kind())).toEqual([]);
    expect(await h.state.list(NetworkConfig.kind())).toEqual([]);
  });
});
