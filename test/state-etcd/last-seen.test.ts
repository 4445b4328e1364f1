import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Kind, Pointer } from '../../src/engine/resource/pointer.js';
import { newResource } from '../../src/engine/resource/resource.js';
import { labelEqual, labelQuery } from '../../src/index.js';
import { createEtcdState, type EtcdState } from '../../src/state-etcd/etcd-state.js';
import { etcdAvailable } from '../support/etcd-server.js';
import { useEtcdClient } from '../support/etcd-client.js';

const VMS: Kind = { namespace: 'lab', type: 'VMs.lab.cosi.dev' };
const vm = (id: string): Pointer => ({ ...VMS, id });
const empty = newResource<{ cpus?: number }>(vm('a'), {});

/**
 * A write starts from the version the etcd state last saw instead of reading first
 * (`StateCore.lastSeen`): a compare-and-swap on that version's revision. These tests make that
 * version stale with a second state (another process) and check that nothing is lost or
 * written twice.
 */
describe.skipIf(!etcdAvailable)('writes from the version the etcd state last saw', () => {
  vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
  const live = useEtcdClient();
  let serial = 0;
  const states: EtcdState[] = [];
  afterEach(async () => {
    for (const state of states.splice(0)) await state.close();
    vi.restoreAllMocks();
  });

  /** Two states on one prefix, as two processes serving it, each with its own client. */
  function twoProcesses(): [EtcdState, EtcdState] {
    const prefix = `/last-seen/${serial++}`;
    const open = (): EtcdState => {
      const state = createEtcdState({ endpoints: [live.server.endpoint], prefix });
      states.push(state);
      return state;
    };
    return [open(), open()];
  }

  it('a modify of a resource it wrote sends one request: the swap, no read', async () => {
    const [state] = twoProcesses();
    await state.create(newResource(vm('a'), { cpus: 1 }));
    const before = state.figures();
    await state.modify(empty, (draft) => {
      draft.spec.cpus = 2;
    });
    const after = state.figures();
    expect(after.reads - before.reads).toBe(0);
    expect(after.writes - before.writes).toBe(1);
    expect((await state.get<{ cpus: number }>(vm('a'))).spec.cpus).toBe(2);
  });

  it('a stale version fails the swap; the retry reads and applies the change on what is stored', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource(vm('a'), { cpus: 1 }, { labels: { keep: 'yes' } }));
    // b changes it behind a's back: a's last seen version (1) is stale.
    await b.modify(empty, (draft) => {
      draft.metadata.labels.fromB = 'yes';
    });
    await a.modify(empty, (draft) => {
      draft.spec.cpus = 8;
    });
    const stored = await b.get<{ cpus: number }>(vm('a'));
    // Both changes kept, each written once: version 1, b's 2, a's 3.
    expect(stored.metadata.version).toBe(3);
    expect(stored.spec.cpus).toBe(8);
    expect(stored.metadata.labels).toEqual({ keep: 'yes', fromB: 'yes' });
  });

  it('nothing to change by a stale version is checked with a read: a change made since is undone', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource(vm('a'), { cpus: 4 }));
    // a last saw cpus 4; b sets 1. a wants 4: by what a saw there is nothing to write.
    await b.modify(empty, (draft) => {
      draft.spec.cpus = 1;
    });
    await a.modify(empty, (draft) => {
      draft.spec.cpus = 4;
    });
    const stored = await b.get<{ cpus: number }>(vm('a'));
    expect(stored.spec.cpus).toBe(4);
    expect(stored.metadata.version).toBe(3);
  });

  it('a finalizer added by a stale version lands once, beside the other process change', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource(vm('a'), { cpus: 1 }));
    await b.addFinalizer(vm('a'), 'from-b');
    await a.addFinalizer(vm('a'), 'from-a');
    // Already there by a read: nothing more is written.
    await a.addFinalizer(vm('a'), 'from-a');
    const stored = await b.get(vm('a'));
    expect([...stored.metadata.finalizers].sort()).toEqual(['from-a', 'from-b']);
    expect(stored.metadata.version).toBe(3);
  });

  it('a modify of a resource destroyed since it was seen creates it again', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource(vm('a'), { cpus: 1 }));
    await b.destroy(vm('a'));
    await a.modify(empty, (draft) => {
      draft.spec.cpus = 2;
    });
    const stored = await b.get<{ cpus: number }>(vm('a'));
    expect(stored.metadata.version).toBe(1);
    expect(stored.spec.cpus).toBe(2);
  });

  it('a modify of a resource it never saw creates it with one request, no read first', async () => {
    const [state] = twoProcesses();
    // Its first request first looks for a label index to move (label-index-migration.ts).
    await state.kinds();
    const before = state.figures();
    await state.modify(empty, (draft) => {
      draft.spec.cpus = 3;
    });
    const after = state.figures();
    expect(after.reads - before.reads).toBe(0);
    expect(after.writes - before.writes).toBe(1);
    expect((await state.get<{ cpus: number }>(vm('a'))).metadata.version).toBe(1);
  });

  it('a modify of a resource another process created, never seen here, updates it once', async () => {
    const [a, b] = twoProcesses();
    await b.create(newResource(vm('a'), { cpus: 1 }, { labels: { fromB: 'yes' } }));
    await a.modify(empty, (draft) => {
      draft.spec.cpus = 5;
    });
    const stored = await b.get<{ cpus: number }>(vm('a'));
    expect(stored.metadata.version).toBe(2);
    expect(stored.spec.cpus).toBe(5);
    expect(stored.metadata.labels).toEqual({ fromB: 'yes' });
  });
  it('a teardown of a resource it saw running sends one request: the swap, no read', async () => {
    const [state] = twoProcesses();
    await state.create(newResource(vm('a'), { cpus: 1 }));
    const before = state.figures();
    expect(await state.teardown(vm('a'))).toBe(true);
    const after = state.figures();
    expect(after.reads - before.reads).toBe(0);
    expect(after.writes - before.writes).toBe(1);
    expect((await state.get(vm('a'))).metadata.phase).toBe('tearingDown');
  });

  it('a teardown by a stale version lands once and answers with the finalizers stored now', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource(vm('a'), { cpus: 1 }));
    // b holds it: a last saw it without finalizers.
    await b.addFinalizer(vm('a'), 'from-b');
    expect(await a.teardown(vm('a'))).toBe(false);
    const stored = await b.get(vm('a'));
    expect(stored.metadata.phase).toBe('tearingDown');
    expect(stored.metadata.finalizers).toEqual(['from-b']);
    expect(stored.metadata.version).toBe(3);
  });

  it('a teardown of a resource another process tore down since writes nothing', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource(vm('a'), { cpus: 1 }));
    await b.teardown(vm('a'));
    expect(await a.teardown(vm('a'))).toBe(true);
    expect((await b.get(vm('a'))).metadata.version).toBe(2);
  });

  it('a destroy of a resource it saw sends one request: the delete, no read', async () => {
    const [state] = twoProcesses();
    await state.create(newResource(vm('a'), { cpus: 1 }, { labels: { host: 'h1' } }));
    const before = state.figures();
    await state.destroy(vm('a'));
    const after = state.figures();
    expect(after.reads - before.reads).toBe(0);
    expect(after.writes - before.writes).toBe(1);
    await expect(state.get(vm('a'))).rejects.toMatchObject({ code: 'not-found' });
    // Its label index went with it.
    expect(await state.list(VMS, { labelQueries: [labelQuery(labelEqual('host', 'h1'))] })).toEqual(
      [],
    );
  });

  it('a destroy by a stale version is refused when another process added a finalizer since', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource(vm('a'), { cpus: 1 }));
    // a last saw it without finalizers: its delete on that revision fails, and the read tells.
    await b.addFinalizer(vm('a'), 'from-b');
    await expect(a.destroy(vm('a'))).rejects.toMatchObject({
      code: 'conflict',
      reason: 'pending-finalizers',
    });
    const stored = await b.get(vm('a'));
    expect(stored.metadata.finalizers).toEqual(['from-b']);
    expect(stored.metadata.version).toBe(2);
  });

  it("a destroy by a stale version deletes what is stored now, its new labels' index too", async () => {
    const [a, b] = twoProcesses();
    const prefix = `/last-seen/${serial - 1}/`;
    await a.create(newResource(vm('a'), { cpus: 1 }, { labels: { host: 'h1' } }));
    await b.modify(empty, (draft) => {
      draft.metadata.labels.host = 'h2';
    });
    const before = a.figures();
    await a.destroy(vm('a'));
    // The stale delete, the read, the delete on the revision read.
    expect(a.figures().reads - before.reads).toBe(1);
    expect(a.figures().writes - before.writes).toBe(2);
    await expect(b.get(vm('a'))).rejects.toMatchObject({ code: 'not-found' });
    for (const host of ['h1', 'h2']) {
      expect(await b.list(VMS, { labelQueries: [labelQuery(labelEqual('host', host))] })).toEqual(
        [],
      );
    }
    // Nothing is left under the kind's folder: no index key of either version.
    expect(await live.client.getAll().prefix(prefix).keys()).toEqual([]);
  });

  it('a destroy of a resource another process destroyed since fails as not found', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource(vm('a'), { cpus: 1 }));
    await b.destroy(vm('a'));
    await expect(a.destroy(vm('a'))).rejects.toMatchObject({ code: 'not-found' });
  });

  it('two processes destroying a resource both saw: one deletes it, the other is told not found', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource(vm('a'), { cpus: 1 }));
    // b sees it too (a read), so both delete on the same revision without reading.
    await b.get(vm('a'));
    const outcomes = await Promise.allSettled([a.destroy(vm('a')), b.destroy(vm('a'))]);
    const fulfilled = outcomes.filter((o) => o.status === 'fulfilled');
    const rejected = outcomes.filter((o) => o.status === 'rejected');
    expect(fulfilled).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect((rejected[0] as PromiseRejectedResult).reason).toMatchObject({ code: 'not-found' });
  });

  it('a destroy by another owner than the one seen is refused, as a read would tell', async () => {
    const [state] = twoProcesses();
    await state.create(newResource(vm('a'), { cpus: 1 }), { owner: 'Placement' });
    await expect(state.destroy(vm('a'))).rejects.toMatchObject({
      code: 'conflict',
      reason: 'owner',
    });
    await state.destroy(vm('a'), { owner: 'Placement' });
    await expect(state.get(vm('a'))).rejects.toMatchObject({ code: 'not-found' });
  });
});
