import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { closedPort } from './closed-port.js';
import { etcdAvailable, startEtcd, type EtcdServer } from './etcd-server.js';

/** An HTTP server on a free loopback port that answers every request as a healthy etcd would. */
async function healthyImpostor(): Promise<{ server: Server; port: number }> {
  const server = createServer((_request, response) => {
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ health: 'true', members: [{ name: 'someone-else' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return { server, port: typeof address === 'object' && address !== null ? address.port : 0 };
}

describe.skipIf(!etcdAvailable)('startEtcd', () => {
  let server: EtcdServer | undefined;
  afterEach(async () => {
    await server?.stop();
  });

  it('answers on its endpoint, and keeps its data and endpoint across a restart', async () => {
    server = await startEtcd();
    const put = async (key: string, value: string): Promise<Response> =>
      fetch(`${server!.endpoint}/v3/kv/put`, {
        method: 'POST',
        body: JSON.stringify({ key: btoa(key), value: btoa(value) }),
      });
    const get = async (key: string): Promise<string | undefined> => {
      const response = await fetch(`${server!.endpoint}/v3/kv/range`, {
        method: 'POST',
        body: JSON.stringify({ key: btoa(key) }),
      });
      const body = (await response.json()) as { kvs?: { value: string }[] };
      const value = body.kvs?.[0]?.value;
      return value === undefined ? undefined : atob(value);
    };
    expect((await put('k', 'v')).ok).toBe(true);
    const endpoint = server.endpoint;
    await server.restart();
    expect(server.endpoint).toBe(endpoint);
    expect(await get('k')).toBe('v');
  }, 60_000);

  it('starts on other ports when a port it picked is taken, even by a server that answers', async () => {
    // What another test file's etcd looks like when it took the port between pick and bind.
    const impostor = await healthyImpostor();
    let picks = 0;
    try {
      server = await startEtcd({
        pickPort: async () => (++picks === 1 ? impostor.port : closedPort()),
      });
      // Two ports for the start that failed, two (at least) for the one that did.
      expect(picks).toBeGreaterThanOrEqual(4);
      expect(server.endpoint).not.toBe(`http://127.0.0.1:${String(impostor.port)}`);
      const health = await fetch(`${server.endpoint}/health`);
      expect(await health.json()).toEqual({ health: 'true' });
    } finally {
      await new Promise((resolve) => impostor.server.close(resolve));
    }
  }, 60_000);
});
