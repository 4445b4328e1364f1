/**
 * A real etcd for tests: one process per caller, on loopback ports picked by binding port 0,
 * with a fresh temporary data directory. `restart()` stops the process and starts it again on
 * the same data directory and ports, so a test can take etcd away mid-run and bring it back.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where the etcd binary is looked up; `ETCD_BIN` overrides it. */
const ETCD_BIN = process.env['ETCD_BIN'] ?? 'etcd';

/** Whether an etcd binary can be run here; etcd tests skip only when this is false. */
export const etcdAvailable: boolean = (() => {
  const probe = spawnSync(ETCD_BIN, ['--version'], { stdio: 'ignore' });
  return probe.error === undefined && probe.status === 0;
})();

/** A running etcd started by {@link startEtcd}. */
export interface EtcdServer {
  /** The client URL, e.g. `http://127.0.0.1:40123`. */
  readonly endpoint: string;
  /** The data directory (removed by `stop()`). */
  readonly dataDir: string;
  /** The process id of the running etcd (for benchmarks that read its CPU time). */
  readonly pid: number | undefined;
  /** Kills etcd and removes its data directory. Safe to call more than once. */
  stop(): Promise<void>;
  /** Kills etcd (keeping its data) without starting it again; `start()` brings it back. */
  kill(): Promise<void>;
  /** Starts etcd again on the same data directory and ports after `kill()`. */
  start(): Promise<void>;
  /** `kill()` then `start()`: the same data, the same endpoint. */
  restart(): Promise<void>;
}

/** How long to wait for etcd to answer after it is spawned. */
const READY_TIMEOUT_MS = 20_000;
/** How long to wait for etcd to exit after SIGTERM before SIGKILL. */
const EXIT_TIMEOUT_MS = 5_000;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => {
        resolve(port);
      });
    });
  });
}

async function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `/health` until etcd reports healthy, the process dies, or the timeout passes. */
async function waitHealthy(
  endpoint: string,
  child: ChildProcess,
  log: () => string,
): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `etcd exited before it was ready (code ${String(child.exitCode)}):\n${log()}`,
      );
    }
    try {
      const response = await fetch(`${endpoint}/health`, { signal: AbortSignal.timeout(1000) });
      if (response.ok) {
        const body = (await response.json()) as { health?: string };
        if (body.health === 'true') return;
      }
    } catch {
      // Not listening yet: poll again.
    }
    await delay(50);
  }
  throw new Error(`etcd did not become healthy within ${String(READY_TIMEOUT_MS)}ms:\n${log()}`);
}

async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), EXIT_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts a single-member etcd on free loopback ports with a fresh data directory and waits
 * (bounded) until it answers. Throws when the binary is absent; check {@link etcdAvailable}.
 */
export async function startEtcd(): Promise<EtcdServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cosi-etcd-'));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const endpoint = `http://127.0.0.1:${String(clientPort)}`;
  const peer = `http://127.0.0.1:${String(peerPort)}`;
  const args = [
    '--name',
    'cosi-test',
    '--data-dir',
    dataDir,
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
    '--initial-cluster-state',
    'new',
    '--log-level',
    'error',
  ];
  let child: ChildProcess | undefined;
  let output = '';
  let removed = false;

  const start = async (): Promise<void> => {
    if (removed) throw new Error('etcd was stopped and its data removed');
    if (child !== undefined && child.exitCode === null && child.signalCode === null) return;
    output = '';
    const spawned = spawn(ETCD_BIN, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer): void => {
      // Keep the tail only: enough to explain a failed start.
      output = (output + chunk.toString('utf8')).slice(-8000);
    };
    spawned.stdout.on('data', keep);
    spawned.stderr.on('data', keep);
    const spawnError = new Promise<never>((_, reject) => spawned.once('error', reject));
    child = spawned;
    await Promise.race([waitHealthy(endpoint, spawned, () => output), spawnError]);
  };

  const kill = async (): Promise<void> => {
    if (child !== undefined) await killChild(child);
  };

  try {
    await start();
  } catch (error) {
    await kill();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }

  return {
    endpoint,
    dataDir,
    get pid() {
      return child?.pid;
    },
    kill,
    start,
    async restart() {
      await kill();
      await start();
    },
    async stop() {
      await kill();
      if (!removed) {
        removed = true;
        await rm(dataDir, { recursive: true, force: true });
      }
    },
  };
}
