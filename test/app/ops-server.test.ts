import { afterEach, describe, expect, it } from 'vitest';
import {
  OpsAddressError,
  parseListenAddress,
  startOpsServer,
  text,
  type OpsServer,
} from '../../src/app/ops-server.js';

describe("cosi run's HTTP endpoints (real HTTP on loopback)", () => {
  const servers: OpsServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  const serve = async (routes: Parameters<typeof startOpsServer>[2]): Promise<string> => {
    const server = await startOpsServer('127.0.0.1:0', '--health-addr', routes);
    servers.push(server);
    return `http://${server.address}`;
  };

  it('answers its routes, 404 for others, 405 for a POST, and 500 with the message of a route that throws', async () => {
    const base = await serve({
      '/ok': () => text(200, 'fine\n'),
      '/boom': () => {
        throw new Error('the registry broke');
      },
    });
    const ok = await fetch(`${base}/ok?verbose=1`);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('fine\n');
    const missing = await fetch(`${base}/nope`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain('serving /ok, /boom');
    expect((await fetch(`${base}/ok`, { method: 'POST' })).status).toBe(405);
    const boom = await fetch(`${base}/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.text()).toBe('the registry broke\n');
    // The server goes on after a failing route.
    expect((await fetch(`${base}/ok`)).status).toBe(200);
  });

  it('refuses an address in use in one sentence', async () => {
    const base = await serve({});
    const taken = base.replace('http://', '');
    await expect(startOpsServer(taken, '--metrics-addr', {})).rejects.toThrow(
      new OpsAddressError(
        `--metrics-addr: cannot listen on ${taken}: the port is in use: pick another`,
      ),
    );
  });

  it('reads HOST:PORT and :PORT, and refuses anything else', () => {
    expect(parseListenAddress(':8080', '--metrics-addr')).toEqual({ host: '0.0.0.0', port: 8080 });
    expect(parseListenAddress('127.0.0.1:0', '--metrics-addr')).toEqual({
      host: '127.0.0.1',
      port: 0,
    });
    expect(parseListenAddress('[::1]:9090', '--metrics-addr')).toEqual({ host: '::1', port: 9090 });
    for (const bad of ['8080', 'localhost', ':99999', 'a:b']) {
      expect(() => parseListenAddress(bad, '--metrics-addr')).toThrow(OpsAddressError);
    }
  });
});
