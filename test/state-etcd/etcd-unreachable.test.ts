import { createServer as createHttpServer, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeConnectionFailure } from '../../src/state-etcd/connection-failure.js';
import { EtcdUnreachableError } from '../../src/state-etcd/etcd-errors.js';
import { createEtcdState } from '../../src/state-etcd/etcd-state.js';
import { closedPort } from '../support/closed-port.js';
import { startSilentServer, type SilentServer } from '../support/silent-server.js';

/** What `probe` throws for an endpoint. */
async function probeError(endpoint: string, timeout: number, flag?: string): Promise<Error> {
  const state = createEtcdState({ endpoints: [endpoint], prefix: '/probe' });
  try {
    const error: unknown = await state.probe(timeout, flag).then(
      () => new Error('the probe succeeded'),
      (e: unknown) => e,
    );
    return error as Error;
  } finally {
    await state.close();
  }
}

describe('an etcd that cannot be reached is said in one plain line', () => {
  let silent: SilentServer;
  let http: Server;
  let httpPort = 0;

  beforeAll(async () => {
    silent = await startSilentServer();
    http = createHttpServer((_, response) => response.end('not etcd'));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const address = http.address();
    httpPort = typeof address === 'object' && address !== null ? address.port : 0;
  });
  afterAll(async () => {
    await silent.close();
    await new Promise<void>((resolve) => http.close(() => resolve()));
  });

  it('a closed port: connection refused, what to check, and none of gRPC’s text', async () => {
    const port = await closedPort();
    const error = await probeError(`http://127.0.0.1:${port}`, 10_000);
    expect(error).toBeInstanceOf(EtcdUnreachableError);
    expect(error.message).toBe(
      `cannot reach etcd at 127.0.0.1:${port}: connection refused (nothing listens on that port): check that etcd runs there and the --state URL`,
    );
  }, 30_000);

  it('a server that accepts and never answers: did not answer, the timeout and the flag to raise, not cannot reach', async () => {
    const started = performance.now();
    const error = await probeError(silent.endpoint, 500, '--request-timeout');
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(error.message).toBe(
      `etcd at ${silent.address} did not answer within 0.5s (--request-timeout): the connection opened, so something listens there (a member stopped or overloaded?): check that etcd is healthy (etcdctl endpoint health), or raise --request-timeout`,
    );
  }, 30_000);

  it('a server that is not etcd: says so, and which port to name', async () => {
    const error = await probeError(`http://127.0.0.1:${httpPort}`, 10_000);
    expect(error.message).toBe(
      `cannot reach etcd at 127.0.0.1:${httpPort}: what answers there is not etcd (it does not speak gRPC): check that the --state URL names etcd's client port (2379 by default)`,
    );
  }, 30_000);

  it('the causes gRPC reports, in plain words; unknown text is left out, not shown raw', () => {
    expect(
      describeConnectionFailure(
        new Error('14 UNAVAILABLE: Name resolution failed for target dns:nohost.invalid:2379'),
      )?.reason,
    ).toBe('the host name does not resolve');
    expect(describeConnectionFailure(new Error('14 UNAVAILABLE: read ECONNRESET'))?.reason).toBe(
      'the connection was closed as it opened',
    );
    expect(describeConnectionFailure(new Error('connect ETIMEDOUT 10.0.0.1:2379'))?.reason).toBe(
      'the connection failed (ETIMEDOUT)',
    );
    expect(describeConnectionFailure(new Error('14 UNAVAILABLE: something new'))).toBeUndefined();
  });
});
