/**
 * One real etcd with a client, for the `describe` block that calls {@link useEtcdClient}: started
 * before its first test, closed and stopped after its last.
 */
import type { Etcd3 } from 'etcd3';
import { afterAll, beforeAll } from 'vitest';
import { startEtcd, type EtcdServer } from './etcd-server.js';

export interface EtcdUnderTest {
  /** The server; read it in tests and hooks, not when the describe block is collected. */
  readonly server: EtcdServer;
  readonly client: Etcd3;
}

/** Registers the hooks that start and stop the etcd; call inside a `describe`. */
export function useEtcdClient(): EtcdUnderTest {
  let server: EtcdServer | undefined;
  let client: Etcd3 | undefined;
  beforeAll(async () => {
    server = await startEtcd();
    const { Etcd3: Client } = await import('etcd3');
    client = new Client({ hosts: [server.endpoint] });
  });
  afterAll(async () => {
    client?.close();
    await server?.stop();
  });
  return {
    get server(): EtcdServer {
      if (!server) throw new Error('etcd is not started yet: read it inside a test or a hook');
      return server;
    },
    get client(): Etcd3 {
      if (!client) throw new Error('etcd is not started yet: read it inside a test or a hook');
      return client;
    },
  };
}
