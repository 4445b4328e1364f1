import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { newResource } from '../../src/engine/resource/resource.js';
import { createEtcdState } from '../../src/state-etcd/etcd-state.js';
import { closedPort } from '../support/closed-port.js';
import { useEtcdClient } from '../support/etcd-client.js';
import { etcdAvailable } from '../support/etcd-server.js';
import { exitWithin, spawnCosi, type CosiProcess } from '../support/cosi-process.js';
import { startSilentServer, type SilentServer } from '../support/silent-server.js';
import { REPO } from './run-cli.js';

/**
 * etcd faults as users meet them, with the built CLI (dist/): an endpoint that accepts
 * connections and never answers.
 */
describe('an etcd endpoint that never answers', () => {
  let silent: SilentServer;
  let dir: string;
  const processes: CosiProcess[] = [];

  beforeAll(async () => {
    silent = await startSilentServer();
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-etcd-faults-'));
    await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
  });
  afterEach(async () => {
    for (const p of processes.splice(0)) {
      p.kill('SIGKILL');
      await p.exited;
    }
  });
  afterAll(async () => {
    await silent.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('get --state fails with one line, exit 2, once the request timeout has passed', async () => {
    const p = spawnCosi([
      'get',
      'vm',
      '--state',
      `etcd://${silent.address}`,
      '--request-timeout',
      '1s',
    ]);
    processes.push(p);
    // Node's start and loading gRPC come on top of the 1 s: bounded, not exact.
    expect(await exitWithin(p, 15_000)).toBe(2);
    expect(p.stderr()).toBe(
      `cosi: etcd at ${silent.address} did not answer within 1s (--request-timeout): the connection opened, so something listens there (a member stopped or overloaded?): check that etcd is healthy (etcdctl endpoint health), or raise --request-timeout\n`,
    );
  }, 30_000);

  it('get and graph --state on a closed port: one plain line, exit 2, no gRPC text', async () => {
    const port = await closedPort();
    for (const args of [
      ['get', 'vm'],
      ['graph', '--resources'],
    ]) {
      const p = spawnCosi([...args, '--state', `etcd://127.0.0.1:${port}/x`]);
      processes.push(p);
      expect(await exitWithin(p, 20_000)).toBe(2);
      expect(p.stderr()).toBe(
        `cosi: cannot reach etcd at 127.0.0.1:${port}: connection refused (nothing listens on that port): check that etcd runs there and the --state URL\n`,
      );
    }
  }, 60_000);

  it('run exits promptly on SIGTERM while its start waits for etcd', async () => {
    // A long request timeout: the start is still waiting when the signal comes.
    const before = silent.connections;
    const p = spawnCosi([
      'run',
      '-f',
      dir,
      '--state',
      `etcd://${silent.address}/signal`,
      '--request-timeout',
      '60s',
    ]);
    processes.push(p);
    await p.waitUntil(() => silent.connections > before, 20_000, 'a connection to the silent etcd');
    p.kill('SIGTERM');
    // Promptly: long before the 60 s request timeout would end the wait, with room for a loaded
    // machine.
    expect(await exitWithin(p, 15_000)).toBe(0);
    expect(p.stderr()).toMatch(/shutting down \(SIGTERM\) before it started/);
  }, 40_000);

  it('run says in one line that etcd cannot be reached once the connect timeout has passed: exit 2', async () => {
    const p = spawnCosi([
      'run',
      '-f',
      dir,
      '--state',
      `etcd://${silent.address}/start`,
      '--connect-timeout',
      '1s',
    ]);
    processes.push(p);
    expect(await exitWithin(p, 20_000)).toBe(2);
    expect(p.stderr().trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^\S+Z ERROR etcd at [\d.:]+ did not answer within 1s \(--connect-timeout\): the connection opened, so something listens there \(a member stopped or overloaded\?\): check that etcd is healthy \(etcdctl endpoint health\), or raise --connect-timeout code=etcd-unreachable$/,
      ),
    ]);
  }, 30_000);
});

describe.skipIf(!etcdAvailable)('get --state with a corrupt value in etcd', () => {
  const etcd = useEtcdClient();
  const prefix = '/corrupt-cli';
  const url = (): string => `etcd://${etcd.server.endpoint.replace(/^http:\/\//, '')}${prefix}`;

  beforeAll(async () => {
    const state = createEtcdState({ endpoints: [etcd.server.endpoint], prefix });
    try {
      await state.create(newResource({ namespace: 'default', type: 'VMs.t', id: 'good' }, {}));
      await state.create(newResource({ namespace: 'default', type: 'Hosts.t', id: 'h1' }, {}));
    } finally {
      await state.close();
    }
    await etcd.client.put(`${prefix}/default/VMs.t/r/bad`).value(Buffer.from('\u001b[2J{not json'));
  });

  it('shows the other types, and says which key it left out, escaped', async () => {
    const p = spawnCosi(['get', 'Hosts.t', '--state', url(), '-o', 'name']);
    expect(await exitWithin(p, 20_000)).toBe(0);
    expect(p.stderr()).toMatch(
      /^cosi: --state etcd:\/\/.*\/corrupt-cli: VMs\.t in default left out: etcd key "\/corrupt-cli\/default\/VMs\.t\/r\/bad" holds no cosi resource: .*\\x1b\[2J/,
    );
    expect(p.stderr()).not.toContain('\u001b');
  }, 30_000);

  it('fails a get of the type the corrupt value belongs to: 2, the state cannot be read', async () => {
    const p = spawnCosi(['get', 'VMs.t', '--state', url()]);
    expect(await exitWithin(p, 20_000)).toBe(2);
    expect(p.stderr()).toContain('holds no cosi resource');
  }, 30_000);

  it('says a prefix that holds nothing (a mistyped one) holds nothing, before the unknown type', async () => {
    const empty = url().replace(/\/corrupt-cli$/, '/corupt-cli');
    const p = spawnCosi(['get', 'VMs.t', '--state', empty]);
    expect(await exitWithin(p, 20_000)).not.toBe(0);
    expect(p.stderr()).toMatch(
      /^cosi: --state etcd:\/\/.*\/corupt-cli holds nothing cosi wrote: is the prefix the one `cosi run --state` was given\?\n/,
    );
  }, 30_000);

  it('fails a get -w of that type with 2 as well', async () => {
    const p = spawnCosi(['get', 'VMs.t', '-w', '--state', url()]);
    expect(await exitWithin(p, 20_000)).toBe(2);
    expect(p.stderr()).toContain('holds no cosi resource');
  }, 30_000);
});

describe.skipIf(!etcdAvailable)("run with a resource over etcd's request limit", () => {
  const etcd = useEtcdClient();
  let dir: string;
  let p: CosiProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-too-large-'));
    await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
    // 1.6 MB: over etcd's 1.5 MiB default --max-request-bytes.
    await writeFile(
      path.join(dir, 'big.yaml'),
      `metadata: { type: vm, id: big }\nspec: { cpus: 1, image: ${'x'.repeat(1_600_000)}, host: node-a }\n`,
    );
  });
  afterAll(async () => {
    p?.kill('SIGKILL');
    await p?.exited;
    await rm(dir, { recursive: true, force: true });
  });

  it('is a finding at its manifest, and the rest applies', async () => {
    const url = `etcd://${etcd.server.endpoint.replace(/^http:\/\//, '')}/too-large`;
    p = spawnCosi(['run', '-f', dir, '--state', url]);
    await p.waitForLine(/applied 5 resources \(5 created/);
    await p.waitForLine(/1 resource not applied: too large for the state/);
    expect(p.stderr()).toMatch(
      /big\.yaml:1:1.*too-large-for-state|too-large-for-state.*big\.yaml:1:1/s,
    );
    const keys = await etcd.client.getAll().prefix('/too-large/').keys();
    expect(keys.some((key) => key.endsWith('/r/web-1'))).toBe(true);
    expect(keys.some((key) => key.endsWith('/r/big'))).toBe(false);
  }, 60_000);

  it('one that grows over it keeps its last applied version, in this run and the next; once its manifest goes, a run prunes it', async () => {
    const project = await mkdtemp(path.join(tmpdir(), 'cosi-too-large-grown-'));
    try {
      await cp(path.join(REPO, 'fixtures/vm-network'), project, { recursive: true });
      const big = path.join(project, 'big.yaml');
      const vm = (image: string): string =>
        `metadata: { type: vm, id: big }\nspec: { cpus: 1, image: ${image}, host: node-a }\n`;
      const url = `etcd://${etcd.server.endpoint.replace(/^http:\/\//, '')}/too-large-grown`;
      const stored = async (): Promise<string | null> => {
        const keys = await etcd.client.getAll().prefix('/too-large-grown/').keys();
        const key = keys.find((k) => k.includes('/VMs.example.org/') && k.endsWith('/r/big'));
        return key === undefined ? null : etcd.client.get(key).string();
      };
      await writeFile(big, vm('alpine'));
      p = spawnCosi(['run', '-f', project, '--state', url, '--watch']);
      await p.waitForLine(/applied 6 resources \(6 created/);
      // Grown over the limit while running: not applied, and the one applied before stays.
      await writeFile(big, vm('x'.repeat(1_600_000)));
      await p.waitForLine(/1 resource not applied: too large for the state/);
      expect(p.stderr()).toMatch(/applied 5 resources \(0 created, 0 updated, 0 removed\)/);
      expect(await stored()).toContain('"image":"alpine"');
      p.kill('SIGTERM');
      expect(await p.exited).toBe(0);

      // The next run, on the same manifests, leaves it too (the applied set still has it).
      p = spawnCosi(['run', '-f', project, '--state', url]);
      await p.waitForLine(/1 resource not applied: too large for the state/);
      expect(p.stderr()).toMatch(/applied 5 resources \(0 created, 0 updated, 0 removed\)/);
      expect(await stored()).toContain('"image":"alpine"');
      p.kill('SIGTERM');
      expect(await p.exited).toBe(0);

      // Its manifest gone: the next run prunes it, as any resource the last run applied.
      await rm(big);
      p = spawnCosi(['run', '-f', project, '--state', url]);
      await p.waitForLine(/applied 5 resources \(0 created, 0 updated, 1 removed\)/);
      await p.waitUntil(async () => (await stored()) === null, 30_000, 'big destroyed');
      p.kill('SIGTERM');
      expect(await p.exited).toBe(0);
    } finally {
      await rm(project, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.skipIf(!etcdAvailable)('run with another config than the state is served with', () => {
  const etcd = useEtcdClient();
  const dirs: string[] = [];
  const running: CosiProcess[] = [];

  const project = async (edit: (config: string) => string): Promise<string> => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-fingerprint-'));
    dirs.push(dir);
    await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
    const file = path.join(dir, 'cosi.config.ts');
    await writeFile(file, edit(await readFile(file, 'utf8')));
    return dir;
  };
  afterAll(async () => {
    for (const p of running) p.kill('SIGKILL');
    await Promise.all(running.map((p) => p.exited));
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('refuses to lead after the leader of the other config died, and says why', async () => {
    const url = `etcd://${etcd.server.endpoint.replace(/^http:\/\//, '')}/fingerprint`;
    const start = (dir: string): CosiProcess => {
      const p = spawnCosi(['run', '-f', dir, '--state', url, '--lease-ttl', '2s']);
      running.push(p);
      return p;
    };
    const a = start(await project((config) => config));
    await a.waitForLine(/elected leader/);
    const b = start(
      await project((config) =>
        config.replace(
          'controllers: [createVMNetController(), createPlacementController()]',
          'controllers: [createVMNetController()]',
        ),
      ),
    );
    await b.waitForLine(/applied 5 resources/);
    a.kill('SIGKILL');
    await a.exited;
    expect(await exitWithin(b, 30_000)).toBe(1);
    expect(b.stderr()).toMatch(
      /shutting down \(could not lead: the state is served with another config \(controllers -PlacementController;/,
    );
    expect(b.stderr()).toMatch(
      /etcdctl del \/fingerprint\/fingerprint\) code=fingerprint-mismatch$/m,
    );
    expect(b.stderr()).not.toMatch(/elected leader/);
  }, 60_000);

  it("refuses to lead when only the controllers the config's setup registers differ", async () => {
    const url = `etcd://${etcd.server.endpoint.replace(/^http:\/\//, '')}/fingerprint-setup`;
    const start = (dir: string): CosiProcess => {
      const p = spawnCosi(['run', '-f', dir, '--state', url, '--lease-ttl', '2s']);
      running.push(p);
      return p;
    };
    const a = start(await project((config) => config));
    await a.waitForLine(/elected leader/);
    // The same config's controllers; its setup registers none.
    const b = start(
      await project((config) => config.replace('setup: setupHostStatusController,', '')),
    );
    await b.waitForLine(/applied 5 resources/);
    a.kill('SIGKILL');
    await a.exited;
    expect(await exitWithin(b, 30_000)).toBe(1);
    expect(b.stderr()).toMatch(
      /could not lead: the state is served with another config \(controllers -HostStatusController;/,
    );
    expect(b.stderr()).not.toMatch(/elected leader/);
  }, 60_000);
});
