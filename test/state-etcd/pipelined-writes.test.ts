/**
 * The vm-network project converged on etcd with writes in flight (as `cosi run` does on etcd) ends
 * exactly as the same project converged in memory one write at a time: the same resources with
 * the same specs, and every key written as often as in memory. A resource's version counts its
 * writes (1 at its creation, +1 for each update) and etcd's own `version` of a key counts its
 * puts: a write lost or made twice changes one or the other.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Etcd3 } from 'etcd3';
import { createVMNetController, VM_NET_CONTROLLER } from '../../fixtures/vm-network/controllers.js';
import { setupHostStatusController } from '../../fixtures/vm-network/host-status.js';
import {
  createPlacementController,
  PLACEMENT_CONTROLLER,
} from '../../fixtures/vm-network/placement.js';
import { Host, HostStatus, NetworkConfig, Placement, VM } from '../../fixtures/vm-network/types.js';
import {
  createEtcdState,
  createInMemoryState,
  createRuntime,
  SimulatedClock,
  type Resource,
  type Runtime,
  type State,
} from '../../src/index.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';

const HOSTS = 4;
const VMS_PER_HOST = 15;
const KINDS = [VM, Host, NetworkConfig, Placement, HostStatus];

async function populate(state: State): Promise<void> {
  for (let h = 0; h < HOSTS; h++) {
    await state.create(Host.create(`host-${h}`, { cpus: 64, zone: `z${h}` }));
    for (let v = 0; v < VMS_PER_HOST; v++) {
      const id = `vm-${h}-${String(v).padStart(2, '0')}`;
      await state.create(
        VM.create(id, { cpus: 1 + (v % 8), image: `image-${v % 3}`, host: `host-${h}` }),
      );
    }
  }
}

async function register(runtime: Runtime): Promise<void> {
  await runtime.register(createVMNetController(), createPlacementController());
  await setupHostStatusController(runtime);
}

/** Every resource of the project, by `type/id`. */
async function snapshot(state: State): Promise<Map<string, Resource>> {
  const all = new Map<string, Resource>();
  for (const kind of KINDS) {
    for (const r of await state.list(kind)) all.set(`${r.metadata.type}/${r.metadata.id}`, r);
  }
  return all;
}

describe.skipIf(!etcdAvailable)('controller writes pipelined on etcd', () => {
  vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
  let server: EtcdServer;

  beforeAll(async () => {
    server = await startEtcd();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('lose no write and make none twice: the state ends as in memory, key by key', async () => {
    const clock = new SimulatedClock();
    const memory = createInMemoryState({ now: () => clock.now() });
    const inMemory = createRuntime(memory, { clock });
    await populate(memory);
    await register(inMemory);
    expect((await inMemory.converge()).converged).toBe(true);
    await inMemory.stop();

    const prefix = '/pipelined';
    const etcd = createEtcdState({ endpoints: [server.endpoint], prefix });
    const runtime = createRuntime(etcd, { clock: new SimulatedClock(), writesInFlight: 32 });
    try {
      await populate(etcd);
      await register(runtime);
      // The runtime does not wait for its own writes to come back through the watch: converge
      // until a run, after every event was delivered, finds nothing to do (bounded).
      let reconciles = 0;
      for (let run = 0; ; run++) {
        expect(run).toBeLessThan(20);
        const report = await runtime.converge();
        expect(report.converged).toBe(true);
        if (run > 0 && report.reconciles === 0) break;
        reconciles += report.reconciles;
        await etcd.settled();
      }
      const vms = HOSTS * VMS_PER_HOST;
      // Each VM reconciled once by the queue transform: another controller's finalizer on it
      // does not requeue it.
      expect(runtime.metrics(PLACEMENT_CONTROLLER)?.reconciles).toBe(vms);
      expect(reconciles).toBeGreaterThanOrEqual(vms);

      const expected = await snapshot(memory);
      const actual = await snapshot(etcd);
      expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
      for (const [key, want] of expected) {
        const got = actual.get(key) as Resource;
        expect(got.spec, key).toEqual(want.spec);
        expect([...got.metadata.finalizers].sort(), key).toEqual(
          [...want.metadata.finalizers].sort(),
        );
        expect(got.metadata.labels, key).toEqual(want.metadata.labels);
        // HostStatus is rewritten as placements arrive, as often as their events split: its
        // count of writes depends on timing. Every other resource is written a fixed number of
        // times (a VM: created, then one finalizer from each of two controllers).
        if (got.metadata.type !== HostStatus.type) {
          expect(got.metadata.version, key).toBe(want.metadata.version);
        }
      }
      expect(expected.get(`${VM.type}/vm-0-00`)?.metadata.finalizers).toHaveLength(2);
      // The writes in flight shared transactions: fewer write requests than resource writes.
      let versions = 0;
      for (const r of actual.values()) versions += r.metadata.version;
      expect(etcd.figures().writes).toBeLessThan(versions);
      expect(runtime.metrics(VM_NET_CONTROLLER)?.reconciles).toBeGreaterThan(0);

      // etcd's own count of puts per key agrees with the versions: no write went around them.
      const client = new Etcd3({ hosts: server.endpoint });
      try {
        const resourceKeys = await client.getAll().prefix(`${prefix}/`).exec();
        let counted = 0;
        for (const kv of resourceKeys.kvs) {
          const key = kv.key.toString();
          if (!key.includes('/r/')) continue;
          const resource = JSON.parse(kv.value.toString()) as { metadata: { version: number } };
          expect(Number(kv.version), key).toBe(resource.metadata.version);
          counted++;
        }
        expect(counted).toBe(expected.size);
      } finally {
        client.close();
      }
    } finally {
      await runtime.stop();
      await etcd.close();
    }
  });
});
