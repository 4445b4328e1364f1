/**
 * `--connect-timeout` bounds the wait for etcd, not cosi's own start: the etcd client (gRPC) is
 * loaded on first use, which on a loaded machine can take longer than a short timeout. Here its
 * load is made slower than the timeout; a closed port must still be said as a refused connection,
 * not as "no answer within the timeout".
 */
import { describe, expect, it, vi } from 'vitest';
import { EtcdUnreachableError } from '../../src/state-etcd/etcd-errors.js';
import { createEtcdState } from '../../src/state-etcd/etcd-state.js';
import { closedPort } from '../support/closed-port.js';

/** How long loading the etcd client takes here: longer than the probe's timeout. */
const LOAD_MS = 2_500;
const TIMEOUT_MS = 2_000;

vi.mock('etcd3', async (importOriginal) => {
  // A slow load, as on a loaded machine: not a wait for anything.
  await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
  return importOriginal();
});

describe('probing etcd while the client loads slowly', () => {
  it('a closed port is a refused connection, not a timeout: the time starts once the client is made', async () => {
    const port = await closedPort();
    const state = createEtcdState({ endpoints: [`http://127.0.0.1:${port}`], prefix: '/probe' });
    try {
      const error: unknown = await state.probe(TIMEOUT_MS).then(
        () => new Error('the probe succeeded'),
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(EtcdUnreachableError);
      expect((error as Error).message).toBe(
        `cannot reach etcd at 127.0.0.1:${port}: connection refused (nothing listens on that port): check that etcd runs there and the --state URL`,
      );
    } finally {
      await state.close();
    }
  });
});
