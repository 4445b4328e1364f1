import { afterEach, describe, vi } from 'vitest';
import { createEtcdState, type EtcdState } from '../../src/index.js';
import { etcdAvailable } from '../support/etcd-server.js';
import { useEtcdClient } from '../support/etcd-client.js';
import { describeStateConformance } from './state-suite.js';

describe.skipIf(!etcdAvailable)('etcd', () => {
  // A real etcd on a machine shared with other test runs: round trips may be slow.
  vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
  const live = useEtcdClient();
  /** The states of the running test, each on a prefix of its own. */
  let states: EtcdState[] = [];
  let serial = 0;

  afterEach(async () => {
    await Promise.all(states.map(async (state) => state.close()));
    states = [];
  });

  describeStateConformance(
    'etcd',
    ({ now }) => {
      const state = createEtcdState({
        client: live.client,
        prefix: `/conformance/${serial++}`,
        now,
      });
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
