import type { Etcd3 } from 'etcd3';
import { afterAll, afterEach, beforeAll, describe, vi } from 'vitest';
import { createEtcdState, type EtcdState } from '../../src/index.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { describeStateConformance } from './state-suite.js';

describe.skipIf(!etcdAvailable)('etcd', () => {
  // A real etcd on a machine shared with other test runs: round trips may be slow.
  vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
  let server: EtcdServer;
  let client: Etcd3;
  /** The states of the running test, each on a prefix of its own. */
  let states: EtcdState[] = [];
  let serial = 0;

  beforeAll(async () => {
    server = await startEtcd();
    const { Etcd3: Client } = await import('etcd3');
    client = new Client({ hosts: [server.endpoint] });
  });
  afterEach(async () => {
    await Promise.all(states.map(async (state) => state.close()));
    states = [];
  });
  afterAll(async () => {
    client.close();
    await server.stop();
  });

  describeStateConformance(
    'etcd',
    ({ now }) => {
      const state = createEtcdState({ client, prefix: `/conformance/${serial++}`, now });
      states.push(state);
      return state;
    },
    {
      settle: async () => {
        await Promise.all(states.map(async (s) => s.settled()));
      },
    },
  );
});
