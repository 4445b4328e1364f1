import type { IRangeRequest, ITxnRequest } from 'etcd3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createEtcdState,
  labelEqual,
  labelExists,
  labelIn,
  labelQuery,
  newResource,
  type EtcdState,
  type Kind,
  type Pointer,
} from '../../src/index.js';
import { LIST_PAGE_SIZE } from '../../src/state-etcd/etcd-state.js';
import { MAX_INDEXED_LABELS } from '../../src/state-etcd/label-index.js';
import { etcdAvailable } from '../support/etcd-server.js';
import { useEtcdClient } from '../support/etcd-client.js';

const VMS: Kind = { namespace: 'lab', type: 'VMs.lab.cosi.dev' };
const vm = (id: string): Pointer => ({ ...VMS, id });
const newVM = (id: string, labels: Record<string, string>) =>
  newResource(vm(id), { cpus: 1 }, { labels });
const ids = (resources: readonly { metadata: { id: string } }[]): string[] =>
  resources.map((r) => r.metadata.id);
const manyLabels = (n: number): Record<string, string> =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, `v${i}`]));

describe.skipIf(!etcdAvailable)('the label index of EtcdState', () => {
  vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

  const live = useEtcdClient();
  let serial = 0;
  const states: EtcdState[] = [];

  function open(): { state: EtcdState; prefix: string } {
    const prefix = `/index/${serial++}`;
    const state = createEtcdState({ client: live.client, prefix });
    states.push(state);
    return { state, prefix };
  }

  /**
   * The index keys of the kind under a state's prefix, without the prefix and the index folder;
   * and none in the kind's own folder, beside its resources.
   */
  async function indexKeys(prefix: string): Promise<string[]> {
    const folder = `${prefix}/lab/VMs.lab.cosi.dev/`;
    const beside = await live.client.getAll().prefix(folder).keys();
    expect(beside.filter((key) => !key.startsWith(`${folder}r/`))).toEqual([]);
    const index = `${prefix}/\x7f/lab/VMs.lab.cosi.dev/`;
    const keys = await live.client.getAll().prefix(index).keys();
    return keys.map((key) => key.slice(index.length)).sort();
  }

  /** Every range request the client makes from now on (until the test ends). */
  function recordRanges(): IRangeRequest[] {
    const ranges: IRangeRequest[] = [];
    const range = live.client.kv.range.bind(live.client.kv);
    vi.spyOn(live.client.kv, 'range').mockImplementation((request, options) => {
      ranges.push(request);
      return range(request, options);
    });
    return ranges;
  }

  /** The transactions the state sends from now on. */
  function recordTxns(): ITxnRequest[] {
    const txns: ITxnRequest[] = [];
    const txn = live.client.kv.txn.bind(live.client.kv);
    vi.spyOn(live.client.kv, 'txn').mockImplementation((request, options) => {
      txns.push(request);
      return txn(request, options);
    });
    return txns;
  }

  afterEach(async () => {
    for (const state of states.splice(0)) await state.close();
    vi.restoreAllMocks();
  });

  it('keeps a key per label in step with every write, in the same transaction', async () => {
    const { state, prefix } = open();
    await state.create(newVM('a', { host: 'h1', zone: 'rack 1/2' }));
    expect(await indexKeys(prefix)).toEqual(['l/host/h1/a', 'l/zone/rack%201%2F2/a']);

    await state.modify(newVM('a', {}), (draft) => {
      draft.metadata.labels.host = 'h2';
      delete draft.metadata.labels.zone;
      draft.metadata.labels.gpu = '';
    });
    expect(await indexKeys(prefix)).toEqual(['l/gpu//a', 'l/host/h2/a']);

    // A write that leaves the labels alone touches no index key.
    await state.modify(newVM('a', {}), (draft) => {
      draft.spec = { cpus: 4 };
    });
    expect(await indexKeys(prefix)).toEqual(['l/gpu//a', 'l/host/h2/a']);

    await state.destroy(vm('a'));
    expect(await indexKeys(prefix)).toEqual([]);
  });

  it('answers a label query from the index and the resources it names, never reading the kind', async () => {
    const { state } = open();
    for (let i = 0; i < 40; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          state.create(newVM(`vm-${String(i + j).padStart(2, '0')}`, { host: `h${(i + j) % 4}` })),
        ),
      );
    }
    const ranges = recordRanges();
    const txns = recordTxns();

    const onH1 = await state.list(VMS, { labelQueries: [labelQuery(labelEqual('host', 'h1'))] });
    expect(ids(onH1)).toEqual([
      'vm-01',
      'vm-05',
      'vm-09',
      'vm-13',
      'vm-17',
      'vm-21',
      'vm-25',
      'vm-29',
      'vm-33',
      'vm-37',
    ]);
    const scans = ranges.filter((r) => r.range_end !== undefined && String(r.key).includes('/r/'));
    expect(scans).toEqual([]);
    // Two index ranges (the label's and the unindexed resources'), then the resources read by
    // key in one transaction, all at the index's revision.
    expect(ranges).toHaveLength(2);
    expect(txns).toHaveLength(1);
    const reads = (txns[0]?.success ?? []).map((op) => op.request_range);
    expect(reads).toHaveLength(10);
    expect(new Set(reads.map((r) => String(r?.revision))).size).toBe(1);
    expect(reads.every((r) => r?.range_end === undefined)).toBe(true);

    // `in`, `exists` and OR-ed queries, each narrowed by the index, give what a scan gives.
    const either = await state.list(VMS, {
      labelQueries: [labelQuery(labelIn('host', ['h2', 'h3']), labelExists('host'))],
    });
    expect(either).toHaveLength(20);
    const ored = await state.list(VMS, {
      labelQueries: [labelQuery(labelEqual('host', 'h0')), labelQuery(labelExists('gpu'))],
    });
    expect(ids(ored)).toEqual([
      'vm-00',
      'vm-04',
      'vm-08',
      'vm-12',
      'vm-16',
      'vm-20',
      'vm-24',
      'vm-28',
      'vm-32',
      'vm-36',
    ]);
  });

  it(`lists a resource with more than ${MAX_INDEXED_LABELS} labels from a key of its own, and indexes it once it has fewer`, async () => {
    const { state, prefix } = open();
    await state.create(newVM('wide', { ...manyLabels(MAX_INDEXED_LABELS), host: 'h1' }));
    await state.create(newVM('narrow', { host: 'h1' }));
    expect(await indexKeys(prefix)).toEqual(['l/host/h1/narrow', 'u/wide']);
    const onH1 = { labelQueries: [labelQuery(labelEqual('host', 'h1'))] };
    expect(ids(await state.list(VMS, onH1))).toEqual(['narrow', 'wide']);
    const onK3 = { labelQueries: [labelQuery(labelEqual('k3', 'v3'))] };
    expect(ids(await state.list(VMS, onK3))).toEqual(['wide']);

    // Down to the limit: indexed, the key of its own gone, in one transaction.
    await state.modify(newVM('wide', {}), (draft) => {
      delete draft.metadata.labels.k0;
    });
    const keys = await indexKeys(prefix);
    expect(keys).not.toContain('u/wide');
    expect(keys).toContain('l/host/h1/wide');
    expect(keys).toHaveLength(MAX_INDEXED_LABELS + 1);
    expect(ids(await state.list(VMS, onK3))).toEqual(['wide']);

    // And back: every label changed at once stays within etcd's 128 operations.
    await state.modify(newVM('wide', {}), (draft) => {
      draft.metadata.labels = { ...manyLabels(MAX_INDEXED_LABELS + 5), host: 'h2' };
    });
    expect(await indexKeys(prefix)).toEqual(['l/host/h1/narrow', 'u/wide']);
    expect(ids(await state.list(VMS, onH1))).toEqual(['narrow']);
    await state.destroy(vm('wide'));
    expect(await indexKeys(prefix)).toEqual(['l/host/h1/narrow']);
  });

  it('reads the kind in pages instead when the index names a good part of it', async () => {
    const { state } = open();
    // More ids than two pages' worth: one request per resource would be the slower way.
    const count = 2 * LIST_PAGE_SIZE + 1;
    for (let i = 0; i < count; i += 100) {
      await Promise.all(
        Array.from({ length: Math.min(100, count - i) }, (_, j) =>
          state.create(newVM(`vm-${String(i + j).padStart(4, '0')}`, { rack: 'r1' })),
        ),
      );
    }
    await state.create(newVM('other', { rack: 'r2' }));
    const ranges = recordRanges();
    const inRack = await state.list(VMS, { labelQueries: [labelQuery(labelEqual('rack', 'r1'))] });
    expect(inRack).toHaveLength(count);
    expect(inRack.some((r) => r.metadata.id === 'other')).toBe(false);
    // The index in three pages, the unindexed range, the kind in three pages: no read per id.
    expect(ranges.length).toBeLessThanOrEqual(8);
    // All read at the revision of the index's first page.
    expect(new Set(ranges.slice(1).map((r) => String(r.revision))).size).toBe(1);
  });
});
