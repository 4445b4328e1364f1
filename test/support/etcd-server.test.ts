import { afterEach, describe, expect, it } from 'vitest';
import { etcdAvailable, startEtcd, type EtcdServer } from './etcd-server.js';

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
  });
});
