import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createEtcdState,
  createQTransformController,
  createRuntime,
  defineResource,
  listAll,
  type Controller,
  type EtcdState,
  type Runtime,
} from '../../src/index.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';

// Ported from cosi-project/runtime pkg/controller/runtime/runtime_test.go TestIntDoublerController
// (a chain of controllers converging on the state), on a domain of its own: rooms get a lamp
// each (with a finalizer on the room), lamps get a bulb.
const Room = defineResource<{ lux: number }>({
  type: 'Rooms.house.cosi.dev',
  defaultNamespace: 'house',
  defaultSpec: () => ({ lux: 0 }),
});
const Lamp = defineResource<{ watts: number }>({
  type: 'Lamps.house.cosi.dev',
  defaultNamespace: 'house',
  defaultSpec: () => ({ watts: 0 }),
});
const Bulb = defineResource<{ label: string }>({
  type: 'Bulbs.house.cosi.dev',
  defaultNamespace: 'house',
  defaultSpec: () => ({ label: '' }),
});

/** Room -> Lamp: holds each running room with a finalizer, releases it once its lamp is gone. */
const roomToLamp: Controller = {
  name: 'RoomToLamp',
  inputs: [
    { namespace: Room.namespace, type: Room.type, kind: 'strong' },
    { namespace: Lamp.namespace, type: Lamp.type, kind: 'destroyReady' },
  ],
  outputs: [{ type: Lamp.type, kind: 'exclusive' }],
  async run(rt) {
    for await (const _ of rt.events()) {
      for (const room of await listAll(rt, Room)) {
        const id = room.metadata.id;
        if (room.metadata.phase === 'running') {
          if (!room.metadata.finalizers.includes('RoomToLamp')) {
            await rt.addFinalizer(room.metadata, 'RoomToLamp');
          }
          await rt.modify(Lamp.create(id), (draft) => {
            draft.spec.watts = room.spec.lux * 2;
          });
          continue;
        }
        const lamp = await rt.find(Lamp.pointer(id));
        if (lamp && (await rt.teardown(lamp.metadata))) await rt.destroy(lamp.metadata);
        if (!lamp || !(await rt.find(Lamp.pointer(id)))) {
          if (room.metadata.finalizers.includes('RoomToLamp')) {
            await rt.removeFinalizer(room.metadata, 'RoomToLamp');
          }
        }
      }
      rt.resetRestartBackoff();
    }
  },
};

/** Lamp -> Bulb, a weak input: a bulb per running lamp. */
const lampToBulb: Controller = {
  name: 'LampToBulb',
  inputs: [{ namespace: Lamp.namespace, type: Lamp.type, kind: 'weak' }],
  outputs: [{ type: Bulb.type, kind: 'exclusive' }],
  async run(rt) {
    for await (const _ of rt.events()) {
      const lamps = await listAll(rt, Lamp);
      for (const lamp of lamps) {
        if (lamp.metadata.phase !== 'running') continue;
        await rt.modify(Bulb.create(lamp.metadata.id), (draft) => {
          draft.spec.label = `${lamp.spec.watts}W`;
        });
      }
      for (const bulb of await listAll(rt, Bulb)) {
        const lamp = lamps.find((l) => l.metadata.id === bulb.metadata.id);
        if (lamp?.metadata.phase === 'running') continue;
        await rt.destroy(bulb.metadata);
      }
      rt.resetRestartBackoff();
    }
  },
};

/** Room -> Bulb, a queue transform: puts its finalizer on each room, as every qtransform does. */
const roomToBulb = createQTransformController({
  name: 'RoomToBulb',
  input: Room,
  output: Bulb,
  mapMetadata: (room) => Bulb.create(room.metadata.id),
  unmapMetadata: (bulb) => Room.pointer(bulb.metadata.id),
  transform: (_ctx, room, bulb) => {
    bulb.spec.label = `${room.spec.lux} lux`;
  },
});

const CONDITION = { timeout: 45_000, interval: 50 };

describe.skipIf(!etcdAvailable)('the runtime on an etcd state', () => {
  vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });
  let server: EtcdServer;
  let state: EtcdState;
  let runtime: Runtime;

  beforeAll(async () => {
    server = await startEtcd();
  });
  afterEach(async () => {
    await runtime.stop();
    await state.close();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('converges a chain of controllers, follows changes and tears down through finalizers', async () => {
    state = createEtcdState({ endpoints: [server.endpoint], prefix: '/house' });
    runtime = createRuntime(state);
    await runtime.register(roomToLamp, lampToBulb);
    await state.create(Room.create('kitchen', { lux: 10 }));
    await state.create(Room.create('hall', { lux: 3 }));
    await runtime.start();

    const labels = async (): Promise<string[]> =>
      (await state.list<{ label: string }>(Bulb)).map((b) => `${b.metadata.id}=${b.spec.label}`);
    await vi.waitFor(async () => {
      expect(await labels()).toEqual(['hall=6W', 'kitchen=20W']);
    }, CONDITION);
    expect((await state.get(Room.pointer('kitchen'))).metadata.finalizers).toEqual(['RoomToLamp']);

    await state.modify(Room.create('hall'), (draft) => {
      draft.spec.lux = 5;
    });
    await vi.waitFor(async () => {
      expect(await labels()).toEqual(['hall=10W', 'kitchen=20W']);
    }, CONDITION);

    // The user's teardown waits for the controller to let the room go.
    await state.teardownAndDestroy(Room.pointer('kitchen'));
    await vi.waitFor(async () => {
      expect(await labels()).toEqual(['hall=10W']);
      expect((await state.list(Lamp)).map((l) => l.metadata.id)).toEqual(['hall']);
    }, CONDITION);
    expect((await state.list(Room)).map((r) => r.metadata.id)).toEqual(['hall']);
  });

  it('reconciles each input of a queue transform once, its own finalizer write skipped as in memory', async () => {
    state = createEtcdState({ endpoints: [server.endpoint], prefix: '/bulbs' });
    runtime = createRuntime(state);
    await runtime.register(roomToBulb);
    const rooms = ['attic', 'cellar', 'den', 'porch'];
    for (const [i, id] of rooms.entries()) await state.create(Room.create(id, { lux: i }));
    await runtime.start();
    await vi.waitFor(async () => {
      expect((await state.list(Bulb)).map((b) => b.metadata.id)).toEqual(rooms);
    }, CONDITION);
    // Every event of the finalizer writes delivered, and whatever it queued run.
    await state.settled();
    await runtime.converge();
    for (const id of rooms) {
      expect((await state.get(Room.pointer(id))).metadata.finalizers).toEqual(['RoomToBulb']);
    }
    // The finalizer's echo (a new version of the room, decoded anew from etcd: equal, not the
    // same objects) is the controller's own write and needs no second reconcile.
    expect(runtime.metrics('RoomToBulb')?.reconciles).toBe(rooms.length);

    // A change by someone else after the finalizer write is reconciled all the same.
    await state.modify(Room.create('den'), (draft) => {
      draft.spec.lux = 40;
    });
    await vi.waitFor(async () => {
      expect((await state.get<{ label: string }>(Bulb.pointer('den'))).spec.label).toBe('40 lux');
    }, CONDITION);
    await state.settled();
    await runtime.converge();
    expect(runtime.metrics('RoomToBulb')?.reconciles).toBe(rooms.length + 1);
  });
});
