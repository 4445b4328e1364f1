import { Etcd3 } from 'etcd3';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runProject } from '../../src/app/run-project.js';
import { pointerKey } from '../../src/engine/resource/pointer.js';
import type { Resource } from '../../src/engine/resource/resource.js';
import { takeSnapshot } from '../../src/engine/state/state-snapshot.js';
import { createEtcdState } from '../../src/state-etcd/etcd-state.js';
import { definitionResource } from '../../src/app/definition-resource.js';
import { createDefinition } from '../../src/engine/resource/definition.js';
import { runRuntime } from '../../src/cli/commands/run.js';
import type { CliIo } from '../../src/cli/io.js';
import type { FileEvent } from '../../src/app/file-events.js';
import { exitWithin, spawnCosi, type CosiProcess } from '../support/cosi-process.js';
import { startTcpProxy } from '../support/tcp-proxy.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { waitFor } from '../support/wait-for.js';
import { cli, REPO } from './run-cli.js';

/** A project whose controller writes every 200 ms. */
const TICKER = path.join(REPO, 'fixtures/cli/ticker');

/**
 * `cosi run` as processes on a real etcd: the built CLI (dist/), as a user starts it. Every wait
 * is for a condition (a stderr line, the state in etcd), bounded; none is a fixed sleep.
 */
describe.skipIf(!etcdAvailable)('cosi run on etcd (real processes)', () => {
  let etcd: EtcdServer;
  let dir: string;
  let processes: CosiProcess[] = [];
  let prefixCount = 0;
  let prefix: string;

  beforeAll(async () => {
    etcd = await startEtcd();
  }, 60_000);
  afterAll(async () => {
    await etcd.stop();
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-run-'));
    await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
    prefix = `/run-test-${++prefixCount}`;
  });
  afterEach(async () => {
    for (const p of processes) p.kill('SIGKILL');
    await Promise.all(processes.map((p) => p.exited));
    processes = [];
    await rm(dir, { recursive: true, force: true });
  });

  const stateUrl = (): string => `etcd://${etcd.endpoint.replace(/^http:\/\//, '')}${prefix}`;
  const start = (ttl: string): CosiProcess => {
    const p = spawnCosi(['run', '-f', dir, '--state', stateUrl(), '--watch', '--lease-ttl', ttl]);
    processes.push(p);
    return p;
  };

  it('two processes: one leads; killed, the other takes over and converges an edit, nothing lost or duplicated', async () => {
    const a = start('4s');
    await a.waitForLine(/elected leader/);
    const b = start('4s');
    await b.waitForLine(/applied 5 resources/);
    // b waits as a candidate: it never said it leads while a lives.
    await waitFor(() => electionKeys().then((keys) => keys.length === 2), 20_000, 'two candidates');
    expect(b.stderr()).not.toMatch(/elected leader/);
    await expectConverged(await singleRun());

    a.kill('SIGKILL');
    await a.exited;
    // An edit while nobody leads: b (watching) applies it, then leads once a's lease expired.
    const vms = path.join(dir, 'vms.yaml');
    await writeFile(
      vms,
      (await readFile(vms, 'utf8')).replace('cpus: 6', 'cpus: 3') +
        '---\nmetadata: { type: vm, id: web-3 }\nspec: { cpus: 1, image: debian, host: node-b }\n',
    );
    await b.waitForLine(/applied 6 resources \(1 created, 1 updated/);
    await b.waitForLine(/elected leader/, 20_000);
    await expectConverged(await singleRun());

    // The running system, read without running the project: get and graph --resources.
    const got = await cli(['get', 'vm', '--state', stateUrl(), '-o', 'name']);
    expect(got).toMatchObject({ code: 0, stderr: '' });
    expect(got.stdout.split('\n').filter(Boolean)).toEqual([
      'vms.example.org/db-1',
      'vms.example.org/web-1',
      'vms.example.org/web-2',
      'vms.example.org/web-3',
    ]);
    const graph = await cli([
      'graph',
      '-f',
      dir,
      '--resources',
      '--state',
      stateUrl(),
      '-o',
      'json',
    ]);
    expect(graph.code).toBe(0);
    expect(graph.stdout).toContain('web-3');

    b.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(b.stderr()).toMatch(/shutting down \(SIGTERM\)/);
    // Its lease was revoked at shutdown: no candidate is left in the election.
    expect(await electionKeys()).toEqual([]);
  }, 120_000);

  it('a leader whose lease is revoked stops at once (its election key is deleted), never says it follows, exits 4', async () => {
    // A long TTL: the keep-alive (every third of it, 20 s) cannot be what tells the leader, and
    // the follower, elected the moment the key goes, must not run beside it until then.
    const a = start('60s');
    await a.waitForLine(/elected leader/);
    const b = start('60s');
    await waitFor(() => electionKeys().then((keys) => keys.length === 2), 20_000, 'two candidates');
    const client = new Etcd3({ hosts: etcd.endpoint });
    try {
      // The lease of a, the leader: its key is the one created first; its name is the lease id.
      const keys = await client
        .getAll()
        .prefix(`${prefix}/election/`)
        .sort('Create', 'Ascend')
        .keys();
      await client.leaseClient.leaseRevoke({ ID: keys[0]?.split('/').pop() ?? '' });
    } finally {
      client.close();
    }
    expect(await exitWithin(a, 15_000)).toBe(4);
    expect(a.stderr()).toMatch(
      /ERROR shutting down \(lost leadership: the lease was revoked or has expired: this leader's election key \S+ was deleted; exiting with 4 to be restarted\) code=leadership-lost$/m,
    );
    expect(a.stderr()).not.toMatch(/following /);
    await b.waitForLine(/elected leader/);
  }, 60_000);

  it('waits for an etcd that starts after it, within --connect-timeout, then leads', async () => {
    // As under systemd or in a pod, where cosi and etcd start together: etcd is not there yet.
    await etcd.kill();
    let a: CosiProcess;
    try {
      a = spawnCosi(['run', '-f', dir, '--state', stateUrl(), '--connect-timeout', '60s']);
      processes.push(a);
      await a.waitForLine(
        /INFO {2}waiting for etcd at [\d.:]+: connection refused \(nothing listens on that port\); trying again until --connect-timeout \(1m\) has passed$/,
        20_000,
      );
    } finally {
      await etcd.start();
    }
    await a.waitForLine(/elected leader/, 30_000);
    await expectConverged(await singleRun());
    expect(a.stderr()).not.toMatch(/ERROR/);
    a.kill('SIGTERM');
    expect(await a.exited).toBe(0);
  }, 90_000);

  it('a follower cut off from etcd past its lease campaigns again on a new lease, and leads once the leader stops', async () => {
    // The follower's lease is short (it must expire while cut off); the leader's is not: it stays
    // leader throughout, and a 2 s lease gives up after 1.33 s without a renewal, a stall a loaded
    // machine can have. It hands over by its clean stop (its lease revoked), never by expiry.
    const a = start('10s');
    await a.waitForLine(/elected leader/);
    const proxy = await startTcpProxy(etcd.endpoint);
    try {
      const url = `etcd://${proxy.endpoint.replace(/^http:\/\//, '')}${prefix}`;
      const b = spawnCosi(['run', '-f', dir, '--state', url, '--watch', '--lease-ttl', '2s']);
      processes.push(b);
      await b.waitForLine(/following /);
      await waitFor(
        () => electionKeys().then((keys) => keys.length === 2),
        20_000,
        'two candidates',
      );
      const [first] = await electionKeys();

      // Cut off for longer than its lease: etcd deletes its key, and it hears of it.
      proxy.cut();
      await waitFor(
        () => electionKeys().then((keys) => keys.length === 1 && keys[0] === first),
        20_000,
        "the follower's key to expire",
      );
      const lostLine = await b.waitForLine(/lost its place in the election/, 20_000);
      expect(lostLine).toMatch(
        /WARN {2}lost its place in the election: (its lease expired or was revoked \(etcd unreachable, or this process paused, for longer than the 2s TTL\)|etcd unreachable at [\d.:]+(: [^;]+)?); it did not lead, and campaigns again on a new lease in \d+(\.\d+)?m?s code=candidacy-lost$/,
      );
      proxy.restore();

      // Back in the election, on a new lease: a key of its own again, after the leader's.
      await b.waitUntil(
        () => electionKeys().then((keys) => keys.length === 2 && keys[0] === first),
        30_000,
        'the follower to campaign again',
      );
      a.kill('SIGTERM');
      expect(await a.exited).toBe(0);
      await b.waitForLine(/elected leader/, 20_000);
      await expectConverged(await singleRun());
      expect(b.stderr()).not.toMatch(/could not lead|shutting down|ERROR| is expired or revoked/);
      b.kill('SIGTERM');
      expect(await b.exited).toBe(0);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('a stop while etcd does not answer takes --request-timeout, warns of what it left in etcd, and says stopped last', async () => {
    const a = spawnCosi([
      'run',
      '-f',
      dir,
      '--state',
      stateUrl(),
      '--lease-ttl',
      '4s',
      '--request-timeout',
      '1s',
    ]);
    processes.push(a);
    await a.waitForLine(/converged in/);
    const pid = etcd.pid ?? 0;
    process.kill(pid, 'SIGSTOP');
    try {
      a.kill('SIGTERM');
      expect(await exitWithin(a, 20_000)).toBe(0);
    } finally {
      process.kill(pid, 'SIGCONT');
    }
    const lines = a.stderr().trimEnd().split('\n');
    const stop = lines.slice(lines.findIndex((l) => l.includes('shutting down (SIGTERM)')));
    expect(stop).toEqual([
      expect.stringMatching(/INFO {2}shutting down \(SIGTERM\)$/),
      expect.stringMatching(
        new RegExp(
          `WARN {2}could not remove ${prefix}/fingerprint \\(etcd at [\\d.:]+ did not answer within 1000 ms \\(--request-timeout\\)\\): a process with another config will refuse to lead on this state until it is removed; once no process of this config runs: etcdctl del ${prefix}/fingerprint code=release-failed$`,
        ),
      ),
      expect.stringMatching(
        /WARN {2}could not revoke the election lease \(etcd at [\d.:]+ did not answer within 1000 ms \(--request-timeout\)\): this process's election key stays in etcd until the lease expires, within 4s, and no other process leads until then code=release-failed$/,
      ),
      expect.stringMatching(/INFO {2}stopped$/),
    ]);
    // Whether the fingerprint is still there once etcd resumes is not the process's to say: a
    // delete it had already sent when etcd froze is applied when etcd goes on. What it says is
    // that it could not make sure of it, which the lines above check.
  }, 60_000);

  it('get -w --state says once when its watch has lost etcd for a while, and when it watches again', async () => {
    const a = start('10s');
    await a.waitForLine(/converged in/);
    const proxy = await startTcpProxy(etcd.endpoint);
    try {
      const url = `etcd://${proxy.endpoint.replace(/^http:\/\//, '')}${prefix}`;
      const g = spawnCosi(['get', 'vm', '--state', url, '-w'], REPO, { stdout: true });
      processes.push(g);
      await g.waitForStdout((out) => out.includes('web-1'));
      // Its watch is open once it shows a change (the listing comes before).
      const vms = path.join(dir, 'vms.yaml');
      await writeFile(vms, (await readFile(vms, 'utf8')).replace('cpus: 6', 'cpus: 5'));
      await g.waitForStdout((out) => /db-1 .* 5 /.test(out));
      proxy.cut();
      const lost = await g.waitForLine(/lost the watch of etcd/, 30_000);
      expect(lost).toMatch(
        /^cosi: --state etcd:\/\/[\d.:]+\/run-test-\d+: lost the watch of etcd: etcd unreachable at [\d.:]+(: [^;]+)?; reconnecting \(no change is missed: the watch resumes where it stopped\)$/,
      );
      proxy.restore();
      await g.waitForLine(/^cosi: --state \S+: watching again: etcd is back$/, 60_000);
      // Said once each.
      expect(g.stderr().match(/lost the watch/g)).toHaveLength(1);
      g.kill('SIGINT');
      expect(await g.exited).toBe(0);
    } finally {
      await proxy.close();
    }
  }, 120_000);

  it('get -w --state says it has lost etcd when the connection goes silent (a partition that drops packets, a hung etcd), not only when it is refused', async () => {
    const a = start('10s');
    await a.waitForLine(/converged in/);
    const proxy = await startTcpProxy(etcd.endpoint);
    try {
      const url = `etcd://${proxy.endpoint.replace(/^http:\/\//, '')}${prefix}`;
      const g = spawnCosi(['get', 'vm', '--state', url, '-w'], REPO, { stdout: true });
      processes.push(g);
      await g.waitForStdout((out) => out.includes('web-1'));
      const vms = path.join(dir, 'vms.yaml');
      await writeFile(vms, (await readFile(vms, 'utf8')).replace('cpus: 6', 'cpus: 5'));
      await g.waitForStdout((out) => /db-1 .* 5 /.test(out));
      // Nothing refused, nothing closed: the watch only hears nothing more. Its keep-alive ping
      // (10 s apart, 5 s to answer) finds the connection dead; 5 s later it is said.
      proxy.freeze();
      await g.waitForLine(/^cosi: --state \S+: lost the watch of etcd: .*; reconnecting/, 40_000);
      proxy.thaw();
      await g.waitForLine(/^cosi: --state \S+: watching again: etcd is back$/, 60_000);
      // Nothing was missed meanwhile.
      await writeFile(vms, (await readFile(vms, 'utf8')).replace('cpus: 5', 'cpus: 4'));
      await g.waitForStdout((out) => /db-1 .* 4 /.test(out));
      g.kill('SIGINT');
      expect(await g.exited).toBe(0);
    } finally {
      await proxy.close();
    }
  }, 150_000);

  it('get -w --state started before anything is written waits for the first resources, as kubectl get -w', async () => {
    const g = spawnCosi(['get', 'vm', '--state', stateUrl(), '-w'], REPO, { stdout: true });
    processes.push(g);
    await g.waitForLine(/^cosi: --state \S+: watching for its first resources$/, 20_000);
    // Something else comes first (a definition of another type): it waits on for the one asked.
    const other = createEtcdState({ endpoints: [etcd.endpoint], prefix });
    try {
      await other.create(definitionResource(createDefinition({ type: 'Others.example.org' })));
    } finally {
      await other.close();
    }
    await g.waitForLine(/^cosi: --state \S+: defines no vm yet: watching for it$/, 20_000);
    const a = start('10s');
    await a.waitForLine(/elected leader/);
    await g.waitForStdout((out) => ['db-1', 'web-1', 'web-2'].every((id) => out.includes(id)));
    g.kill('SIGINT');
    expect(await g.exited).toBe(0);
    expect(g.stderr()).not.toMatch(/not registered/);

    // An in-memory state cannot be watched from another process: said as such.
    const memory = await cli(['get', 'vm', '--state', 'memory', '-w']);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toMatch(
      /^cosi: --state memory: an in-memory state lives in the process that runs the project, and another process cannot watch it/,
    );
  }, 90_000);

  it('runs the RGDs of the manifests beside the config: a kro instance is rendered on etcd', async () => {
    await rm(dir, { recursive: true, force: true });
    await cp(path.join(REPO, 'fixtures/kro-webapp'), dir, { recursive: true });
    const a = start('10s');
    await a.waitForLine(/elected leader: running 1 controller$/m, 20_000);
    await a.waitForLine(/converged in/, 20_000);
    const deployments = await cli(['get', 'deployment', '--state', stateUrl(), '-o', 'name']);
    expect(deployments.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'deployment.apps/blog',
      'deployment.apps/shop',
    ]);
    const shop = await cli(['get', 'webapp', 'shop', '--state', stateUrl(), '-o', 'json']);
    expect((JSON.parse(shop.stdout) as { status: { state: string } }).status.state).toBe('ACTIVE');
  }, 60_000);

  it('--watch: a config edit restarts leader and follower alike; one leads with the new code, the other follows', async () => {
    const a = start('5s');
    await a.waitForLine(/elected leader: running 3 controllers$/m, 20_000);
    const b = start('5s');
    await b.waitForLine(/following /, 20_000);
    await waitFor(() => electionKeys().then((keys) => keys.length === 2), 20_000, 'two candidates');
    const candidates = await electionKeys();
    const config = path.join(dir, 'cosi.config.ts');
    const original = await readFile(config, 'utf8');
    // Saved mid-edit: neither stops what runs, the leader leads on, on the same lease.
    await writeFile(config, `${original}\nexport const broken = (;\n`);
    for (const p of [a, b]) {
      await p.waitForLine(
        /ERROR not restarted: the config cannot be loaded \(the last good code keeps running\); it restarts at the next change of the files code=restart-failed$/m,
        30_000,
      );
    }
    expect(await electionKeys()).toEqual(candidates);
    for (const p of [a, b]) expect(p.stderr().split('started as ')).toHaveLength(2);
    await writeFile(config, original.replace(', createPlacementController()]', ']'));
    const restarted = (p: CosiProcess): boolean =>
      p.stderr().split('started as ').length === 3 &&
      /(elected leader: running 2 controllers|following )/.test(
        p.stderr().slice(p.stderr().lastIndexOf('started as ')),
      );
    await waitFor(
      () => restarted(a) && restarted(b),
      60_000,
      () => `A:\n${a.stderr()}\nB:\n${b.stderr()}`,
    );
    const leaders = [a, b].filter((p) =>
      p.stderr().slice(p.stderr().lastIndexOf('started as ')).includes('elected leader'),
    );
    expect(leaders).toHaveLength(1);
    // The follower's withdrawn campaign ended neither process.
    for (const p of [a, b]) expect(p.stderr()).not.toMatch(/shutting down|could not lead/);
    a.kill('SIGTERM');
    b.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(await b.exited).toBe(0);
  }, 120_000);

  it('--watch restarts the controllers on an RGD edit: instances render by the new graph, and what it no longer renders goes', async () => {
    await rm(dir, { recursive: true, force: true });
    await cp(path.join(REPO, 'fixtures/kro-webapp'), dir, { recursive: true });
    const a = start('10s');
    await a.waitForLine(/converged in/, 20_000);
    const get = async (type: string): Promise<string[]> =>
      (await cli(['get', type, '--state', stateUrl(), '-o', 'name'])).stdout
        .split('\n')
        .filter(Boolean)
        .sort();
    expect(await get('ingress')).toEqual(['ingress.networking.k8s.io/shop']);
    // The RGD's image default changed, and its Ingress template taken out.
    const rgd = path.join(dir, 'rgd.yaml');
    const text = await readFile(rgd, 'utf8');
    await writeFile(
      rgd,
      text.replace('default=nginx', 'default=httpd').slice(0, text.indexOf('    - id: ingress')),
    );
    await a.waitForLine(
      /INFO {2}the manifests' definitions changed \(.*\): restarting the controllers to load them code=restarting$/m,
      20_000,
    );
    await a.waitForLine(/code=undeclared-output$/m, 30_000);
    await waitFor(async () => (await get('ingress')).length === 0, 30_000);
    const images = async (): Promise<string[]> => {
      const listed = await cli(['get', 'deployment', '--state', stateUrl(), '-o', 'json']);
      // A list is kubectl's `kind: List`, as `apply -o json` prints it.
      const { items } = JSON.parse(listed.stdout) as {
        items: { spec: { template: { spec: { containers: { image: string }[] } } } }[];
      };
      return items.map((d) => d.spec.template.spec.containers[0]?.image ?? '');
    };
    await waitFor(async () => (await images()).every((image) => image === 'httpd'), 30_000);
    expect(await get('deployment')).toEqual(['deployment.apps/blog', 'deployment.apps/shop']);
    // Before the restart, nothing of the edit was applied with the started controllers.
    const log = a.stderr();
    const restartAt = log.indexOf('restarting the controllers');
    expect(log.slice(0, restartAt)).not.toMatch(/applied 2 resources \(0 created/);
    a.kill('SIGTERM');
    expect(await a.exited).toBe(0);
  }, 120_000);

  it('follows a nested kro instance into the namespace an outer instance writes it to, before it says converged', async () => {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    await writeFile(
      path.join(dir, 'rgds.yaml'),
      [
        'apiVersion: kro.run/v1alpha1',
        'kind: ResourceGraphDefinition',
        'metadata: { name: app.example }',
        'spec:',
        '  schema: { apiVersion: v1alpha1, kind: App, group: example.org, spec: { name: string } }',
        '  resources:',
        '    - id: cm',
        "      template: { apiVersion: v1, kind: ConfigMap, metadata: { name: '${schema.spec.name}-cfg' } }",
        '---',
        'apiVersion: kro.run/v1alpha1',
        'kind: ResourceGraphDefinition',
        'metadata: { name: outer.example }',
        'spec:',
        '  schema: { apiVersion: v1alpha1, kind: Outer, group: example.org, spec: { ns: string } }',
        '  resources:',
        '    - id: inner',
        '      template:',
        '        apiVersion: example.org/v1alpha1',
        '        kind: App',
        "        metadata: { name: '${schema.metadata.name}-inner', namespace: '${schema.spec.ns}' }",
        "        spec: { name: '${schema.metadata.name}' }",
        '---',
        'apiVersion: example.org/v1alpha1',
        'kind: Outer',
        'metadata: { name: o1 }',
        'spec: { ns: elsewhere }',
        '',
      ].join('\n'),
    );
    const a = start('10s');
    await a.waitForLine(/converged in/, 30_000);
    const configs = await cli([
      'get',
      'configmap',
      '-n',
      'elsewhere',
      '--state',
      stateUrl(),
      '-o',
      'name',
    ]);
    expect(configs.stdout.trim()).toBe('configmap/o1-cfg');
  }, 60_000);

  it('recovers when etcd restarts mid-run', async () => {
    const a = start('10s');
    await a.waitForLine(/elected leader/);
    await expectConverged(await singleRun());

    await etcd.restart();
    const vms = path.join(dir, 'vms.yaml');
    await writeFile(vms, (await readFile(vms, 'utf8')).replace('cpus: 6', 'cpus: 2'));
    await a.waitForLine(/applied 5 resources \(0 created, 1 updated/, 30_000);
    await expectConverged(await singleRun());
    // Still the same process, still leading: it never lost its lease nor exited.
    expect(a.stderr()).not.toMatch(/lost leadership|shutting down/);

    a.kill('SIGTERM');
    expect(await a.exited).toBe(0);
  }, 120_000);

  /**
   * `cosi run` in this process on `--state` through `endpoint` (a proxy the test cuts), its file
   * events and Ctrl-C driven by the test: what it logged, and its end.
   */
  const runThrough = (
    endpoint: string,
    flags: Omit<Parameters<typeof runRuntime>[2], 'state'>,
  ): {
    stderr: () => string;
    fileChanged: (event: FileEvent) => void;
    stop: () => void;
    running: ReturnType<typeof runRuntime>;
  } => {
    let stderr = '';
    let stop = (): void => undefined;
    let fileChanged = (_: FileEvent): void => undefined;
    const io: CliIo = {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t) },
      cwd: dir,
      env: {},
      isTTY: false,
      onInterrupt: (handler) => {
        stop = handler;
        return () => undefined;
      },
    };
    const state = `etcd://${endpoint.replace(/^http:\/\//, '')}${prefix}`;
    const running = runRuntime(io, [dir], { state, ...flags }, (_paths, onEvent) => {
      fileChanged = onEvent;
      return { close: () => Promise.resolve() };
    });
    return {
      stderr: () => stderr,
      fileChanged: (event) => fileChanged(event),
      stop: () => stop(),
      running,
    };
  };

  it('--watch retries an apply that failed while etcd was unreachable', async () => {
    const proxy = await startTcpProxy(etcd.endpoint);
    const h = runThrough(proxy.endpoint, { leaseTtl: '30s', watch: true });
    try {
      await waitFor(() => h.stderr().includes('elected leader'), 30_000, h.stderr);
      proxy.cut();
      const vms = path.join(dir, 'vms.yaml');
      await writeFile(vms, (await readFile(vms, 'utf8')).replace('cpus: 6', 'cpus: 2'));
      h.fileChanged({ kind: 'change', path: vms });
      await waitFor(
        () => /WARN {2}apply failed: .*\(retrying in \d+(\.\d+)?m?s\)/.test(h.stderr()),
        60_000,
        h.stderr,
      );
      // Said plainly, as at start: never the client's own text.
      const failed = h
        .stderr()
        .split('\n')
        .filter((l) => l.includes('apply failed'));
      for (const line of failed) {
        expect(line).not.toMatch(/\d+ UNAVAILABLE|circuit breaker|Resolution note|Last error/i);
      }
      proxy.restore();
      await waitFor(
        () => h.stderr().includes('applied 5 resources (0 created, 1 updated, 0 removed)'),
        60_000,
        h.stderr,
      );
      await expectConverged(await singleRun());
    } finally {
      h.stop();
      await h.running;
      await proxy.close();
    }
  }, 150_000);

  it('--watch: a restart while etcd is unreachable is tried again, and leads with the new config once etcd answers', async () => {
    const proxy = await startTcpProxy(etcd.endpoint);
    // The leader runs on while the edited config loads, cut off from etcd: a lease that outlasts
    // the load on a loaded machine (it would stop it, exit 4, as any leader cut off too long).
    const h = runThrough(proxy.endpoint, {
      leaseTtl: '6s',
      requestTimeout: '1s',
      connectTimeout: '1s',
      watch: true,
    });
    try {
      await waitFor(
        () => h.stderr().includes('elected leader: running 3 controllers'),
        30_000,
        h.stderr,
      );
      proxy.cut();
      const config = path.join(dir, 'cosi.config.ts');
      await writeFile(
        config,
        (await readFile(config, 'utf8')).replace(', createPlacementController()]', ']'),
      );
      h.fileChanged({ kind: 'change', path: config });
      // Not a config that cannot be loaded, waiting for the next edit: etcd, tried again.
      await waitFor(
        () => /WARN {2}apply failed: .*etcd.*\(retrying in \d+(\.\d+)?m?s\)/.test(h.stderr()),
        60_000,
        h.stderr,
      );
      proxy.restore();
      // Its own fingerprint, which the cut stop could not remove, does not refuse the new config.
      await waitFor(
        () => h.stderr().includes('elected leader: running 2 controllers'),
        60_000,
        h.stderr,
      );
      expect(h.stderr()).not.toMatch(/restart-failed|could not lead|shutting down/);
    } finally {
      h.stop();
      await h.running;
      await proxy.close();
    }
  }, 150_000);

  it('a leader cut off from etcd for a moment keeps its leadership, writes again at once, and its log names etcd', async () => {
    // The default lease (5 s, renewed within 3.33 s) and a project that writes every 200 ms.
    const proxy = await startTcpProxy(etcd.endpoint);
    try {
      const url = `etcd://${proxy.endpoint.replace(/^http:\/\//, '')}${prefix}`;
      const a = spawnCosi(['run', '-f', TICKER, '--state', url]);
      processes.push(a);
      await a.waitForLine(/elected leader/);
      await a.waitUntil(async () => (await tickerValue()) > 3, 20_000, 'the ticker to count');
      const key = await electionKeys();

      // A blip: cut until the leader has felt it (a write refused), then back at once.
      proxy.cut();
      await a.waitForLine(/reconcile failed/, 10_000);
      proxy.restore();

      // It writes again, for longer than the lease's TTL (25 ticks of 200 ms), as the same
      // leader: the client did not go on refusing every call for 5 s once etcd was back.
      const after = await tickerValue();
      await a.waitUntil(
        async () => (await tickerValue()) >= after + 25,
        30_000,
        'the ticker to count on after the blip',
      );
      expect(await electionKeys()).toEqual(key);
      const failures = a
        .stderr()
        .split('\n')
        .filter((l) => l.includes('reconcile failed'));
      expect(failures.length).toBeGreaterThan(0);
      for (const line of failures) {
        expect(line).toMatch(/error="etcd unreachable at 127\.0\.0\.1:\d+/);
        expect(line).not.toMatch(/circuit breaker|\d+ UNAVAILABLE|Last error/);
      }
      a.kill('SIGTERM');
      expect(await a.exited).toBe(0);
      expect(a.stderr()).not.toMatch(/lost leadership/);
    } finally {
      await proxy.close();
    }
  }, 90_000);

  /** The count of fixtures/cli/ticker's echo, read from etcd (0 before its first write). */
  async function tickerValue(): Promise<number> {
    const state = createEtcdState({ endpoints: [etcd.endpoint], prefix });
    try {
      const echo = (await takeSnapshot(state)).resources.find(
        (r) => r.metadata.type === 'Echoes.test.cosi.dev',
      );
      return (echo?.spec as { value?: number } | undefined)?.value ?? 0;
    } finally {
      await state.close();
    }
  }

  /** What one in-memory run of the project (as it is on disk now) converges to. */
  async function singleRun(): Promise<Map<string, unknown>> {
    const run = await runProject({ files: [dir], cwd: dir });
    expect(run.outcome?.report?.converged).toBe(true);
    return comparable(run.outcome?.snapshot.resources ?? []);
  }

  /** Waits (bounded) until the state in etcd holds exactly `expected`. */
  async function expectConverged(expected: Map<string, unknown>): Promise<void> {
    const state = createEtcdState({ endpoints: [etcd.endpoint], prefix });
    let last = new Map<string, unknown>();
    try {
      await waitFor(
        async () => {
          last = comparable((await takeSnapshot(state)).resources);
          return JSON.stringify([...last]) === JSON.stringify([...expected]);
        },
        30_000,
        () => 'the state on etcd to equal a single in-memory run',
      );
    } catch (error) {
      // Shows the difference rather than only the timeout.
      expect([...last]).toEqual([...expected]);
      throw error;
    } finally {
      await state.close();
    }
  }

  async function electionKeys(): Promise<string[]> {
    const client = new Etcd3({ hosts: etcd.endpoint });
    try {
      return await client.getAll().prefix(`${prefix}/election/`).keys();
    } finally {
      client.close();
    }
  }
});

/**
 * Resources by pointer, without what differs between runs: versions and generations (how many
 * writes and spec changes a run took to get there), timestamps, and the order in which concurrent
 * controllers added their finalizers (a set).
 */
function comparable(resources: readonly Resource[]): Map<string, unknown> {
  const entries = resources.map((r): [string, unknown] => {
    const {
      version: _v,
      generation: _g,
      created: _c,
      updated: _u,
      finalizers,
      ...metadata
    } = r.metadata;
    return [
      pointerKey(r.metadata),
      { metadata: { ...metadata, finalizers: [...finalizers].sort() }, spec: r.spec },
    ];
  });
  return new Map(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
