/**
 * Writes issued together share one etcd transaction (see txn-batcher.ts), so one etcd revision
 * holds several changes. On a real etcd: the batch is one request and one revision; a write whose
 * guard fails fails alone, with the error it had when it went alone, and the others of its batch
 * are applied; watches hand on each change of a shared revision once, also across a reconnect;
 * a bookmark taken in the middle of a revision resumes with the rest of it.
 */
import type { Etcd3 } from 'etcd3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createEtcdState,
  isConflict,
  newResource,
  type EtcdState,
  type Kind,
  type Pointer,
  type ResourceEvent,
  type StateEvent,
} from '../../src/index.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

interface Lamp {
  brightness: number;
}

const LAMPS: Kind = { namespace: 'hall', type: 'Lamps.lights.cosi.dev' };
const lamp = (id: string): Pointer => ({ ...LAMPS, id });
const newLamp = (id: string, brightness = 0) => newResource<Lamp>(lamp(id), { brightness });
const IDS = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'];

/** `created:id@version` lines for resource events; the rest by type. */
function describeEvents(events: readonly StateEvent[]): string[] {
  return events.map((event) =>
    event.type === 'created' || event.type === 'updated' || event.type === 'destroyed'
      ? `${event.type}:${event.resource.metadata.id}@${event.resource.metadata.version}`
      : event.type,
  );
}

const WAIT = { timeout: 45_000, interval: 50 };

describe.skipIf(!etcdAvailable)('writes batched into etcd transactions', () => {
  vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

  let server: EtcdServer;
  const cleanups: (() => Promise<void> | void)[] = [];
  let serial = 0;
  const freshPrefix = (): string => `/batched/${serial++}`;

  async function newClient(): Promise<Etcd3> {
    const { Etcd3: Client } = await import('etcd3');
    const client = new Client({ hosts: [server.endpoint] });
    cleanups.push(() => client.close());
    return client;
  }

  function open(prefix: string, endpoint = server.endpoint): EtcdState {
    const state = createEtcdState({ endpoints: [endpoint], prefix });
    cleanups.push(() => state.close());
    return state;
  }

  /** etcd's mod revision of each lamp's key, by id. */
  async function modRevisions(prefix: string): Promise<Map<string, string>> {
    const client = await newClient();
    const { kvs } = await client.getAll().prefix(`${prefix}/hall/Lamps.lights.cosi.dev/r/`).exec();
    return new Map(
      kvs.map((kv) => [kv.key.toString().split('/').at(-1) as string, kv.mod_revision]),
    );
  }

  beforeAll(async () => {
    server = await startEtcd();
  });
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('writes issued together are one request and one revision', async () => {
    const prefix = freshPrefix();
    const state = open(prefix);
    await state.create(newLamp('warm-up'));
    const before = state.figures();
    await Promise.all(IDS.map((id) => state.create(newLamp(id))));
    expect(state.figures().writes - before.writes).toBe(1);
    // One request, as many resource writes as there were writes.
    expect(state.figures().resourceWrites - before.resourceWrites).toBe(IDS.length);
    const revisions = await modRevisions(prefix);
    const batch = new Set(IDS.map((id) => revisions.get(id)));
    expect(batch.size).toBe(1);
    expect(batch.has(revisions.get('warm-up'))).toBe(false);
  });

  it('a write whose guard fails fails alone, as it would alone; the rest of its batch is applied', async () => {
    const prefix = freshPrefix();
    const state = open(prefix);
    const other = open(prefix);
    await Promise.all(IDS.map((id) => state.create(newLamp(id))));
    // Another writer changes `c` behind this state's back: this state's last sight of it is stale.
    await other.modify(newLamp('c'), (draft) => {
      draft.spec.brightness = 99;
    });
    const results = await Promise.allSettled([
      ...IDS.map((id) => {
        // An update of version 1 (as read before the other writer came).
        const draft = newLamp(id, 1);
        draft.metadata.version = 1;
        return state.update(draft);
      }),
      // A create of a taken key in the same batch: refused as `exists`, the rest unharmed.
      state.create(newLamp('a')),
      state.create(newLamp('new')),
    ]);
    const failed = results.flatMap((result, i) => (result.status === 'rejected' ? [i] : []));
    expect(failed).toEqual([IDS.indexOf('c'), IDS.length]);
    const stale = results[IDS.indexOf('c')] as PromiseRejectedResult;
    expect(isConflict(stale.reason)).toBe(true);
    expect((stale.reason as { reason: string }).reason).toBe('version');
    const taken = results[IDS.length] as PromiseRejectedResult;
    expect((taken.reason as { reason: string }).reason).toBe('exists');

    const reader = open(prefix);
    for (const id of IDS) {
      const stored = await reader.get<Lamp>(lamp(id));
      expect([id, stored.spec.brightness, stored.metadata.version]).toEqual(
        id === 'c' ? [id, 99, 2] : [id, 1, 2],
      );
    }
    expect((await reader.get(lamp('new'))).metadata.version).toBe(1);
  });

  it('a watch hands on every change of a shared revision once, in key order', async () => {
    const prefix = freshPrefix();
    const state = open(prefix);
    const seen: StateEvent[] = [];
    await state.watchKind(LAMPS, (event) => seen.push(event));
    const ids = [...IDS].reverse();
    await Promise.all(ids.map((id) => state.create(newLamp(id))));
    await state.settled();
    expect(describeEvents(seen)).toEqual(IDS.map((id) => `created:${id}@1`));
  });

  it('a bookmark in the middle of a revision resumes with the rest of it, by kind and by key', async () => {
    const prefix = freshPrefix();
    const state = open(prefix);
    const seen: ResourceEvent[] = [];
    await state.watchKind(LAMPS, (event) => {
      if (event.type === 'created' || event.type === 'updated') seen.push(event);
    });
    await Promise.all(IDS.map((id) => state.create(newLamp(id))));
    await state.settled();
    const middle = seen[IDS.indexOf('c')] as ResourceEvent;
    expect(middle.resource.metadata.id).toBe('c');
    // Changes after the batch, in a later revision.
    await state.modify(newLamp('b'), (draft) => {
      draft.spec.brightness = 5;
    });

    const resumed = open(prefix);
    const after: StateEvent[] = [];
    await resumed.watchKind(LAMPS, (event) => after.push(event), {
      startFromBookmark: middle.bookmark as string,
    });
    await vi.waitFor(() => expect(describeEvents(after)).toContain('updated:b@2'), WAIT);
    expect(describeEvents(after)).toEqual([
      ...IDS.slice(IDS.indexOf('c') + 1).map((id) => `created:${id}@1`),
      'updated:b@2',
    ]);

    // One key's watch from the same bookmark: `a` came before it, `e` after it.
    const byKey = (id: string): Promise<StateEvent[]> => {
      const events: StateEvent[] = [];
      return resumed
        .watch(lamp(id), (event) => events.push(event), {
          startFromBookmark: middle.bookmark as string,
        })
        .then(() => events);
    };
    const [eventsOfA, eventsOfE] = await Promise.all([byKey('a'), byKey('e')]);
    await state.modify(newLamp('a'), (draft) => {
      draft.spec.brightness = 7;
    });
    await vi.waitFor(() => expect(describeEvents(eventsOfA)).toEqual(['updated:a@2']), WAIT);
    expect(describeEvents(eventsOfE)).toEqual(['created:e@1']);
  });

  describe('through a connection that drops', () => {
    let proxy: TcpProxy;
    beforeAll(async () => {
      proxy = await startTcpProxy(server.endpoint);
    });
    afterEach(() => {
      proxy.restore();
    });
    afterAll(async () => {
      await proxy.close();
    });

    it('a watch resumed after a shared revision repeats none of it and loses nothing after', async () => {
      const prefix = freshPrefix();
      const writer = open(prefix);
      const watcher = open(prefix, proxy.endpoint);
      const seen: StateEvent[] = [];
      await watcher.watchKind(LAMPS, (event) => seen.push(event));
      await Promise.all(IDS.map((id) => writer.create(newLamp(id))));
      await vi.waitFor(() => expect(seen).toHaveLength(IDS.length), WAIT);

      proxy.cut();
      await Promise.all(
        ['b', 'f'].map((id) =>
          writer.modify(newLamp(id), (draft) => {
            draft.spec.brightness = 1;
          }),
        ),
      );
      proxy.restore();
      await writer.create(newLamp('zz-last'));
      await vi.waitFor(() => expect(describeEvents(seen)).toContain('created:zz-last@1'), WAIT);
      expect(describeEvents(seen)).toEqual([
        ...IDS.map((id) => `created:${id}@1`),
        'updated:b@2',
        'updated:f@2',
        'created:zz-last@1',
      ]);
    });
  });
});
