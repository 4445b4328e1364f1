import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createEtcdState,
  createGarbageCollector,
  createRuntime,
  defineResource,
  SimulatedClock,
} from '../../src/index.js';
import { convergeUntilIdle } from '../support/converge-until-idle.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';

const Shop = defineResource({ type: 'Shops.legacy.cosi.dev' });
const Till = defineResource({ type: 'Tills.legacy.cosi.dev' });

/**
 * State an older cosi wrote on etcd: owners held by its unqualified finalizer `GarbageCollector`.
 * The collector of this version still releases them.
 */
describe.skipIf(!etcdAvailable)('garbage collector on etcd state an older cosi wrote', () => {
  vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
  let server: EtcdServer;
  beforeAll(async () => {
    server = await startEtcd();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('releases the unqualified finalizer of an older cosi, and holds owners by its own', async () => {
    const state = createEtcdState({ endpoints: [server.endpoint], prefix: '/gc-legacy' });
    const runtime = createRuntime(state, { clock: new SimulatedClock() });
    try {
      for (const id of ['running', 'leaving']) {
        await state.create(Shop.create(id, {}, { finalizers: ['GarbageCollector'] }));
        await state.create(
          Till.create(
            `${id}-till`,
            {},
            {
              ownerReferences: [
                { type: Shop.type, id, controller: true, blockOwnerDeletion: true },
              ],
            },
          ),
        );
      }
      expect(await state.teardown(Shop.pointer('leaving'))).toBe(false);

      await runtime.register(createGarbageCollector({ owners: [Shop], dependents: [Till] }));
      await convergeUntilIdle(runtime, () => state.settled());

      // The owner tearing down: its till collected, the old finalizer released, so it can go.
      expect((await state.list(Till.kind())).map((t) => t.metadata.id)).toEqual(['running-till']);
      expect((await state.get(Shop.pointer('leaving'))).metadata.finalizers).toEqual([]);
      await state.destroy(Shop.pointer('leaving'));
      // The running owner: held by the qualified finalizer from now on.
      expect((await state.get(Shop.pointer('running'))).metadata.finalizers).toEqual([
        'cosi.dev/garbage-collector',
      ]);
      await state.teardown(Shop.pointer('running'));
      await convergeUntilIdle(runtime, () => state.settled());
      expect(await state.list(Till.kind())).toEqual([]);
      expect((await state.get(Shop.pointer('running'))).metadata.finalizers).toEqual([]);
    } finally {
      await runtime.stop();
      await state.close();
    }
  });
});
