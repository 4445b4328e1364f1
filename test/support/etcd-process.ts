import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { waitFor } from './wait-for.js';

/** The etcd binary the tests run; tests that need it skip when it is absent. */
export const ETCD_BINARY = process.env.COSI_ETCD_BINARY ?? '/usr/bin/etcd';

export const hasEtcd = (): boolean => existsSync(ETCD_BINARY);

/** A real etcd on loopback ports, with a temporary data directory. */
export interface EtcdProcess {
  /** `http://127.0.0.1:PORT`. */
  readonly endpoint: string;
  /** `127.0.0.1:PORT`, for state URLs. */
  readonly hostPort: string;
  /** Kills it (SIGKILL) and waits for it to exit; the data directory is kept. */
  kill(): Promise<void>;
  /** Starts it again on the same ports and data, once it was killed; resolves once healthy. */
  restart(): Promise<void>;
  /** Kills it and removes its data. */
  dispose(): Promise<void>;
}

/** Starts etcd and resolves once it answers its health endpoint (bounded wait). */
export async function startEtcd(): Promise<EtcdProcess> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cosi-etcd-'));
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  let child: ChildProcess | undefined;
  const start = async (): Promise<void> => {
    const started = spawn(
      ETCD_BINARY,
      [
        '--name',
        'cosi-test',
        '--data-dir',
        dir,
        '--listen-client-urls',
        endpoint,
        '--advertise-client-urls',
        endpoint,
        '--listen-peer-urls',
        peer,
        '--initial-advertise-peer-urls',
        peer,
        '--initial-cluster',
        `cosi-test=${peer}`,
        '--log-level',
        'error',
      ],
      { stdio: 'ignore' },
    );
    child = started;
    await waitFor(async () => {
      if (started.exitCode !== null) throw new Error(`etcd exited with ${started.exitCode}`);
      return healthy(endpoint);
    }, 20_000);
  };
  const kill = async (): Promise<void> => {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGKILL');
    await exited;
  };
  await start();
  return {
    endpoint,
    hostPort: `127.0.0.1:${clientPort}`,
    kill,
    restart: start,
    dispose: async () => {
      await kill();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function healthy(endpoint: string): Promise<boolean> {
  try {
    const response = await fetch(`${endpoint}/health`);
    const body = (await response.json()) as { health?: string };
    return body.health === 'true';
  } catch {
    return false;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}
