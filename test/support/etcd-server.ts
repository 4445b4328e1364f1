/**
 * A real etcd for tests: one process per caller, on loopback ports picked by binding port 0,
 * with a fresh temporary data directory. `restart()` stops the process and starts it again on
 * the same data directory and ports, so a test can take etcd away mid-run and bring it back.
 *
 * A port picked free can be taken before etcd binds it (by another test file's etcd, or any
 * connection's ephemeral port): etcd then exits saying the address is in use, and is started
 * again on other ports. Each etcd has a name of its own, and is ready only once the etcd that
 * answers on its port says that name: never another etcd that holds the port.
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
/** How many times a first start is tried on new ports when the ones picked were taken. */
const PORT_ATTEMPTS = 5;

/** What etcd says when a port it was given is taken. */
const ADDRESS_IN_USE = /address already in use/;

let started = 0;

/** A loopback port free now: bound to port 0, then closed. */
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

/** Whether the etcd answering at `endpoint` is the one member named `name`. */
async function answersAs(endpoint: string, name: string): Promise<boolean> {
  const response = await fetch(`${endpoint}/v3/cluster/member/list`, {
    method: 'POST',
    body: '{}',
    signal: AbortSignal.timeout(1000),
  });
  if (!response.ok) return false;
  const body = (await response.json()) as { members?: { name?: string }[] };
  return body.members?.length === 1 && body.members[0]?.name === name;
}

/**
 * Polls `/health` until etcd reports healthy as the member `name`, the process dies, or the
 * timeout passes.
 */
async function waitHealthy(
  endpoint: string,
  name: string,
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
        if (body.health === 'true' && (await answersAs(endpoint, name))) return;
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
 * (bounded) until it answers; on other ports again when the ones picked were taken meanwhile.
 * Throws when the binary is absent; check {@link etcdAvailable}.
 */
export async function startEtcd(
  options: {
    /** Picks a free port (the test of this module gives ports it holds itself). */
    readonly pickPort?: () => Promise<number>;
  } = {},
): Promise<EtcdServer> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startEtcdOnFreePorts(options.pickPort ?? freePort);
    } catch (error) {
      const taken = error instanceof PortTakenError;
      if (!taken || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

/** etcd exited at its start because a port it was given is taken. */
class PortTakenError extends Error {}

async function startEtcdOnFreePorts(pickPort: () => Promise<number>): Promise<EtcdServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cosi-etcd-'));
  const clientPort = await pickPort();
  let peerPort = await pickPort();
  while (peerPort === clientPort) peerPort = await pickPort();
  const endpoint = `http://127.0.0.1:${String(clientPort)}`;
  const peer = `http://127.0.0.1:${String(peerPort)}`;
  const name = `cosi-test-${String(process.pid)}-${String(++started)}`;
  const args = [
    '--name',
    name,
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
    `${name}=${peer}`,
    '--initial-cluster-state',
    'new',
    '--log-level',
    'error',
  ];
  let child: ChildProcess | undefined;
  /** Settles once the running process has exited and its output has been read to the end. */
  let closed: Promise<void> = Promise.resolve();
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
    closed = new Promise((resolve) => {
      spawned.once('close', () => resolve());
      spawned.once('error', () => resolve());
    });
    const spawnError = new Promise<never>((_, reject) => spawned.once('error', reject));
    child = spawned;
    await Promise.race([waitHealthy(endpoint, name, spawned, () => output), spawnError]);
  };

  const kill = async (): Promise<void> => {
    if (child !== undefined) await killChild(child);
  };

  try {
    await start();
  } catch (error) {
    await kill();
    await rm(dataDir, { recursive: true, force: true });
    // What it wrote last may come after its exit: read to the end before deciding why it failed.
    await closed;
    if (ADDRESS_IN_USE.test(output))
      throw new PortTakenError(`a port etcd was given is taken:\n${output}`);
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
