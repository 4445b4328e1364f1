/**
 * The teardown controllers (cleanup, destroy, the owner garbage collector) on etcd with writes in
 * flight, as `cosi run` runs them there, end exactly as the same project in memory one write at a
 * time: every resource gone that should go, and every key written exactly as often, in the same
 * order of puts and deletes. etcd's own history of the keys (a watch from revision 1) is the
 * record on that side, the state's events on the other: a write lost or made twice changes it.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Etcd3 } from 'etcd3';
import {
  createCleanupController,
  createDestroyController,
  createEtcdState,
  createGarbageCollector,
  createInMemoryState,
  createRuntime,
  defineResource,
  labelEqual,
  labelQuery,
  removeOutputs,
  setControllerReference,
  SimulatedClock,
  type Runtime,
  type State,
} from '../../src/index.js';
import { convergeUntilIdle } from '../support/converge-until-idle.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { waitFor } from '../support/wait-for.js';

const Owner = defineResource<{ n: number }>({
  type: 'Owners.teardown.test',
  defaultSpec: () => ({ n: 0 }),
});
/** Collected by the garbage collector: a controller reference to its owner. */
const Part = defineResource<{ n: number }>({
  type: 'Parts.teardown.test',
  defaultSpec: () => ({ n: 0 }),
});
/** Removed by the cleanup controller: labelled with its owner's id. */
const Leftover = defineResource<{ n: number }>({
  type: 'Leftovers.teardown.test',
  defaultSpec: () => ({ n: 0 }),
});
const KINDS = [Owner, Part, Leftover];

const OWNERS = 4;
const PER_OWNER = 50;

/** Owners 0 and 1 are deleted in the foreground (blocking parts), 2 and 3 in the background. */
async function populate(state: State): Promise<void> {
  for (let o = 0; o < OWNERS; o++) {
    const owner = await state.create(Owner.create(`owner-${o}`, { n: o }));
    for (let i = 0; i < PER_OWNER; i++) {
      const id = `${o}-${String(i).padStart(3, '0')}`;
      const part = Part.create(id, { n: i });
      setControllerReference(owner, part, { blockOwnerDeletion: o < 2 });
      await state.create(part);
      await state.create(Leftover.create(id, { n: i }, { labels: { owner: `owner-${o}` } }));
    }
  }
}

async function register(runtime: Runtime): Promise<void> {
  await runtime.register(
    createGarbageCollector({ owners: [Owner], dependents: [Part] }),
    createCleanupController({
      name: 'LeftoverCleanup',
      input: Owner,
      handler: removeOutputs(Leftover.kind(), (owner) => ({
        labelQueries: [labelQuery(labelEqual('owner', owner.metadata.id))],
      })),
    }),
    createDestroyController(Owner.kind()),
  );
}

/** Every write of every key, `type/id` -> `put put delete`, from the state's own events. */
async function recordWrites(state: State): Promise<Map<string, string[]>> {
  const writes = new Map<string, string[]>();
  for (const kind of KINDS) {
    await state.watchKind(kind.kind(), (event) => {
      if (event.type !== 'created' && event.type !== 'updated' && event.type !== 'destroyed') {
        return;
      }
      const key = `${event.resource.metadata.type}/${event.resource.metadata.id}`;
      const list = writes.get(key) ?? [];
      list.push(event.type === 'destroyed' ? 'delete' : 'put');
      writes.set(key, list);
    });
  }
  return writes;
}

/** Every put and delete of a resource key under `prefix`, from etcd's history. */
async function etcdHistory(endpoint: string, prefix: string): Promise<Map<string, string[]>> {
  const client = new Etcd3({ hosts: endpoint });
  const writes = new Map<string, string[]>();
  let done = false;
  try {
    const watcher = await client.watch().prefix(`${prefix}/`).startRevision('1').create();
    const note = (op: string, key: string): void => {
      if (key === `${prefix}/~end`) done = true;
      // <prefix>/<namespace>/<type>/r/<id>: resources only, not markers or label index keys.
      const parts = key.slice(prefix.length + 1).split('/');
      if (parts[2] !== 'r') return;
      const name = `${decodeURIComponent(parts[1] ?? '')}/${parts.slice(3).join('/')}`;
      const list = writes.get(name) ?? [];
      list.push(op);
      writes.set(name, list);
    };
    watcher.on('put', (kv) => note('put', kv.key.toString()));
    watcher.on('delete', (kv) => note('delete', kv.key.toString()));
    // A key written after everything else: once its event is here, the whole history is.
    await client.put(`${prefix}/~end`).value('');
    await waitFor(() => done, 20_000, 'the history of the keys');
    await watcher.cancel();
    return writes;
  } finally {
    client.close();
  }
}

describe.skipIf(!etcdAvailable)('teardown controllers pipelined on etcd', () => {
  vi.setConfig({ testTimeout: 120_000, hookTimeout: 60_000 });
  let server: EtcdServer;

  beforeAll(async () => {
    server = await startEtcd();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('lose no write and make none twice: every key written as in memory, everything gone', async () => {
    const clock = new SimulatedClock();
    const memory = createInMemoryState({ now: () => clock.now() });
    const inMemory = createRuntime(memory, { clock });
    const expected = await recordWrites(memory);
    await populate(memory);
    await register(inMemory);
    await convergeUntilIdle(inMemory, () => Promise.resolve());
    for (let o = 0; o < OWNERS; o++) await memory.teardown(Owner.pointer(`owner-${o}`));
    await convergeUntilIdle(inMemory, () => Promise.resolve());
    await inMemory.stop();
    for (const kind of KINDS) expect(await memory.list(kind.kind())).toEqual([]);

    const prefix = '/pipelined-teardown';
    const etcd = createEtcdState({ endpoints: [server.endpoint], prefix });
    const runtime = createRuntime(etcd, { clock: new SimulatedClock(), writesInFlight: 32 });
    try {
      await populate(etcd);
      await register(runtime);
      await convergeUntilIdle(runtime, () => etcd.settled());
      const guarded = await etcd.get(Owner.pointer('owner-0'));
      expect([...guarded.metadata.finalizers].sort()).toEqual([
        'LeftoverCleanup',
        'cosi.dev/garbage-collector',
      ]);
      for (let o = 0; o < OWNERS; o++) await etcd.teardown(Owner.pointer(`owner-${o}`));
      await convergeUntilIdle(runtime, () => etcd.settled());
      for (const kind of KINDS) expect(await etcd.list(kind.kind())).toEqual([]);
    } finally {
      await runtime.stop();
      await etcd.close();
    }

    const actual = await etcdHistory(server.endpoint, prefix);
    expect(actual.size).toBe(OWNERS * (1 + 2 * PER_OWNER));
    expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [key, writes] of expected) expect(actual.get(key), key).toEqual(writes);
    // An owner: created, two finalizers on, torn down, two finalizers off, destroyed.
    expect(actual.get(`${Owner.type}/owner-0`)).toEqual([
      'put',
      'put',
      'put',
      'put',
      'put',
      'put',
      'delete',
    ]);
    expect(actual.get(`${Part.type}/0-000`)).toEqual(['put', 'put', 'delete']);
  });
});
