import type { Etcd3 } from 'etcd3';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createEtcdState,
  isBufferOverrun,
  isConflict,
  isHistoryCompacted,
  isInvalidBookmark,
  newResource,
  ALL_NAMESPACES,
  type EtcdState,
  type Kind,
  type OwnerReference,
  type Pointer,
  type Resource,
  type StateEvent,
} from '../../src/index.js';
import { LIST_PAGE_SIZE } from '../../src/state-etcd/etcd-state.js';
import { KeyLayout } from '../../src/state-etcd/key-layout.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';

interface Lamp {
  brightness: number;
}

const LAMPS: Kind = { namespace: 'hall', type: 'Lamps.lights.cosi.dev' };
const lamp = (id: string): Pointer => ({ ...LAMPS, id });
const newLamp = (id: string, brightness = 0) => newResource<Lamp>(lamp(id), { brightness });

/** `created:id@version`-style lines for resource events; the rest by type. */
function describeEvents(events: readonly StateEvent[]): string[] {
  return events.map((event) =>
    event.type === 'created' || event.type === 'updated' || event.type === 'destroyed'
      ? `${event.type}:${event.resource.metadata.id}@${event.resource.metadata.version}`
      : event.type,
  );
}

/** How long a test waits for a condition that a reconnect must bring about. */
const RECONNECT_TIMEOUT = { timeout: 45_000, interval: 50 };

describe.skipIf(!etcdAvailable)('EtcdState on a real etcd', () => {
  // A real etcd on a machine shared with other test runs: round trips may be slow.
  vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

  let server: EtcdServer;
  /** Everything a test opened, closed after it. */
  const cleanups: (() => Promise<void> | void)[] = [];
  let serial = 0;
  const freshPrefix = (): string => `/lamps/${serial++}`;

  async function newClient(endpoint = server.endpoint): Promise<Etcd3> {
    const { Etcd3: Client } = await import('etcd3');
    const client = new Client({ hosts: [endpoint] });
    cleanups.push(() => client.close());
    return client;
  }

  function open(prefix: string, options: { client?: Etcd3; endpoint?: string } = {}): EtcdState {
    const state = options.client
      ? createEtcdState({ client: options.client, prefix })
      : createEtcdState({ endpoints: [options.endpoint ?? server.endpoint], prefix });
    cleanups.push(() => state.close());
    return state;
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

  it('lays resources out by namespace, type and id under its prefix, as JSON with their metadata', async () => {
    const prefix = freshPrefix();
    const state = open(prefix);
    await state.create(newLamp('porch', 3), { owner: 'installer' });
    const client = await newClient();
    const stored = JSON.parse(
      (await client.get(`${prefix}/hall/Lamps.lights.cosi.dev/r/porch`).string()) ?? 'null',
    ) as { metadata: Record<string, unknown>; spec: unknown };
    expect(stored.spec).toEqual({ brightness: 3 });
    expect(stored.metadata).toMatchObject({ id: 'porch', version: 1, owner: 'installer' });
    expect(await state.kinds()).toEqual([LAMPS]);

    // A tail replay writes the kind's marker key: neither a kind nor a resource for anyone.
    const empty: Kind = { namespace: 'hall', type: 'Fans.lights.cosi.dev' };
    const controller = new AbortController();
    await state.watchKind(empty, () => undefined, { tailEvents: 5, signal: controller.signal });
    await state.watchKind(LAMPS, () => undefined, { tailEvents: 5, signal: controller.signal });
    controller.abort();
    expect(await state.kinds()).toEqual([LAMPS]);
    expect((await state.list(LAMPS)).map((r) => r.metadata.id)).toEqual(['porch']);
  });

  it('keeps the applied set with the label and annotation keys, the owners and the kept spec fields of each manifest', async () => {
    const state = open(freshPrefix());
    expect(await state.readAppliedSet()).toBeUndefined();
    const owner = { type: 'Switches.lights.cosi.dev', id: 'hall/1' };
    // As a manifest's metadata has it: only the owner it names is recorded.
    const reference: OwnerReference = { ...owner, controller: true };
    await state.writeAppliedSet([
      { ...lamp('a'), labels: { team: 'x' }, annotations: { note: 'y' } },
      { ...lamp('b'), labels: {}, annotations: {}, ownerReferences: [] },
      lamp('c'),
      {
        ...lamp('d'),
        labels: {},
        annotations: {},
        ownerReferences: [reference],
      },
      { ...lamp('e'), labels: { team: 'x' }, specFields: ['status'] },
    ]);
    expect(await state.readAppliedSet()).toEqual([
      { ...lamp('a'), labels: ['team'], annotations: ['note'] },
      lamp('b'),
      lamp('c'),
      { ...lamp('d'), labels: [], annotations: [], ownerReferences: [owner] },
      {
        ...lamp('e'),
        labels: ['team'],
        annotations: [],
        ownerReferences: [],
        specFields: ['status'],
      },
    ]);
  });

  it('lists a kind in pages read at one revision, and a kind larger than 4 MB (the gRPC default)', async () => {
    const prefix = freshPrefix();
    const state = open(prefix);
    // More than two pages of small resources, listed whole and in order.
    const many = 2 * LIST_PAGE_SIZE + 20;
    for (let i = 0; i < many; i += 100) {
      await Promise.all(
        [...Array(Math.min(100, many - i)).keys()].map((j) =>
          state.create(newLamp(`m${String(i + j).padStart(4, '0')}`, i + j)),
        ),
      );
    }
    const listed = await state.list<Lamp>(LAMPS);
    expect(listed.map((r) => r.spec.brightness)).toEqual([...Array(many).keys()]);

    // 30 resources of 200 kB in one page: 6 MB, more than a default gRPC client accepts.
    const big: Kind = { namespace: 'hall', type: 'Signs.lights.cosi.dev' };
    const label = 'x'.repeat(200_000);
    for (let i = 0; i < 30; i++) {
      await state.create(
        newResource({ ...big, id: `s${String(i).padStart(2, '0')}` }, { label, i }),
      );
    }
    expect((await state.list<{ i: number }>(big)).map((r) => r.spec.i)).toEqual([
      ...Array(30).keys(),
    ]);
  });

  it('two writers on the same prefix conflict on the version exactly as in memory', async () => {
    const prefix = freshPrefix();
    const first = open(prefix);
    const second = open(prefix);
    await first.create(newLamp('porch'));
    const seenByFirst = await first.get<Lamp>(lamp('porch'));
    const seenBySecond = await second.get<Lamp>(lamp('porch'));

    await first.update({ ...seenByFirst, spec: { brightness: 1 } });
    const error = await second
      .update({ ...seenBySecond, spec: { brightness: 2 } })
      .catch((e: unknown) => e);
    expect(isConflict(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'version' });
    expect((await second.get<Lamp>(lamp('porch'))).spec).toEqual({ brightness: 1 });

    // Racing creates: exactly one wins, the other is told the id is taken.
    const creates = await Promise.allSettled([
      first.create(newLamp('attic')),
      second.create(newLamp('attic')),
    ]);
    expect(creates.filter((c) => c.status === 'fulfilled')).toHaveLength(1);
    const [lost] = creates.filter((c) => c.status === 'rejected');
    expect(lost?.reason).toMatchObject({ code: 'conflict', reason: 'exists' });

    // Racing read-modify-writes: every one lands, none is lost to the other writer.
    const bump = async (state: EtcdState): Promise<void> => {
      for (let i = 0; i < 10; i++) {
        await state.updateWithConflicts<Lamp>(lamp('attic'), (draft) => {
          draft.spec.brightness += 1;
        });
      }
    };
    await Promise.all([bump(first), bump(second)]);
    const attic = await first.get<Lamp>(lamp('attic'));
    expect(attic.spec.brightness).toBe(20);
    expect(attic.metadata.version).toBe(21);
  });

  it('a watch resumed from a bookmark by another client delivers exactly the changes after it', async () => {
    const prefix = freshPrefix();
    const writer = open(prefix);
    const watcher = open(prefix);
    const seen: StateEvent[] = [];
    await watcher.watchKind(LAMPS, (event) => seen.push(event), { bootstrap: true });
    await writer.create(newLamp('porch'));
    await writer.modify(newLamp('porch'), (draft) => {
      draft.spec.brightness = 5;
    });
    await vi.waitFor(() => expect(seen).toHaveLength(3), RECONNECT_TIMEOUT);
    await watcher.close();

    // While nobody watches: more changes.
    await writer.create(newLamp('attic'));
    await writer.teardownAndDestroy(lamp('porch'));

    const last = seen.at(-1) as { bookmark?: string };
    expect(typeof last.bookmark).toBe('string');
    const resumed: StateEvent[] = [];
    const again = open(prefix, { client: await newClient() });
    await again.watchKind(LAMPS, (event) => resumed.push(event), {
      startFromBookmark: last.bookmark as string,
    });
    await writer.create(newLamp('cellar'));
    await vi.waitFor(() => expect(resumed.length).toBeGreaterThanOrEqual(4), RECONNECT_TIMEOUT);
    expect(describeEvents(resumed)).toEqual([
      'created:attic@1',
      'updated:porch@3',
      'destroyed:porch@3',
      'created:cellar@1',
    ]);
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

    it('a live watch resumes after the client reconnects, losing and repeating nothing', async () => {
      const prefix = freshPrefix();
      const writer = open(prefix);
      const watcher = open(prefix, { endpoint: proxy.endpoint });
      const seen: StateEvent[] = [];
      await watcher.watchKind(LAMPS, (event) => seen.push(event));
      await writer.create(newLamp('porch'));
      await vi.waitFor(() => expect(seen).toHaveLength(1), RECONNECT_TIMEOUT);

      proxy.cut();
      for (let i = 1; i <= 5; i++) {
        await writer.modify(newLamp('porch'), (draft) => {
          draft.spec.brightness = i;
        });
      }
      await writer.create(newLamp('attic'));
      proxy.restore();
      // The last change is the marker: once it arrives, anything repeated would have come before.
      await writer.create(newLamp('zz-last'));
      await vi.waitFor(
        () => expect(describeEvents(seen)).toContain('created:zz-last@1'),
        RECONNECT_TIMEOUT,
      );
      expect(describeEvents(seen)).toEqual([
        'created:porch@1',
        'updated:porch@2',
        'updated:porch@3',
        'updated:porch@4',
        'updated:porch@5',
        'updated:porch@6',
        'created:attic@1',
        'created:zz-last@1',
      ]);
    });

    it('a watch whose unread history was compacted away while cut off ends with errored', async () => {
      const prefix = freshPrefix();
      const writer = open(prefix);
      const watcher = open(prefix, { endpoint: proxy.endpoint });
      const seen: StateEvent[] = [];
      await watcher.watchKind(LAMPS, (event) => seen.push(event));
      await writer.create(newLamp('porch'));
      await vi.waitFor(() => expect(seen).toHaveLength(1), RECONNECT_TIMEOUT);

      proxy.cut();
      // Compacting at the last of two changes removes the first, where the watch resumes.
      for (let i = 1; i <= 2; i++) {
        await writer.modify(newLamp('porch'), (draft) => {
          draft.spec.brightness = i;
        });
      }
      const client = await newClient();
      const { header } = await client.kv.range({ key: Buffer.from(prefix), count_only: true });
      await client.kv.compact({ revision: header.revision, physical: true });
      proxy.restore();

      await vi.waitFor(() => expect(seen.at(-1)?.type).toBe('errored'), RECONNECT_TIMEOUT);
      const ended = seen.at(-1) as { type: 'errored'; error: Error };
      expect(isHistoryCompacted(ended.error)).toBe(true);
      expect(describeEvents(seen)).toEqual(['created:porch@1', 'errored']);
    });

    it('a watch cut off after its last change resumes after it: a compaction of that revision loses it nothing', async () => {
      const prefix = freshPrefix();
      const writer = open(prefix);
      const watcher = open(prefix, { endpoint: proxy.endpoint });
      const seen: StateEvent[] = [];
      await watcher.watchKind(LAMPS, (event) => seen.push(event));
      await writer.create(newLamp('porch'));
      await vi.waitFor(() => expect(seen).toHaveLength(1), RECONNECT_TIMEOUT);

      proxy.cut();
      // A change elsewhere moves etcd on one revision; compacting there removes only the
      // revision of the porch's creation, which the watch has handed on whole already.
      await open(freshPrefix()).create(newLamp('elsewhere'));
      const client = await newClient();
      const { header } = await client.kv.range({ key: Buffer.from(prefix), count_only: true });
      await client.kv.compact({ revision: header.revision, physical: true });
      proxy.restore();

      await writer.create(newLamp('zz-last'));
      await vi.waitFor(
        () => expect(describeEvents(seen).at(-1)).toMatch(/created:zz-last@1|errored/),
        RECONNECT_TIMEOUT,
      );
      expect(describeEvents(seen)).toEqual(['created:porch@1', 'created:zz-last@1']);
    });
  });

  it('a list of every namespace reads the type in each namespace, not every key of the state', async () => {
    const prefix = freshPrefix();
    const client = await newClient();
    const state = open(prefix, { client });
    for (const namespace of ['hall', 'garden', 'attic']) {
      for (const id of ['a', 'b']) {
        await state.create(
          newResource<Lamp>({ namespace, type: LAMPS.type, id }, { brightness: 1 }),
        );
      }
    }
    // Keys of another type, many pages of them, in a namespace of their own and in the hall.
    const OTHERS = 3 * LIST_PAGE_SIZE;
    for (let i = 0; i < OTHERS; i += 100) {
      await Promise.all(
        Array.from({ length: 100 }, async (_, j) =>
          client
            .put(
              `${prefix}/${i + j < OTHERS / 2 ? 'hall' : 'shed'}/Fans.lights.cosi.dev/r/f${i + j}`,
            )
            .value('{}'),
        ),
      );
    }
    let keysRead = 0;
    const range = client.kv.range.bind(client.kv);
    client.kv.range = async (...args: Parameters<typeof range>) => {
      const response = await range(...args);
      keysRead += response.kvs.length;
      return response;
    };
    const listed = await state.list({ namespace: ALL_NAMESPACES, type: LAMPS.type });
    expect(listed.map((r) => `${r.metadata.namespace}/${r.metadata.id}`)).toEqual([
      'attic/a',
      'attic/b',
      'garden/a',
      'garden/b',
      'hall/a',
      'hall/b',
    ]);
    // A first page of keys (all of a small state's), then one key to find each namespace, and
    // the six lamps: not the fans' three pages, however many more there are.
    expect(keysRead).toBeLessThan(LIST_PAGE_SIZE + 20);
  });

  it('a watch keeps the values it lists: its updates and destroys cost etcd no read of the value before', async () => {
    // etcd reads a key's previous value from its backend for every event of a watch that asks
    // (prev_kv): under a converging project that was half of etcd's CPU. The watch knows them.
    const prefix = freshPrefix();
    const state = open(prefix);
    // Two lamps written before the watch starts: it learns them from its start, not an event.
    const stored = new Map<string, Resource>();
    for (const id of ['porch', 'attic']) stored.set(id, await state.create(newLamp(id, 0)));
    const seen: StateEvent[] = [];
    await state.watchKind(LAMPS, (event) => seen.push(event));
    // Written by a bare client, with plain puts and a delete: etcd reads nothing for them.
    const client = await newClient();
    const key = (id: string): string => `${prefix}/hall/${LAMPS.type}/r/${id}`;
    const ranges = async (): Promise<number> => {
      const text = await (await fetch(`${server.endpoint}/metrics`)).text();
      return Number(/^etcd_mvcc_range_total (\d+)$/m.exec(text)?.[1]);
    };
    const before = await ranges();
    const UPDATES = 20;
    for (let i = 1; i <= UPDATES; i++) {
      const id = i % 2 === 0 ? 'porch' : 'attic';
      const old = stored.get(id) as Resource;
      const next = {
        metadata: { ...old.metadata, version: old.metadata.version + 1 },
        spec: { brightness: i },
      } as Resource;
      stored.set(id, next);
      await client.put(key(id)).value(JSON.stringify(next));
    }
    await client.delete().key(key('attic'));
    await vi.waitFor(() => expect(seen).toHaveLength(UPDATES + 1), RECONNECT_TIMEOUT);
    const read = (await ranges()) - before;
    // Each update and the destroy carry what they replaced, as in memory.
    const described = seen.map((event) =>
      event.type === 'updated'
        ? `${event.resource.metadata.id} ${(event.old.spec as Lamp).brightness}->${(event.resource.spec as Lamp).brightness}`
        : `${event.type} ${(event as { resource: Resource }).resource.metadata.id} ${((event as { resource: Resource }).resource.spec as Lamp).brightness}`,
    );
    expect(described.slice(0, 3)).toEqual(['attic 0->1', 'porch 0->2', 'attic 1->3']);
    expect(described.at(-2)).toBe('porch 18->20');
    expect(described.at(-1)).toBe('destroyed attic 19');
    // A watch that asked etcd for the previous values cost it a read per event (21 here).
    expect(read).toBe(0);
  });

  it('a watch of every namespace keeps the values it lists: its updates and destroys cost etcd no read either', async () => {
    // Such watches share one etcd watch of the whole state: one that asked for previous values
    // would make etcd read one for every change of every type.
    const prefix = freshPrefix();
    const state = open(prefix);
    const inCellar = (id: string, brightness: number): Resource =>
      newResource<Lamp>({ namespace: 'cellar', type: LAMPS.type, id }, { brightness });
    await state.create(newLamp('porch', 0));
    await state.create(inCellar('vault', 0));
    const seen: StateEvent[] = [];
    // Filtered by id: the watch still lists the whole type to know every value.
    await state.watchKind(
      { namespace: ALL_NAMESPACES, type: LAMPS.type },
      (event) => seen.push(event),
      {
        bootstrap: true,
        idQuery: { regexp: /^(porch|vault)$/ },
      },
    );
    await vi.waitFor(
      () => expect(seen.map((e) => e.type)).toContain('bootstrapped'),
      RECONNECT_TIMEOUT,
    );
    const ranges = async (): Promise<number> => {
      const text = await (await fetch(`${server.endpoint}/metrics`)).text();
      return Number(/^etcd_mvcc_range_total (\d+)$/m.exec(text)?.[1]);
    };
    const client = await newClient();
    const before = await ranges();
    for (const [namespace, id] of [
      ['hall', 'porch'],
      ['cellar', 'vault'],
    ] as const) {
      const key = `${prefix}/${namespace}/${LAMPS.type}/r/${id}`;
      const old = JSON.parse((await client.get(key).string()) ?? 'null') as Resource;
      const next = {
        metadata: { ...old.metadata, version: old.metadata.version + 1 },
        spec: { brightness: 7 },
      };
      await client.put(key).value(JSON.stringify(next));
    }
    await client.delete().key(`${prefix}/cellar/${LAMPS.type}/r/vault`);
    await vi.waitFor(() => expect(seen).toHaveLength(6), RECONNECT_TIMEOUT);
    const described = seen.map((event) =>
      event.type === 'updated'
        ? `${event.resource.metadata.namespace}/${event.resource.metadata.id} ${(event.old.spec as Lamp).brightness}->${(event.resource.spec as Lamp).brightness}`
        : event.type === 'bootstrapped'
          ? 'bootstrapped'
          : `${event.type} ${(event as { resource: Resource }).resource.metadata.id}`,
    );
    expect(described).toEqual([
      'created vault',
      'created porch',
      'bootstrapped',
      'hall/porch 0->7',
      'cellar/vault 0->7',
      'destroyed vault',
    ]);
    // The test's own two reads only: a watch that asked for previous values cost one per event.
    expect((await ranges()) - before).toBe(2);
  });

  it('watches of every namespace of several types read the key of each change once, and hand it to its type only', async () => {
    // They share one etcd watch of the whole state, which gets every change of every type: the
    // builder watches three types so on a converging project, and each parsed every key.
    const prefix = freshPrefix();
    const state = open(prefix);
    const types = ['Lamps.lights.cosi.dev', 'Doors.lights.cosi.dev', 'Fans.lights.cosi.dev'];
    const seen = new Map<string, string[]>(types.map((type) => [type, []]));
    for (const type of types) {
      await state.watchKind({ namespace: ALL_NAMESPACES, type }, (event) => {
        if (event.type === 'created') seen.get(type)?.push(event.resource.metadata.id);
      });
    }
    const parsed = vi.spyOn(KeyLayout.prototype, 'parseKind');
    cleanups.push(() => parsed.mockRestore());
    const lamps = ['attic', 'cellar', 'porch', 'yard'];
    for (const [i, id] of lamps.entries()) {
      await state.create(
        newResource<Lamp>(
          { namespace: i % 2 === 0 ? 'hall' : 'cellar', type: LAMPS.type, id },
          {
            brightness: i,
          },
        ),
      );
    }
    await state.create(
      newResource({ namespace: 'hall', type: 'Fans.lights.cosi.dev', id: 'ceiling' }, {}),
    );
    await vi.waitFor(
      () => expect(seen.get('Fans.lights.cosi.dev')).toEqual(['ceiling']),
      RECONNECT_TIMEOUT,
    );
    await vi.waitFor(() => expect(seen.get(LAMPS.type)).toEqual(lamps), RECONNECT_TIMEOUT);
    expect(seen.get('Doors.lights.cosi.dev')).toEqual([]);
    // One parse per change (five), not one per change and watch (fifteen).
    expect(parsed).toHaveBeenCalledTimes(5);
  });

  it('a watch keeps what it listed by the key it read it from, whatever id the value names', async () => {
    // Written by hand under another key than its id names: the watch still knows its value
    // before a change (it used to end with "no value of it before revision ...").
    const prefix = freshPrefix();
    const state = open(prefix);
    const client = await newClient();
    const key = (id: string): string => `${prefix}/hall/${LAMPS.type}/r/${id}`;
    // A resource cosi wrote, moved by hand under another key.
    await state.create(newLamp('elsewhere', 1));
    const stored = JSON.parse((await client.get(key('elsewhere')).string()) ?? 'null') as {
      metadata: Record<string, unknown>;
      spec: Lamp;
    };
    await client.delete().key(key('elsewhere'));
    const value = (brightness: number, version: number): string =>
      JSON.stringify({ metadata: { ...stored.metadata, version }, spec: { brightness } });
    await client.put(key('porch')).value(value(1, 1));
    const seen: StateEvent[] = [];
    await state.watchKind(LAMPS, (event) => seen.push(event));
    await client.put(key('porch')).value(value(2, 2));
    await vi.waitFor(() => expect(seen).toHaveLength(1), RECONNECT_TIMEOUT);
    const event = seen[0] as StateEvent;
    expect(event.type).toBe('updated');
    const update = event as { old: Resource; resource: Resource };
    expect((update.old.spec as Lamp).brightness).toBe(1);
    expect((update.resource.spec as Lamp).brightness).toBe(2);
  });

  it('ends the watch of a listener that falls more than the buffer behind with errored', async () => {
    const prefix = freshPrefix();
    const state = createEtcdState({ endpoints: [server.endpoint], prefix, bufferCapacity: 3 });
    cleanups.push(() => state.close());
    const seen: StateEvent[] = [];
    // The first event's promise holds the listener: everything after it piles up meanwhile.
    let release = (): void => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await state.watchKind(LAMPS, (event) => {
      seen.push(event);
      return seen.length === 1 ? held : undefined;
    });
    for (let i = 0; i < 5; i++) await state.create(newLamp(`lamp-${i}`));
    await state.settled();
    release();
    await vi.waitFor(() => expect(seen.at(-1)?.type).toBe('errored'), RECONNECT_TIMEOUT);
    expect(describeEvents(seen)).toEqual(['created:lamp-0@1', 'errored']);
    expect(isBufferOverrun((seen.at(-1) as { error: Error }).error)).toBe(true);

    // A bootstrap larger than the buffer is not a lag: only changes count.
    const bootstrapped: StateEvent[] = [];
    await state.watchKind(LAMPS, (event) => bootstrapped.push(event), { bootstrap: true });
    await vi.waitFor(() => expect(bootstrapped).toHaveLength(6), RECONNECT_TIMEOUT);
    expect(bootstrapped.map((event) => event.type)).toEqual([
      ...Array<string>(5).fill('created'),
      'bootstrapped',
    ]);
  });

  it('refuses to resume from a bookmark whose history was compacted', async () => {
    const prefix = freshPrefix();
    const state = open(prefix);
    const seen: StateEvent[] = [];
    await state.watchKind(LAMPS, (event) => seen.push(event), { bootstrapBookmark: true });
    await state.create(newLamp('porch'));
    await state.settled();
    await vi.waitFor(() => expect(seen).toHaveLength(2), RECONNECT_TIMEOUT);
    const bookmark = (seen[0] as { bookmark: string }).bookmark;
    await state.modify(newLamp('porch'), (draft) => {
      draft.spec.brightness = 1;
    });
    const client = await newClient();
    const { header } = await client.kv.range({ key: Buffer.from(prefix), count_only: true });
    await client.kv.compact({ revision: header.revision, physical: true });

    const error = await state
      .watchKind(LAMPS, () => undefined, { startFromBookmark: bookmark })
      .catch((e: unknown) => e);
    expect(isInvalidBookmark(error)).toBe(true);

    // A tail replays what compaction left that can be told in full: the change at the
    // compaction revision lost its previous value, the ones after it did not.
    await state.create(newLamp('attic'));
    const tail: StateEvent[] = [];
    await state.watchKind(LAMPS, (event) => tail.push(event), { tailEvents: 10 });
    await vi.waitFor(() => expect(tail).toHaveLength(1), RECONNECT_TIMEOUT);
    expect(describeEvents(tail)).toEqual(['created:attic@1']);
  });

  it('a live watch goes on across a restart of etcd, losing and repeating nothing', async () => {
    const own = await startEtcd();
    cleanups.push(() => own.stop());
    const prefix = freshPrefix();
    const state = open(prefix, { endpoint: own.endpoint });
    const seen: StateEvent[] = [];
    await state.watch(lamp('porch'), (event) => seen.push(event));
    await state.create(newLamp('porch'));
    await state.settled();

    await own.restart();
    // The client finds etcd again on its own; its first writes may fail while it does.
    await vi.waitFor(async () => {
      await state.modify(newLamp('porch'), (draft) => {
        draft.spec.brightness = 1;
      });
    }, RECONNECT_TIMEOUT);
    await state.modify(newLamp('porch'), (draft) => {
      draft.spec.brightness = 2;
    });
    await vi.waitFor(() => expect(seen.length).toBeGreaterThanOrEqual(4), RECONNECT_TIMEOUT);
    await state.settled();
    expect(describeEvents(seen)).toEqual([
      'destroyed:porch@0',
      'created:porch@1',
      'updated:porch@2',
      'updated:porch@3',
    ]);
  });
});
