import type { Watcher } from 'etcd3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ALL_NAMESPACES,
  createEtcdState,
  labelEqual,
  labelExists,
  labelIn,
  labelQuery,
  newResource,
  notMatches,
  type EtcdState,
  type Kind,
  type ListOptions,
  type Pointer,
  type StateEvent,
} from '../../src/index.js';
import { DecodedCache } from '../../src/state-etcd/decoded-cache.js';
import type { CountedKv } from '../../src/state-etcd/etcd-connection.js';
import { KeyLayout } from '../../src/state-etcd/key-layout.js';
import { migrateLegacyLabelIndex } from '../../src/state-etcd/label-index-migration.js';
import { MAX_INDEXED_LABELS } from '../../src/state-etcd/label-index.js';
import { etcdAvailable } from '../support/etcd-server.js';
import { useEtcdClient } from '../support/etcd-client.js';

/**
 * Where the label index lives: apart from the namespaces (`<prefix>/\x7f/...`), so that the
 * watch of every namespace, which etcd sends every change of its range, gets no index key;
 * moved there from the kinds' folders, where earlier versions kept it, when a state is opened.
 */
const VMS: Kind = { namespace: 'lab', type: 'VMs.lab.cosi.dev' };
const HOSTS: Kind = { namespace: 'infra', type: 'Hosts.lab.cosi.dev' };
const vm = (id: string): Pointer => ({ ...VMS, id });
const newVM = (id: string, labels: Record<string, string>) =>
  newResource(vm(id), { cpus: 1 }, { labels });
const ids = (resources: readonly { metadata: { id: string } }[]): string[] =>
  resources.map((r) => r.metadata.id);
const manyLabels = (n: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, `v${i}`]));

/** The VMs every test writes, and the answers to the four kinds of label query over them. */
const LABELS: Record<string, Record<string, string>> = {
  a: { host: 'h1', zone: 'rack 1/2' },
  b: { host: 'h2' },
  c: { host: 'h3', gpu: '' },
  d: {},
  wide: { ...manyLabels(MAX_INDEXED_LABELS), host: 'h1' },
};
const QUERIES: [string, ListOptions, string[]][] = [
  ['host=h1', { labelQueries: [labelQuery(labelEqual('host', 'h1'))] }, ['a', 'wide']],
  ['host in (h2,h3)', { labelQueries: [labelQuery(labelIn('host', ['h2', 'h3']))] }, ['b', 'c']],
  ['gpu', { labelQueries: [labelQuery(labelExists('gpu'))] }, ['c']],
  ['zone=rack 1/2', { labelQueries: [labelQuery(labelEqual('zone', 'rack 1/2'))] }, ['a']],
  [
    'host, host notin (h1)',
    { labelQueries: [labelQuery(labelExists('host'), notMatches(labelIn('host', ['h1'])))] },
    ['b', 'c'],
  ],
  [
    'host notin (h2)',
    { labelQueries: [labelQuery(notMatches(labelIn('host', ['h2'])))] },
    ['a', 'c', 'd', 'wide'],
  ],
];

/** The index keys a state of this version holds for {@link LABELS}, under the kind's folder. */
const EXPECTED_INDEX = [
  'l/gpu//c',
  'l/host/h1/a',
  'l/host/h2/b',
  'l/host/h3/c',
  'l/zone/rack%201%2F2/a',
  'u/wide',
];

describe.skipIf(!etcdAvailable)('where EtcdState keeps its label index', () => {
  vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

  const live = useEtcdClient();
  let serial = 0;
  const states: EtcdState[] = [];

  const freshPrefix = (): string => `/layout/${serial++}`;
  function open(prefix: string): EtcdState {
    const state = createEtcdState({ client: live.client, prefix });
    states.push(state);
    return state;
  }

  afterEach(async () => {
    for (const state of states.splice(0)) await state.close();
    vi.restoreAllMocks();
  });

  async function keysUnder(prefix: string): Promise<string[]> {
    const keys = await live.client.getAll().prefix(prefix).keys();
    return keys.map((key) => key.slice(prefix.length)).sort();
  }

  const folder = (prefix: string, kind: Kind = VMS): string =>
    `${prefix}/${kind.namespace}/${kind.type}/`;
  const indexFolder = (prefix: string, kind: Kind = VMS): string =>
    `${prefix}/\x7f/${kind.namespace}/${kind.type}/`;

  async function writeVMs(state: EtcdState): Promise<void> {
    for (const [id, labels] of Object.entries(LABELS)) await state.create(newVM(id, labels));
    await state.create(newResource({ ...HOSTS, id: 'h1' }, {}, { labels: { rack: 'r1' } }));
  }

  async function expectAnswers(state: EtcdState): Promise<void> {
    for (const [query, options, expected] of QUERIES) {
      expect({ query, ids: ids(await state.list(VMS, options)) }).toEqual({ query, ids: expected });
    }
    const inRack = await state.list(HOSTS, {
      labelQueries: [labelQuery(labelEqual('rack', 'r1'))],
    });
    expect(ids(inRack)).toEqual(['h1']);
  }

  /**
   * The state at `prefix` as an earlier version left it: its index keys in each kind's folder
   * (`l/<key>/<value>/<id>`, `u/<id>`), written here by hand, none apart. One VM's keys are
   * missing (the index is rebuilt from the resources, not copied) and one names a label no
   * resource has (it goes with the others).
   */
  async function toOldLayout(prefix: string): Promise<string[]> {
    await live.client.delete().prefix(`${prefix}/\x7f/`);
    const old = [
      'l/host/h1/a',
      'l/zone/rack%201%2F2/a',
      'l/host/h2/b',
      // c's keys are missing; this one names a label nobody has.
      'l/host/gone/a',
      'u/wide',
    ];
    for (const key of old) await live.client.put(`${folder(prefix)}${key}`).value('');
    await live.client.put(`${folder(prefix, HOSTS)}l/rack/r1/h1`).value('');
    return old;
  }

  it('answers equality, in, exists and notin queries from an index kept apart from the namespaces', async () => {
    const prefix = freshPrefix();
    const state = open(prefix);
    await writeVMs(state);
    await expectAnswers(state);
    expect(await keysUnder(indexFolder(prefix))).toEqual(EXPECTED_INDEX);
    expect(await keysUnder(indexFolder(prefix, HOSTS))).toEqual(['l/rack/r1/h1']);
    // Beside the resources, nothing but them.
    expect((await keysUnder(folder(prefix))).filter((key) => !key.startsWith('r/'))).toEqual([]);
    // Every index key sorts after every namespace's.
    const all = await live.client.getAll().prefix(`${prefix}/`).keys();
    const firstIndex = all.findIndex((key) => key.startsWith(`${prefix}/\x7f/`));
    expect(all.slice(firstIndex).every((key) => key.startsWith(`${prefix}/\x7f/`))).toBe(true);
  });

  /**
   * The changes etcd sends the state's watches from now on, by whether they are of index keys
   * (under `<prefix>/\x7f/` or, as earlier versions kept them, a kind folder's `l/` or `u/`).
   */
  function countWatchEvents(prefix: string): { index: number; other: number } {
    const counts = { index: 0, other: 0 };
    const builder = live.client.watch();
    const prototype = Object.getPrototypeOf(builder) as { watcher: () => Watcher };
    const watcher = prototype.watcher;
    vi.spyOn(prototype, 'watcher').mockImplementation(function (this: unknown) {
      const made = watcher.call(this);
      const count = (kv: { key: Buffer }): void => {
        const key = kv.key.toString();
        if (!key.startsWith(`${prefix}/`)) return;
        const rest = key.slice(prefix.length + 1);
        const index = rest.startsWith('\x7f/') || /^[^/]*\/[^/]*\/[lu]\//.test(rest);
        counts[index ? 'index' : 'other']++;
      };
      made.on('put', count);
      made.on('delete', count);
      return made;
    });
    return counts;
  }

  it('the watch of every namespace gets the changes of the resources and none of their index keys', async () => {
    const prefix = freshPrefix();
    const writer = open(prefix);
    const watcher = open(prefix);
    const counts = countWatchEvents(prefix);
    const seen: StateEvent[] = [];
    await watcher.watchKind({ namespace: ALL_NAMESPACES, type: VMS.type }, (event) => {
      seen.push(event);
    });
    // 10 creates of 3 labels each, 5 updates changing one label, 2 destroys: 17 changes of
    // resources, and 30 + 10 + 6 of index keys in their transactions.
    for (let i = 0; i < 10; i++) {
      await writer.create(newVM(`vm-${i}`, { host: `h${i % 3}`, rack: 'r1', role: 'web' }));
    }
    for (let i = 0; i < 5; i++) {
      await writer.modify(newVM(`vm-${i}`, {}), (draft) => {
        draft.metadata.labels.role = 'db';
      });
    }
    await writer.destroy(vm('vm-8'));
    await writer.destroy(vm('vm-9'));
    await vi.waitFor(() => expect(seen).toHaveLength(17), { timeout: 30_000 });
    await writer.settled();
    await watcher.settled();
    expect(counts).toEqual({ index: 0, other: 17 });
    // The index was written all the same.
    expect(await keysUnder(indexFolder(prefix))).toHaveLength(8 * 3);
  });

  it('the watch of every namespace loses no resource written in one transaction with an unindexed one', async () => {
    // Earlier, its `u/` key came in the transaction's changes between the two resources and
    // after the second's key: the watch took the second for a change it had handed on already,
    // and the values it keeps (which reads are answered from) lacked it.
    const prefix = freshPrefix();
    const writer = open(prefix);
    const watcher = open(prefix);
    const seen: string[] = [];
    await watcher.watchKind({ namespace: ALL_NAMESPACES, type: VMS.type }, (event) => {
      if (event.type === 'created') seen.push(event.resource.metadata.id);
    });
    const before = writer.figures().writes;
    await Promise.all([
      writer.create(newVM('a', manyLabels(MAX_INDEXED_LABELS + 1))),
      writer.create(newVM('b', { host: 'h1' })),
    ]);
    // One transaction.
    expect(writer.figures().writes - before).toBe(1);
    await writer.settled();
    await watcher.settled();
    await vi.waitFor(() => expect(seen).toEqual(['a', 'b']), { timeout: 30_000 });
    expect(ids(await watcher.list(VMS))).toEqual(['a', 'b']);
  });

  it('moves an index an earlier version kept in the kinds folders, rebuilt from the resources, and removes the old keys', async () => {
    const prefix = freshPrefix();
    await writeVMs(open(prefix));
    await toOldLayout(prefix);
    expect(await keysUnder(indexFolder(prefix))).toEqual([]);

    const state = open(prefix);
    await expectAnswers(state);
    expect(await keysUnder(indexFolder(prefix))).toEqual(EXPECTED_INDEX);
    expect(await keysUnder(indexFolder(prefix, HOSTS))).toEqual(['l/rack/r1/h1']);
    for (const kind of [VMS, HOSTS]) {
      const beside = await keysUnder(folder(prefix, kind));
      expect(beside.filter((key) => !key.startsWith('r/'))).toEqual([]);
    }

    // Opened again: nothing left to move, nothing written.
    const again = open(prefix);
    await expectAnswers(again);
    expect(again.figures().writes).toBe(0);
  });

  it('two processes opening an old state at once both move the index, and it ends exact', async () => {
    const prefix = freshPrefix();
    await writeVMs(open(prefix));
    await toOldLayout(prefix);
    const first = open(prefix);
    const second = open(prefix);
    await Promise.all([expectAnswers(first), expectAnswers(second)]);
    expect(await keysUnder(indexFolder(prefix))).toEqual(EXPECTED_INDEX);
    expect((await keysUnder(folder(prefix))).filter((key) => !key.startsWith('r/'))).toEqual([]);
  });

  it('a resource changed while the index is moved is indexed by its labels as they are, never as they were', async () => {
    const prefix = freshPrefix();
    await writeVMs(open(prefix));
    await toOldLayout(prefix);
    const layout = new KeyLayout(prefix);
    const kv = live.client.kv;
    let changed = false;
    // Another writer changes a's labels after the move read it, before its write.
    const racing: CountedKv = {
      range: async (request) => kv.range(request),
      readTxn: async (request) => kv.txn(request),
      put: async (request) => kv.put(request),
      txn: async (request) => {
        // The VMs' first guarded write (the hosts' comes first: `infra` sorts before `lab`).
        const compared = (request.compare ?? []).map((c) => String(c.key));
        if (!changed && compared.some((key) => key.includes('/lab/'))) {
          changed = true;
          const key = `${folder(prefix)}r/a`;
          const stored = JSON.parse((await live.client.get(key).string()) ?? 'null') as {
            metadata: { labels: Record<string, string> };
          };
          stored.metadata.labels = { host: 'h9' };
          await live.client.put(key).value(JSON.stringify(stored));
        }
        return kv.txn(request);
      },
    };
    const decoded = new DecodedCache();
    const moved = await migrateLegacyLabelIndex(racing, layout, (key, found) =>
      decoded.decode(key, found),
    );
    expect(changed).toBe(true);
    expect(moved).toEqual({ kinds: 2, removed: 6 });
    const index = await keysUnder(indexFolder(prefix));
    expect(index).toContain('l/host/h9/a');
    expect(index).not.toContain('l/host/h1/a');
    expect(index).not.toContain('l/zone/rack%201%2F2/a');
  });

  it('states whose prefixes are nested or alike see none of each other keys, and an old layout of one is moved by it alone', async () => {
    const base = freshPrefix();
    const prefixes = [`${base}/a`, `${base}/a.b`, `${base}/a/b`, `${base}/a/b/c`];
    // The nested one as an earlier version left it, before the others are opened.
    const nested = `${base}/a/b`;
    const writer = open(nested);
    await writeVMs(writer);
    await toOldLayout(nested);
    // In namespace `r`: its index key is `a/b/\x7f/r/...`, which `a` reads as a resource key of
    // namespace `b` and type `\x7f` unless it refuses that type.
    await writer.create(
      newResource({ namespace: 'r', type: VMS.type, id: 'in-r' }, {}, { labels: { host: 'h1' } }),
    );
    const oldKeys = await keysUnder(folder(nested));
    const opened = new Map<string, { state: EtcdState; seen: string[] }>();
    for (const prefix of prefixes.filter((p) => p !== nested)) {
      const state = open(prefix);
      const seen: string[] = [];
      await state.watchKind({ namespace: ALL_NAMESPACES, type: VMS.type }, (event) => {
        if (event.type === 'created') seen.push(event.resource.metadata.id);
      });
      opened.set(prefix, { state, seen });
    }
    // `a` (whose namespace `a` is a/b's root) has been opened: a/b's old keys are its own still.
    expect(await keysUnder(folder(nested))).toEqual(oldKeys);
    for (const [prefix, { state }] of opened) {
      const name = prefix.slice(base.length + 1);
      await state.create(newVM(`own-${name}`, { host: 'h1' }));
      await state.create(
        newResource({ ...HOSTS, id: `own-${name}` }, {}, { labels: { rack: 'r1' } }),
      );
    }
    for (const [prefix, { state, seen }] of opened) {
      const name = prefix.slice(base.length + 1);
      const onH1 = await state.list(VMS, { labelQueries: [labelQuery(labelEqual('host', 'h1'))] });
      expect({ prefix, ids: ids(onH1) }).toEqual({ prefix, ids: [`own-${name}`] });
      const everywhere = await state.list({ namespace: ALL_NAMESPACES, type: VMS.type });
      expect({ prefix, ids: ids(everywhere) }).toEqual({ prefix, ids: [`own-${name}`] });
      const kinds = (await state.kinds()).map((k) => `${k.namespace}/${k.type}`).sort();
      expect({ prefix, kinds }).toEqual({
        prefix,
        kinds: [`infra/${HOSTS.type}`, `lab/${VMS.type}`],
      });
      await vi.waitFor(() => expect(seen).toEqual([`own-${name}`]), { timeout: 30_000 });
    }
    // The nested state, opened at last, moves its own index and answers as before.
    const state = open(nested);
    await expectAnswers(state);
    expect(await keysUnder(indexFolder(nested))).toEqual(EXPECTED_INDEX);
    // And the others' answers did not change.
    for (const [prefix, { state: other }] of opened) {
      const name = prefix.slice(base.length + 1);
      const onH1 = await other.list(VMS, { labelQueries: [labelQuery(labelEqual('host', 'h1'))] });
      expect({ prefix, ids: ids(onH1) }).toEqual({ prefix, ids: [`own-${name}`] });
    }
  });

  it('refuses a prefix holding the character that starts the index', () => {
    expect(() => createEtcdState({ client: live.client, prefix: 'a/\x7f' })).toThrow(
      /may not hold the DEL character/,
    );
  });
});
