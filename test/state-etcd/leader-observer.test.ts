import { execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { observeLeader } from '../../src/state-etcd/leader-observer.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { waitFor } from '../support/wait-for.js';

describe.skipIf(!etcdAvailable)('who leads an election on etcd', () => {
  let etcd: EtcdServer;
  let client: Etcd3;
  beforeAll(async () => {
    etcd = await startEtcd();
    client = new Etcd3({ hosts: etcd.endpoint });
  }, 30_000);
  afterAll(async () => {
    client.close();
    await etcd.stop();
  });

  /**
   * Creates the keys, in order, from another process while this one is blocked: their watch
   * events all reach this process in one turn of its event loop, as two candidates' campaigns
   * restarted by one change do under load.
   */
  const putTogether = (entries: readonly (readonly [string, string])[]): void => {
    const etcd3 = createRequire(import.meta.url).resolve('etcd3');
    const script = `
      const { Etcd3 } = require(${JSON.stringify(etcd3)});
      const client = new Etcd3({ hosts: ${JSON.stringify(etcd.endpoint)} });
      (async () => {
        for (const [key, value] of ${JSON.stringify(entries)}) await client.put(key).value(value);
        client.close();
      })();`;
    execFileSync(process.execPath, ['-e', script]);
  };

  it('names the candidate whose key was created first, however the keys arrive; then each next one', async () => {
    const prefix = '/observe-1/election/run/';
    const seen: (string | undefined)[] = [];
    const observation = observeLeader(client.namespace(prefix), (leader) => seen.push(leader));
    await waitFor(() => seen.length === 1, 10_000, 'the first report');
    expect(seen).toEqual([undefined]);

    putTogether([
      [`${prefix}a`, 'first'],
      [`${prefix}b`, 'second'],
    ]);
    await waitFor(() => seen.length === 2, 10_000, 'a leader');
    // Time for a wrong report to come after the right one: the leader's key is watched from here.
    await client.put(`${prefix}c`).value('third');
    await client.delete().key(`${prefix}a`);
    await waitFor(() => seen.length === 3, 10_000, 'the next leader');
    expect(seen).toEqual([undefined, 'first', 'second']);

    // A leader that proclaims another value is reported with it.
    await client.put(`${prefix}b`).value('second, again');
    await waitFor(() => seen.length === 4, 10_000, 'the new value');
    await client.delete().key(`${prefix}b`);
    await waitFor(() => seen.length === 5, 10_000, 'the third leader');
    await client.delete().key(`${prefix}c`);
    await waitFor(() => seen.length === 6, 10_000, 'no leader');
    expect(seen).toEqual([undefined, 'first', 'second', 'second, again', 'third', undefined]);

    // Cancelled: nothing more is reported, where another observer hears of the next leader.
    observation.cancel();
    const other: (string | undefined)[] = [];
    const next = observeLeader(client.namespace(prefix), (leader) => other.push(leader));
    await waitFor(() => other.length === 1, 10_000, 'the other observer');
    await client.put(`${prefix}d`).value('fourth');
    await waitFor(() => other.length === 2, 10_000, 'the other observer to hear of it');
    next.cancel();
    expect(seen).toHaveLength(6);
  }, 30_000);

  it('names a leader there before it began, once', async () => {
    const prefix = '/observe-2/election/run/';
    await client.put(`${prefix}a`).value('there');
    await client.put(`${prefix}b`).value('after');
    const seen: (string | undefined)[] = [];
    const observation = observeLeader(client.namespace(prefix), (leader) => seen.push(leader));
    await waitFor(() => seen.length === 1, 10_000, 'the first report');
    // A key created after the leader's is not a change of leader.
    await client.put(`${prefix}c`).value('later');
    await client.delete().key(`${prefix}a`);
    await waitFor(() => seen.length === 2, 10_000, 'the next leader');
    expect(seen).toEqual(['there', 'after']);
    observation.cancel();
  }, 30_000);
});
