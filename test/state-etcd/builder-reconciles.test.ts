/**
 * The vm-network project's builder controller (HostStatus: `for(Host).owns(HostStatus)
 * .watches(Placement)`) reconciles on etcd about as often as in memory, with 32 writes in flight
 * as `cosi run` keeps them. It used to reconcile a host for every few placements: the placements
 * are written over many turns of the event loop on etcd, where in memory their whole pass is over
 * before the builder controller wakes. Now a controller's wakeup waits for the work under way
 * upstream of it (see `WakeupScheduler`).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createVMNetController } from '../../fixtures/vm-network/controllers.js';
import {
  HOST_STATUS_CONTROLLER,
  setupHostStatusController,
} from '../../fixtures/vm-network/host-status.js';
import { createPlacementController } from '../../fixtures/vm-network/placement.js';
import { Host, HostStatus, VM } from '../../fixtures/vm-network/types.js';
import {
  createEtcdState,
  createInMemoryState,
  createRuntime,
  SimulatedClock,
  type Runtime,
  type State,
} from '../../src/index.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';

const HOSTS = 4;
const VMS_PER_HOST = 25;

async function populate(state: State): Promise<void> {
  for (let h = 0; h < HOSTS; h++) {
    await state.create(Host.create(`host-${h}`, { cpus: 256, zone: `z${h}` }));
    for (let v = 0; v < VMS_PER_HOST; v++) {
      const id = `vm-${h}-${String(v).padStart(2, '0')}`;
      await state.create(
        VM.create(id, { cpus: 1 + (v % 8), image: `image-${v % 3}`, host: `host-${h}` }),
      );
    }
  }
}

/** Converges until a run, after every event came back, finds nothing to do; reconciles by controller. */
async function converge(
  runtime: Runtime,
  settled: () => Promise<void>,
): Promise<Map<string, number>> {
  const reconciles = new Map<string, number>();
  for (let run = 0; ; run++) {
    expect(run).toBeLessThan(20);
    const report = await runtime.converge();
    expect(report.converged).toBe(true);
    if (run > 0 && report.reconciles === 0) return reconciles;
    for (const c of report.controllers) {
      reconciles.set(c.name, (reconciles.get(c.name) ?? 0) + c.reconciles);
    }
    await settled();
  }
}

async function register(runtime: Runtime): Promise<void> {
  await runtime.register(createVMNetController(), createPlacementController());
  await setupHostStatusController(runtime);
}

describe.skipIf(!etcdAvailable)('a builder controller on etcd', () => {
  vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
  let server: EtcdServer;

  beforeAll(async () => {
    server = await startEtcd();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('reconciles each host within 1.3x of in memory, and ends with the same statuses', async () => {
    const clock = new SimulatedClock();
    const memory = createInMemoryState({ now: () => clock.now() });
    const inMemory = createRuntime(memory, { clock });
    await populate(memory);
    await register(inMemory);
    const expected = await converge(inMemory, () => Promise.resolve());
    await inMemory.stop();

    const etcd = createEtcdState({ endpoints: [server.endpoint], prefix: '/builder-reconciles' });
    const runtime = createRuntime(etcd, { clock: new SimulatedClock(), writesInFlight: 32 });
    try {
      await populate(etcd);
      await register(runtime);
      const actual = await converge(runtime, () => etcd.settled());

      const want = expected.get(HOST_STATUS_CONTROLLER) ?? 0;
      const got = actual.get(HOST_STATUS_CONTROLLER) ?? 0;
      // In memory: a reconcile per host for all its placements, and one for its own status write.
      expect(want).toBe(2 * HOSTS);
      expect(got).toBeGreaterThanOrEqual(HOSTS);
      expect(got).toBeLessThanOrEqual(1.3 * want);
      const total = (m: Map<string, number>): number => [...m.values()].reduce((a, b) => a + b, 0);
      expect(total(actual)).toBeLessThanOrEqual(1.3 * total(expected));

      for (let h = 0; h < HOSTS; h++) {
        const id = `host-${h}`;
        const status = await etcd.get(HostStatus.pointer(id));
        expect(status.spec, id).toEqual((await memory.get(HostStatus.pointer(id))).spec);
      }
    } finally {
      await runtime.stop();
      await etcd.close();
    }
  });
});
