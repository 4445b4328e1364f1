import { afterEach, describe, expect, it, vi } from 'vitest';
import { NotFoundError } from '../../src/engine/errors.js';
import { ALL_NAMESPACES, type Kind, type Pointer } from '../../src/engine/resource/pointer.js';
import { newResource, toDraft, type Resource } from '../../src/engine/resource/resource.js';
import type { StateEvent as ResourceEvent } from '../../src/engine/state/state.js';
import { isRetryableConflict, labelEqual, labelQuery } from '../../src/index.js';
import { createEtcdState, type EtcdState } from '../../src/state-etcd/etcd-state.js';
import { etcdAvailable } from '../support/etcd-server.js';
import { useEtcdClient } from '../support/etcd-client.js';

const VMS: Kind = { namespace: 'lab', type: 'VMs.cache.cosi.dev' };
const vm = (id: string, namespace = VMS.namespace): Pointer => ({ ...VMS, namespace, id });
type Spec = { cpus: number; from?: string };

/**
 * Reads of a kind the state watches whole are answered from the values the watch keeps (see
 * WatchedReads): no request, the state's own writes seen at once, another process's once its
 * event came, and a stale value costs only a failed compare-and-swap and a read again.
 */
describe.skipIf(!etcdAvailable)('etcd reads answered from the watches', () => {
  vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
  const live = useEtcdClient();
  let serial = 0;
  const states: EtcdState[] = [];
  const aborts: AbortController[] = [];
  afterEach(async () => {
    for (const abort of aborts.splice(0)) abort.abort();
    for (const state of states.splice(0)) await state.close();
  });

  /** Two states on one prefix, as two processes serving it, each with its own client. */
  function twoProcesses(options: { cachedReads?: boolean } = {}): [EtcdState, EtcdState] {
    const prefix = `/cached-reads/${serial++}`;
    const open = (): EtcdState => {
      const state = createEtcdState({ endpoints: [live.server.endpoint], prefix, ...options });
      states.push(state);
      return state;
    };
    return [open(), open()];
  }

  /** A watch of `kind` on `state`; resolves each wait once an event matches. */
  async function watching(
    state: EtcdState,
    kind: Kind,
    options: { labelQueries?: ReturnType<typeof labelQuery>[] } = {},
  ): Promise<(match: (event: ResourceEvent) => boolean) => Promise<void>> {
    const abort = new AbortController();
    aborts.push(abort);
    const events: ResourceEvent[] = [];
    const waiters: { match: (event: ResourceEvent) => boolean; resolve: () => void }[] = [];
    await state.watchKind(
      kind,
      (event) => {
        events.push(event);
        for (const w of [...waiters]) {
          if (w.match(event)) {
            waiters.splice(waiters.indexOf(w), 1);
            w.resolve();
          }
        }
      },
      { signal: abort.signal, ...options },
    );
    return async (match) => {
      if (events.some(match)) return;
      await new Promise<void>((resolve) => waiters.push({ match, resolve }));
    };
  }

  const isVersion =
    (id: string, version: number) =>
    (event: ResourceEvent): boolean =>
      'resource' in event &&
      event.resource.metadata.id === id &&
      event.resource.metadata.version === version;

  it('a get and a list of a watched kind send no request once the watch has the values', async () => {
    const [a, b] = twoProcesses();
    for (const id of ['x', 'y', 'z']) await b.create(newResource<Spec>(vm(id), { cpus: 1 }));
    // The watch lists the kind when it starts: its values are there once it is open.
    await watching(a, VMS);
    const before = a.figures();
    expect((await a.get<Spec>(vm('y'))).spec.cpus).toBe(1);
    expect((await a.list(VMS)).map((r) => r.metadata.id)).toEqual(['x', 'y', 'z']);
    await expect(a.get(vm('none'))).rejects.toBeInstanceOf(NotFoundError);
    const after = a.figures();
    expect(after.reads - before.reads).toBe(0);
    expect(after.cachedReads - before.cachedReads).toBe(3);
  });

  it("another process's write is read as soon as its event came, without a request", async () => {
    const [a, b] = twoProcesses();
    await b.create(newResource<Spec>(vm('x'), { cpus: 1 }));
    const seen = await watching(a, VMS);
    await b.modify(newResource<Spec>(vm('x'), { cpus: 0 }), (draft) => {
      draft.spec.cpus = 2;
    });
    await seen(isVersion('x', 2));
    const before = a.figures().reads;
    const read = await a.get<Spec>(vm('x'));
    expect(read.metadata.version).toBe(2);
    expect(read.spec.cpus).toBe(2);
    expect(a.figures().reads - before).toBe(0);
  });

  it('its own write is read at once, before its watch has the event (read-your-writes)', async () => {
    const [a] = twoProcesses();
    await a.create(newResource<Spec>(vm('x'), { cpus: 1 }));
    await watching(a, VMS);
    // Write and read in one turn: whatever the watch has, the read sees the write.
    for (let cpus = 2; cpus < 12; cpus++) {
      const draft = toDraft(await a.get<Spec>(vm('x')));
      draft.spec.cpus = cpus;
      await a.update(draft);
      expect((await a.get<Spec>(vm('x'))).spec.cpus).toBe(cpus);
      expect((await a.list<Spec>(VMS)).map((r) => r.spec.cpus)).toEqual([cpus]);
    }
    await a.create(newResource<Spec>(vm('new'), { cpus: 7 }));
    expect((await a.get<Spec>(vm('new'))).spec.cpus).toBe(7);
    await a.destroy(vm('new'));
    await expect(a.get(vm('new'))).rejects.toBeInstanceOf(NotFoundError);
    expect((await a.list(VMS)).map((r) => r.metadata.id)).toEqual(['x']);
  });

  it('a stale cached read costs a conflict and a read again: no write is lost', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource<Spec>(vm('x'), { cpus: 1 }));
    await watching(a, VMS);
    const stale = await a.get<Spec>(vm('x'));
    // b writes behind a's back; a writes from what it read (version 1) and must not win.
    await b.modify(newResource<Spec>(vm('x'), { cpus: 0 }), (draft) => {
      draft.spec.from = 'b';
    });
    const draft = toDraft(stale);
    draft.spec.cpus = 5;
    const refused = await a.update(draft).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isRetryableConflict(refused)).toBe(true);
    // The caller's retry: read (from the watch or etcd, whichever is not stale) and write again.
    let attempts = 0;
    for (;;) {
      attempts++;
      const current = toDraft(await a.get<Spec>(vm('x')));
      current.spec.cpus = 5;
      try {
        await a.update(current);
        break;
      } catch (error) {
        if (!isRetryableConflict(error)) throw error;
      }
    }
    // The read after the conflict saw b's write: the floor rose with the conflict's read.
    expect(attempts).toBe(1);
    const stored = await b.get<Spec>(vm('x'));
    expect(stored.spec).toEqual({ cpus: 5, from: 'b' });
    expect(stored.metadata.version).toBe(3);
  });

  it('modify on a stale cached value retries on the conflict and keeps both writes', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource<Spec>(vm('x'), { cpus: 1 }));
    await watching(a, VMS);
    await a.get(vm('x'));
    await b.modify(newResource<Spec>(vm('x'), { cpus: 0 }), (draft) => {
      draft.spec.from = 'b';
    });
    await a.modify(newResource<Spec>(vm('x'), { cpus: 0 }), (draft) => {
      draft.spec.cpus += 10;
    });
    expect((await b.get<Spec>(vm('x'))).spec).toEqual({ cpus: 11, from: 'b' });
  });

  it('reads never go back in time: values older than a read from etcd are not used', async () => {
    const [a, b] = twoProcesses();
    await a.create(newResource<Spec>(vm('x'), { cpus: 1 }));
    const seen = await watching(a, VMS);
    // Many writes by b, each followed at once by a's read: whatever a's watch has delivered,
    // the versions a reads never decrease.
    let last = 0;
    for (let i = 0; i < 30; i++) {
      await b.modify(newResource<Spec>(vm('x'), { cpus: 0 }), (draft) => {
        draft.spec.cpus = i;
      });
      const read: Resource = await a.get(vm('x'));
      expect(read.metadata.version).toBeGreaterThanOrEqual(last);
      last = read.metadata.version;
      const listed = await a.list(VMS);
      expect(listed[0]?.metadata.version).toBeGreaterThanOrEqual(last);
      last = listed[0]?.metadata.version ?? last;
    }
    await seen(isVersion('x', 31));
    expect((await a.get(vm('x'))).metadata.version).toBe(31);
  });

  it('what still asks etcd: a kind not watched, a filtered watch, cachedReads: false', async () => {
    const [a, b] = twoProcesses();
    await b.create(newResource<Spec>(vm('x'), { cpus: 1 }, { labels: { tier: 'a' } }));
    // Its first request first looks for a label index to move (label-index-migration.ts).
    await a.kinds();
    let before = a.figures().reads;
    await a.get(vm('x'));
    expect(a.figures().reads - before).toBe(1);
    // A watch with a label filter keeps only what it matches: no source for reads.
    await watching(a, VMS, { labelQueries: [labelQuery(labelEqual('tier', 'a'))] });
    before = a.figures().reads;
    await a.get(vm('x'));
    await a.list(VMS);
    expect(a.figures().reads - before).toBe(2);

    const [c] = twoProcesses({ cachedReads: false });
    await c.create(newResource<Spec>(vm('x'), { cpus: 1 }));
    await watching(c, VMS);
    before = c.figures().reads;
    await c.get(vm('x'));
    await c.list(VMS);
    expect(c.figures().reads - before).toBe(2);
    expect(c.figures().cachedReads).toBe(0);
  });

  it('a watch of a type in every namespace answers reads of each namespace and of all', async () => {
    const [a, b] = twoProcesses();
    await b.create(newResource<Spec>(vm('x', 'one'), { cpus: 1 }));
    await b.create(newResource<Spec>(vm('y', 'two'), { cpus: 2 }));
    await b.create(newResource<Spec>(vm('a', 'two'), { cpus: 3 }));
    const seen = await watching(a, { namespace: ALL_NAMESPACES, type: VMS.type });
    await b.modify(newResource<Spec>(vm('x', 'one'), { cpus: 0 }), (draft) => {
      draft.spec.cpus = 9;
    });
    await seen(isVersion('x', 2));
    const before = a.figures();
    expect((await a.get<Spec>(vm('x', 'one'))).spec.cpus).toBe(9);
    const all = await a.list({ namespace: ALL_NAMESPACES, type: VMS.type });
    expect(all.map((r) => `${r.metadata.namespace}/${r.metadata.id}`)).toEqual([
      'one/x',
      'two/a',
      'two/y',
    ]);
    expect((await a.list({ namespace: 'two', type: VMS.type })).map((r) => r.metadata.id)).toEqual([
      'a',
      'y',
    ]);
    expect(a.figures().reads - before.reads).toBe(0);
    expect(a.figures().cachedReads - before.cachedReads).toBe(3);
  });
});
