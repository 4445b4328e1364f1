import { Etcd3 } from 'etcd3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createEtcdLeaderElection,
  type EtcdLeaderElection,
} from '../../src/state-etcd/leader-election.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { waitFor } from '../support/wait-for.js';

describe.skipIf(!etcdAvailable)('etcd leader election', () => {
  let etcd: EtcdServer;
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 30_000);
  afterAll(async () => {
    await etcd.stop();
  });

  /**
   * A candidate whose lease outlives a loaded machine's stalls: these tests hand the leadership
   * over by resigning or revoking, never by expiry, and a leader that misses its renewals for two
   * thirds of a 2 s TTL (a stalled test process) would give up by itself.
   */
  const candidate = (
    name: string,
    identity: string,
    onLost?: (e: Error) => void,
  ): EtcdLeaderElection =>
    createEtcdLeaderElection({
      endpoint: etcd.endpoint,
      prefix: '/test',
      name,
      ttl: 10,
      identity,
      ...(onLost ? { onLost } : {}),
    });

  it('elects exactly one of two candidates; when it resigns, the other leads', async () => {
    const a = candidate('pair', 'a');
    const b = candidate('pair', 'b');
    const never = new AbortController();
    const elected: string[] = [];
    const aElected = a.elect(never.signal).then(() => elected.push('a'));
    await aElected;
    const bElected = b.elect(never.signal).then(() => elected.push('b'));
    // b's campaign key exists once etcd lists two candidates; it still does not lead.
    await waitFor(() => campaignKeys('/test/election/pair/').then((n) => n === 2), 10_000);
    expect(elected).toEqual(['a']);
    expect([a.leading, b.leading]).toEqual([true, false]);

    await a.close();
    await bElected;
    expect(elected).toEqual(['a', 'b']);
    expect(b.leading).toBe(true);
    await b.close();
    // Both leases were revoked: nothing of the election is left.
    expect(await campaignKeys('/test/election/pair/')).toBe(0);
  }, 30_000);

  it('a revoked lease hands the leadership over and tells the old leader it lost', async () => {
    const lost: Error[] = [];
    const a = candidate('revoke', 'a', (e) => lost.push(e));
    const b = candidate('revoke', 'b');
    const never = new AbortController();
    await a.elect(never.signal);
    const bElected = b.elect(never.signal);
    await waitFor(() => campaignKeys('/test/election/revoke/').then((n) => n === 2), 10_000);

    // What an expired lease looks like to the cluster: revoked from outside.
    const admin = new Etcd3({ hosts: etcd.endpoint });
    const [first] = (await admin.getAll().prefix('/test/election/revoke/').keys()).sort();
    const leaseId = first?.split('/').pop() ?? '';
    await admin.leaseClient.leaseRevoke({ ID: leaseId });
    admin.close();

    await bElected;
    expect(b.leading).toBe(true);
    await waitFor(() => lost.length === 1, 10_000, 'the old leader to hear it lost');
    expect(a.leading).toBe(false);
    await a.close();
    await b.close();
  }, 30_000);

  it('a leader cut off from etcd gives up within two thirds of the TTL, before its lease expires', async () => {
    const proxy = await startTcpProxy(etcd.endpoint);
    const lost: number[] = [];
    const a = createEtcdLeaderElection({
      endpoint: proxy.endpoint,
      prefix: '/test',
      name: 'cut',
      // Gives up at 6 s, expires at 9 s: the 3 s between leave room for a loaded machine to see
      // the key still there once it gave up.
      ttl: 9,
      identity: 'a',
      onLost: () => lost.push(Date.now()),
    });
    try {
      await a.elect(new AbortController().signal);
      proxy.cut();
      await waitFor(() => lost.length === 1, 20_000, 'the cut-off leader to give up');
      expect(a.leading).toBe(false);
      // Its key (and lease) is still there: it stopped leading before anyone else could lead.
      expect(await campaignKeys('/test/election/cut/')).toBe(1);
    } finally {
      await a.close();
      await proxy.close();
    }
  }, 30_000);

  it('an aborted campaign rejects and withdraws its key', async () => {
    const a = candidate('abort', 'a');
    const b = candidate('abort', 'b');
    const never = new AbortController();
    await a.elect(never.signal);
    const abort = new AbortController();
    const bElected = b.elect(abort.signal);
    await waitFor(() => campaignKeys('/test/election/abort/').then((n) => n === 2), 10_000);
    abort.abort();
    await expect(bElected).rejects.toThrow(/closed before/);
    await waitFor(() => campaignKeys('/test/election/abort/').then((n) => n === 1), 10_000);
    await a.close();
  }, 30_000);

  async function campaignKeys(prefix: string): Promise<number> {
    const admin = new Etcd3({ hosts: etcd.endpoint });
    try {
      return (await admin.getAll().prefix(prefix).keys()).length;
    } finally {
      admin.close();
    }
  }
});
