/**
 * The etcd state's decoded resources: one frozen object per key and revision, handed out by
 * writes, reads, lists and watch events alike, so that the runtime's identity-based skips work on
 * etcd as they do in memory.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createEtcdState,
  newResource,
  type EtcdState,
  type Kind,
  type Pointer,
  type Resource,
  type ResourceEvent,
} from '../../src/index.js';
import { DecodedCache } from '../../src/state-etcd/decoded-cache.js';
import { encodeResource } from '../../src/state-etcd/resource-codec.js';
import { etcdAvailable } from '../support/etcd-server.js';
import { useEtcdClient } from '../support/etcd-client.js';

const NOTES: Kind = { namespace: 'lab', type: 'Notes.lab.cosi.dev' };
const note = (id: string): Pointer => ({ ...NOTES, id });
const value = (text: string) => encodeResource(newResource(note('a'), { text }));

describe('DecodedCache', () => {
  it('hands out the same object for the same revision, a new one for a newer revision', () => {
    const cache = new DecodedCache();
    const first = cache.decode('k', { value: value('one'), mod_revision: '5' });
    expect(Object.isFrozen(first)).toBe(true);
    expect(cache.decode('k', { value: value('one'), mod_revision: '5' })).toBe(first);
    const second = cache.decode('k', { value: value('two'), mod_revision: '7' });
    expect(second).not.toBe(first);
    expect(second.spec).toEqual({ text: 'two' });
    expect(cache.decode('k', { value: value('two'), mod_revision: '7' })).toBe(second);
  });

  it('does not let an older revision replace a newer one', () => {
    const cache = new DecodedCache();
    const newer = cache.decode('k', { value: value('new'), mod_revision: '9' });
    const older = cache.decode('k', { value: value('old'), mod_revision: '4' });
    expect(older.spec).toEqual({ text: 'old' });
    expect(cache.decode('k', { value: value('new'), mod_revision: '9' })).toBe(newer);
  });

  it('forgets a deleted key, but not a value written after the delete', () => {
    const cache = new DecodedCache();
    const before = cache.decode('k', { value: value('one'), mod_revision: '3' });
    cache.forget('k', 4);
    expect(cache.decode('k', { value: value('one'), mod_revision: '3' })).not.toBe(before);
    const recreated = cache.decode('k', { value: value('again'), mod_revision: '6' });
    // A late delete event (revision 4) must not drop what was created at 6.
    cache.forget('k', 4);
    expect(cache.decode('k', { value: value('again'), mod_revision: '6' })).toBe(recreated);
  });

  it('keeps at most its capacity, dropping the key remembered longest ago', () => {
    const cache = new DecodedCache(2);
    const a = cache.decode('a', { value: value('a'), mod_revision: '1' });
    const b = cache.decode('b', { value: value('b'), mod_revision: '2' });
    cache.decode('c', { value: value('c'), mod_revision: '3' });
    expect(cache.size).toBe(2);
    expect(cache.decode('b', { value: value('b'), mod_revision: '2' })).toBe(b);
    expect(cache.decode('a', { value: value('a'), mod_revision: '1' })).not.toBe(a);
  });
});

describe.skipIf(!etcdAvailable)('EtcdState resources by identity', () => {
  vi.setConfig({ testTimeout: 90_000, hookTimeout: 60_000 });

  const live = useEtcdClient();
  let serial = 0;
  const states: EtcdState[] = [];

  function open(): EtcdState {
    const state = createEtcdState({ client: live.client, prefix: `/decoded/${serial++}` });
    states.push(state);
    return state;
  }

  afterEach(async () => {
    for (const state of states.splice(0)) await state.close();
  });

  it('returns the written resource itself from later gets, lists and watch events', async () => {
    const state = open();
    const events: ResourceEvent[] = [];
    const controller = new AbortController();
    await state.watchKind(
      NOTES,
      (event) => {
        if (event.type === 'created' || event.type === 'updated') events.push(event);
      },
      { signal: controller.signal },
    );
    const created = await state.create(newResource(note('a'), { text: 'one' }));
    expect(await state.get(note('a'))).toBe(created);
    expect((await state.list(NOTES))[0]).toBe(created);

    const updated: Resource = await state.modifyWithResult(
      newResource(note('a'), { text: '' }),
      (draft) => {
        draft.spec = { text: 'two' };
      },
    );
    await state.settled();
    await vi.waitFor(() => expect(events).toHaveLength(2), { timeout: 10_000 });
    controller.abort();
    expect(events[0]?.resource).toBe(created);
    expect(events[1]?.resource).toBe(updated);
    // The replaced version is decoded anew: one version is remembered per key, the latest.
    expect(events[1]?.type === 'updated' && events[1].old).toEqual(created);
    expect(await state.get(note('a'))).toBe(updated);
    expect(updated.spec).toEqual({ text: 'two' });
  });

  it('sees another writer: a new object for the new revision', async () => {
    const state = open();
    const other = createEtcdState({ client: live.client, prefix: `/decoded/${serial - 1}` });
    states.push(other);
    const mine = await state.create(newResource(note('b'), { text: 'mine' }));
    await other.modify(newResource(note('b'), { text: '' }), (draft) => {
      draft.spec = { text: 'theirs' };
    });
    const read = await state.get(note('b'));
    expect(read).not.toBe(mine);
    expect(read.spec).toEqual({ text: 'theirs' });
    expect(read.metadata.version).toBe(2);
    await other.destroy(note('b'));
    await expect(state.get(note('b'))).rejects.toThrow();
  });
});
