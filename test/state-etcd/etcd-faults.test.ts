import { describe, expect, it } from 'vitest';
import { newResource } from '../../src/engine/resource/resource.js';
import { createEtcdState } from '../../src/state-etcd/etcd-state.js';
import { etcdAvailable } from '../support/etcd-server.js';
import { useEtcdClient } from '../support/etcd-client.js';

/** The etcd state with bad data under its prefix (written by hand, by another program). */
describe.skipIf(!etcdAvailable)('the etcd state with a corrupt value', () => {
  const etcd = useEtcdClient();
  let prefixes = 0;

  const setUp = async () => {
    const prefix = `/faults-${++prefixes}`;
    const state = createEtcdState({ endpoints: [etcd.server.endpoint], prefix });
    await state.create(newResource({ namespace: 'default', type: 'VMs.t', id: 'good' }, {}));
    await state.create(newResource({ namespace: 'default', type: 'Hosts.t', id: 'h1' }, {}));
    const badKey = `${prefix}/default/VMs.t/r/bad\u001b[2J`;
    await etcd.client.put(badKey).value(Buffer.from('\u001b]0;owned\u0007{not json'));
    return { state, badKey };
  };

  it('fails the reads of its own kind, naming the key with its control bytes escaped', async () => {
    const { state } = await setUp();
    try {
      const error: unknown = await state
        .list({ namespace: 'default', type: 'VMs.t' })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'etcd-corrupt-value' });
      const message = (error as Error).message;
      expect(message).toContain('etcd key "/faults-1/default/VMs.t/r/bad\\x1b[2J" holds no');
      // eslint-disable-next-line no-control-regex -- the test is that none is there
      expect(message).not.toMatch(/[\u0000-\u001f\u007f]/);
      expect(message).toContain('\\x1b]0;owned\\x07');
    } finally {
      await state.close();
    }
  });

  it('leaves the other kinds and the other keys of its kind readable', async () => {
    const { state } = await setUp();
    try {
      expect(await state.list({ namespace: 'default', type: 'Hosts.t' })).toHaveLength(1);
      const good = await state.get({ namespace: 'default', type: 'VMs.t', id: 'good' });
      expect(good.metadata.id).toBe('good');
    } finally {
      await state.close();
    }
  });

  it('ends a watch of its kind with the key named when it is written', async () => {
    const { state, badKey } = await setUp();
    try {
      const errors: string[] = [];
      await state.watchKind({ namespace: 'default', type: 'VMs.t' }, (event) => {
        if (event.type === 'errored') errors.push(event.error.message);
      });
      await etcd.client.put(badKey).value('[]');
      await state.settled();
      await expect.poll(() => errors, { timeout: 10_000 }).toHaveLength(1);
      expect(errors[0]).toMatch(/^etcd key ".*\/VMs\.t\/r\/bad\\x1b\[2J" holds no cosi resource/);
    } finally {
      await state.close();
    }
  });

  it('reads a value written by hand with only id, type, namespace and version, the rest as a new resource has it', async () => {
    // Such a value passed the check of what a stored resource needs and then failed with a
    // TypeError (no ownerReferences): a list rejected with it, and a watch's event threw it out of
    // the client's callback, an uncaught exception that ended the process.
    const prefix = `/faults-${++prefixes}`;
    const state = createEtcdState({ endpoints: [etcd.server.endpoint], prefix });
    try {
      const kind = { namespace: 'default', type: 'VMs.t' };
      const seen: string[] = [];
      await state.watchKind(kind, (event) => {
        seen.push(
          'resource' in event
            ? `${event.type} ${event.resource.metadata.id} ${JSON.stringify(event.resource.spec)}`
            : event.type,
        );
      });
      const minimal = { metadata: { ...kind, id: 'typed', version: 1 }, spec: { cpus: 2 } };
      await etcd.client.put(`${prefix}/default/VMs.t/r/typed`).value(JSON.stringify(minimal));
      await expect.poll(() => seen, { timeout: 10_000 }).toEqual(['created typed {"cpus":2}']);
      const [listed] = await state.list(kind);
      expect(listed?.metadata).toMatchObject({
        id: 'typed',
        version: 1,
        generation: 1,
        owner: '',
        phase: 'running',
        finalizers: [],
        labels: {},
        annotations: {},
        ownerReferences: [],
      });
      // A collection of the wrong kind is a corrupt value, named, not a TypeError.
      const wrong = { metadata: { ...minimal.metadata, ownerReferences: 'x' }, spec: {} };
      await etcd.client.put(`${prefix}/default/VMs.t/r/wrong`).value(JSON.stringify(wrong));
      // The list is answered from the watch's values until the watch reads that change (and ends
      // on it): then from etcd, which has the corrupt value.
      await expect
        .poll(async () => state.list(kind).catch((e: unknown) => e), { timeout: 10_000 })
        .toMatchObject({ code: 'etcd-corrupt-value' });
    } finally {
      await state.close();
    }
  });
});
