import { Etcd3 } from 'etcd3';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newResource } from '../../src/engine/resource/resource.js';
import { takeSnapshot } from '../../src/engine/state/state-snapshot.js';
import { createEtcdState } from '../../src/state-etcd/etcd-state.js';
import { runCosi, spawnCosi, type CosiProcess } from '../support/cosi-process.js';
import { startSilentServer } from '../support/silent-server.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { cli, REPO } from './run-cli.js';

/**
 * `cosi diff` against a running system on a real etcd: `cosi run` (the built CLI) applies the
 * example project and converges it; the directory is edited; `cosi diff` shows the difference
 * and writes nothing. Waits are for conditions, bounded.
 */
describe.skipIf(!etcdAvailable)('cosi diff on etcd', () => {
  let etcd: EtcdServer;
  let dir: string;
  let run: CosiProcess | undefined;
  let prefixCount = 0;
  let prefix: string;

  beforeAll(async () => {
    etcd = await startEtcd();
  }, 60_000);
  afterAll(async () => {
    await etcd.stop();
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-diff-'));
    await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
    prefix = `/diff-test-${++prefixCount}`;
  });
  afterEach(async () => {
    run?.kill('SIGKILL');
    await run?.exited;
    run = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  const stateUrl = (): string => `etcd://${etcd.endpoint.replace(/^http:\/\//, '')}${prefix}`;

  /** `cosi run` applies the directory and its controllers write their outputs; then it stops. */
  async function applyWithRun(): Promise<void> {
    run = spawnCosi(['run', '-f', dir, '--state', stateUrl()]);
    await run.waitForLine(/applied 5 resources/);
    // Converged far enough that controllers' outputs (owned resources) are in the state.
    const state = createEtcdState({ endpoints: [etcd.endpoint], prefix });
    try {
      await run.waitUntil(
        async () => (await takeSnapshot(state)).resources.some((r) => r.metadata.owner !== ''),
        30_000,
        'a controller output in the state',
      );
    } finally {
      await state.close();
    }
    run.kill('SIGTERM');
    expect(await run.exited).toBe(0);
  }

  /** Every key under the prefix with its value and revisions, and etcd's revision: any write shows. */
  async function etcdContents(): Promise<{ revision: string; keys: Record<string, string> }> {
    const client = new Etcd3({ hosts: etcd.endpoint });
    try {
      const response = await client.getAll().prefix(prefix).exec();
      const keys: Record<string, string> = {};
      for (const kv of response.kvs) {
        keys[kv.key.toString()] = `${kv.mod_revision}:${kv.value.toString()}`;
      }
      return { revision: response.header.revision, keys };
    } finally {
      client.close();
    }
  }

  it("shows a manifest's edited owner reference and one it dropped, which a new run applies and removes", async () => {
    const project = path.join(dir, 'owned');
    await mkdir(project);
    const manifest = path.join(project, 'configmaps.yaml');
    const child = (reference: string): string =>
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: parent, namespace: default }',
        'data: { a: "1" }',
        '---',
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata:',
        '  name: child',
        '  namespace: default',
        reference,
        'data: { b: "2" }',
        '',
      ].join('\n');
    const owned = (extra: string): string =>
      `  ownerReferences:\n    - { apiVersion: v1, kind: ConfigMap, name: parent, uid: 00000000-0000-0000-0000-000000000001${extra} }`;
    const applyAll = async (): Promise<void> => {
      run = spawnCosi(['run', '-f', project, '--state', stateUrl()]);
      await run.waitForLine(/applied 2 resources/);
      run.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      run = undefined;
    };
    const diff = () => cli(['diff', '-f', project, '--state', stateUrl()]);
    await writeFile(manifest, child(owned('')));
    await applyAll();
    expect((await diff()).code).toBe(0);

    // Made the controller reference: run writes it, and diff shows it, as kubectl prints it.
    await writeFile(manifest, child(owned(', controller: true')));
    const edited = await diff();
    expect(edited.stderr).toBe('cosi: 0 to create, 1 to change, 0 to remove\n');
    expect(edited.code).toBe(1);
    expect(edited.stdout).toContain('       kind: ConfigMap\n       name: parent\n');
    expect(edited.stdout).toMatch(/\n {7}uid: [0-9a-f-]{36}\n\+ {6}controller: true\n/);
    await applyAll();
    expect(await diff()).toMatchObject({ code: 0, stdout: '' });

    // Dropped from the manifest: the applied set recorded the owner the last run's manifest
    // named, so diff shows the reference going and a new run removes it.
    await writeFile(manifest, child(''));
    const dropped = await diff();
    expect(dropped.stderr).toBe('cosi: 0 to create, 1 to change, 0 to remove\n');
    expect(dropped.code).toBe(1);
    expect(dropped.stdout).toMatch(
      /\n- {2}ownerReferences:\n- {4}- apiVersion: v1\n- {6}kind: ConfigMap\n/,
    );
    await applyAll();
    const state = createEtcdState({ endpoints: [etcd.endpoint], prefix });
    try {
      const stored = (await takeSnapshot(state)).resources.find((r) => r.metadata.id === 'child');
      expect(stored?.metadata.ownerReferences).toEqual([]);
    } finally {
      await state.close();
    }
    expect(await diff()).toMatchObject({ code: 0, stdout: '' });
  });

  it("shows a Kubernetes kind's status its manifest set and dropped, which a new run removes", async () => {
    const project = path.join(dir, 'status');
    await mkdir(project);
    const manifest = path.join(project, 'deployment.yaml');
    const deployment = (status: string): string =>
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: { name: web, namespace: default }',
        'spec:',
        '  selector: { matchLabels: { app: web } }',
        '  template:',
        '    metadata: { labels: { app: web } }',
        '    spec: { containers: [{ name: web, image: nginx }] }',
        status,
        '',
      ].join('\n');
    const applyAll = async (): Promise<void> => {
      run = spawnCosi(['run', '-f', project, '--state', stateUrl()]);
      await run.waitForLine(/applied 1 resource/);
      run.kill('SIGTERM');
      expect(await run.exited).toBe(0);
      run = undefined;
    };
    const diff = () => cli(['diff', '-f', project, '--state', stateUrl()]);
    await writeFile(manifest, deployment('status: { replicas: 3 }'));
    await applyAll();
    expect((await diff()).code).toBe(0);
    await writeFile(manifest, deployment(''));
    const dropped = await diff();
    expect(dropped.stderr).toBe('cosi: 0 to create, 1 to change, 0 to remove\n');
    expect(dropped.stdout).toContain('\n-status:\n-  replicas: 3\n');
    await applyAll();
    expect(await diff()).toMatchObject({ code: 0, stdout: '' });
  });

  it('shows created, changed and removed resources, exit 1, and writes nothing', async () => {
    await applyWithRun();
    // Unchanged manifests: no change at all, though controllers' outputs are in the state.
    const same = await cli(['diff', '-f', dir, '--state', stateUrl()]);
    expect(same).toMatchObject({ code: 0, stdout: '' });
    expect(same.stderr).toBe('cosi: 0 to create, 0 to change, 0 to remove\n');
    // The same manifests on the standard input, the config named.
    const piped = await cli(['diff', '-f', '-', '--config', dir, '--state', stateUrl()], {
      stdin: `${await readFile(path.join(dir, 'hosts.yaml'), 'utf8')}---\n${await readFile(path.join(dir, 'vms.yaml'), 'utf8')}`,
    });
    expect(piped).toMatchObject({ code: 0, stdout: '' });

    const vms = path.join(dir, 'vms.yaml');
    const original = await readFile(vms, 'utf8');
    const dbAt = original.indexOf('---\nmetadata:\n  type: VMs.example.org\n  id: db-1');
    expect(dbAt).toBeGreaterThan(0);
    await writeFile(
      vms,
      original
        .slice(0, dbAt)
        .replace(
          'cpus: 2\n  image: debian\n  host: node-a',
          'cpus: 4\n  image: debian\n  host: node-a',
        ) +
        '---\nmetadata: { type: vm, id: web-3, labels: { tier: web } }\nspec: { cpus: 1, image: alpine, host: node-b }\n',
    );
    const before = await etcdContents();

    const text = await cli(['diff', '-f', dir, '--state', stateUrl()]);
    expect(text.code).toBe(1);
    expect(text.stderr).toBe('cosi: 1 to create, 1 to change, 1 to remove\n');
    expect(text.stdout).toBe(
      [
        'diff -u -N live/VMs.example.org/default/db-1 desired/VMs.example.org/default/db-1',
        '--- live/VMs.example.org/default/db-1',
        '+++ desired/VMs.example.org/default/db-1',
        '@@ -1,10 +0,0 @@',
        '-metadata:',
        '-  namespace: default',
        '-  type: VMs.example.org',
        '-  id: db-1',
        '-  labels:',
        '-    tier: data',
        '-spec:',
        '-  cpus: 6',
        '-  image: postgres',
        '-  host: node-b',
        'diff -u -N live/VMs.example.org/default/web-1 desired/VMs.example.org/default/web-1',
        '--- live/VMs.example.org/default/web-1',
        '+++ desired/VMs.example.org/default/web-1',
        '@@ -5,6 +5,6 @@',
        '   labels:',
        '     tier: web',
        ' spec:',
        '-  cpus: 2',
        '+  cpus: 4',
        '   image: debian',
        '   host: node-a',
        'diff -u -N live/VMs.example.org/default/web-3 desired/VMs.example.org/default/web-3',
        '--- live/VMs.example.org/default/web-3',
        '+++ desired/VMs.example.org/default/web-3',
        '@@ -0,0 +1,10 @@',
        '+metadata:',
        '+  namespace: default',
        '+  type: VMs.example.org',
        '+  id: web-3',
        '+  labels:',
        '+    tier: web',
        '+spec:',
        '+  cpus: 1',
        '+  image: alpine',
        '+  host: node-b',
        '',
      ].join('\n'),
    );

    const json = await cli(['diff', '-f', dir, '--state', stateUrl(), '-o', 'json']);
    expect(json.code).toBe(1);
    const entries = JSON.parse(json.stdout) as {
      type: string;
      id: string;
      namespace: string;
      action: string;
      diff: string;
    }[];
    expect(
      entries.map(({ type, id, namespace, action }) => ({ type, id, namespace, action })),
    ).toEqual([
      { type: 'VMs.example.org', id: 'db-1', namespace: 'default', action: 'remove' },
      { type: 'VMs.example.org', id: 'web-1', namespace: 'default', action: 'change' },
      { type: 'VMs.example.org', id: 'web-3', namespace: 'default', action: 'create' },
    ]);
    expect(entries[1]?.diff).toContain('\n-  cpus: 2\n+  cpus: 4\n');
    // The JSON is plain text even where the terminal output would be colored.
    const colored = await cli(['diff', '-f', dir, '--state', stateUrl()], { isTTY: true });
    expect(colored.stdout).toContain('\u001b[31m-  cpus: 2\u001b[39m');
    const coloredJson = await cli(['diff', '-f', dir, '--state', stateUrl(), '-o', 'json'], {
      isTTY: true,
    });
    expect(coloredJson.stdout).not.toContain('\u001b[');

    // Nothing was written: every key, value and revision as before, and etcd's revision too.
    expect(await etcdContents()).toEqual(before);
  }, 120_000);

  it("a removal is what a fresh run prunes: the last run's resources its manifests dropped, not others", async () => {
    await applyWithRun();
    // A resource no run applied (written by another tool): no run prunes it, no diff removes it.
    const state = createEtcdState({ endpoints: [etcd.endpoint], prefix });
    try {
      await state.create(
        newResource(
          { namespace: 'default', type: 'VMs.example.org', id: 'stray' },
          {
            cpus: 1,
            image: 'alpine',
            host: 'node-a',
          },
        ),
      );
    } finally {
      await state.close();
    }
    const vms = path.join(dir, 'vms.yaml');
    const original = await readFile(vms, 'utf8');
    const dbAt = original.indexOf('---\nmetadata:\n  type: VMs.example.org\n  id: db-1');
    await writeFile(vms, original.slice(0, dbAt));
    const before = await cli(['diff', '-f', dir, '--state', stateUrl(), '-o', 'json']);
    expect(before.code).toBe(1);
    expect(before.stderr).toBe('cosi: 0 to create, 0 to change, 1 to remove\n');
    expect(JSON.parse(before.stdout)).toMatchObject([{ id: 'db-1', action: 'remove' }]);
    // A run started on the fewer manifests prunes what the last run applied and they dropped.
    run = spawnCosi(['run', '-f', dir, '--state', stateUrl()]);
    await run.waitForLine(/applied 4 resources \(0 created, 0 updated, 1 removed\)/);
    // Torn down, then destroyed once its finalizers are gone; the stray is left alone.
    const left = createEtcdState({ endpoints: [etcd.endpoint], prefix });
    try {
      const vmIds = async (): Promise<string[]> =>
        (await takeSnapshot(left)).resources
          .filter((r) => r.metadata.type === 'VMs.example.org')
          .map((r) => r.metadata.id);
      await run.waitUntil(async () => !(await vmIds()).includes('db-1'), 30_000, 'db-1 destroyed');
      expect(await vmIds()).toEqual(['stray', 'web-1', 'web-2']);
    } finally {
      await left.close();
    }
    run.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const after = await cli(['diff', '-f', dir, '--state', stateUrl()]);
    expect(after).toMatchObject({ code: 0, stdout: '' });
    expect(after.stderr).toBe('cosi: 0 to create, 0 to change, 0 to remove\n');
  }, 120_000);

  it('COSI_EXTERNAL_DIFF runs that program on the live and desired trees, as KUBECTL_EXTERNAL_DIFF', async () => {
    await applyWithRun();
    const vms = path.join(dir, 'vms.yaml');
    const original = await readFile(vms, 'utf8');
    await writeFile(
      vms,
      original.replace(
        'cpus: 2\n  image: debian\n  host: node-a',
        'cpus: 4\n  image: debian\n  host: node-a',
      ),
    );
    const result = await cli(['diff', '-f', dir, '--state', stateUrl()], {
      env: { COSI_EXTERNAL_DIFF: 'diff -r -U0' },
    });
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(
      /^diff -r -U0 live\/VMs\.example\.org\/default\/web-1 desired\/VMs\.example\.org\/default\/web-1\n--- live\/VMs\.example\.org\/default\/web-1\t.*\n\+\+\+ desired\/VMs\.example\.org\/default\/web-1\t.*\n@@ .* @@\n- {2}cpus: 2\n\+ {2}cpus: 4\n$/,
    );
    expect(result.stderr).toBe('cosi: 0 to create, 1 to change, 0 to remove\n');

    // A program that cannot run, or that fails (above 1, as diff's trouble), is an error: exit 2,
    // as kubectl diff's; it was exit 1, "changes", with none shown.
    const missing = await cli(['diff', '-f', dir, '--state', stateUrl()], {
      env: { COSI_EXTERNAL_DIFF: 'no-such-diff-program -u' },
    });
    expect(missing).toMatchObject({ code: 2, stdout: '' });
    expect(missing.stderr).toMatch(
      /^cosi: COSI_EXTERNAL_DIFF: cannot run no-such-diff-program: .*ENOENT, so the changes were not shown \(0 to create, 1 to change, 0 to remove\)\n$/,
    );
    const failing = await cli(['diff', '-f', dir, '--state', stateUrl()], {
      env: { COSI_EXTERNAL_DIFF: 'diff --no-such-option' },
    });
    expect(failing.code).toBe(2);
    expect(failing.stderr).toMatch(
      /cosi: COSI_EXTERNAL_DIFF: diff --no-such-option exited 2, so the changes were not shown \(0 to create, 1 to change, 0 to remove\)\n$/,
    );
  }, 120_000);

  it('a Kubernetes object is shown as kubectl diff shows it: apiVersion, kind, metadata.name, its fields; a cluster-scoped one without a namespace', async () => {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const manifest = (mode: string, verb: string): string =>
      [
        'apiVersion: v1',
        'kind: ConfigMap',
        'metadata: { name: settings }',
        `data: { mode: ${mode} }`,
        '---',
        'apiVersion: rbac.authorization.k8s.io/v1',
        'kind: ClusterRole',
        'metadata: { name: reader }',
        `rules: [{ apiGroups: [""], resources: [pods], verbs: [${verb}] }]`,
        '',
      ].join('\n');
    await writeFile(path.join(dir, 'objects.yaml'), manifest('a', 'get'));
    run = spawnCosi(['run', '-f', dir, '--state', stateUrl()]);
    await run.waitForLine(/converged in/);
    run.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    await writeFile(path.join(dir, 'objects.yaml'), manifest('b', 'list'));
    const result = await cli(['diff', '-f', dir, '--state', stateUrl()]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe(
      [
        'diff -u -N live/ClusterRoles.rbac.authorization.k8s.io/reader desired/ClusterRoles.rbac.authorization.k8s.io/reader',
        '--- live/ClusterRoles.rbac.authorization.k8s.io/reader',
        '+++ desired/ClusterRoles.rbac.authorization.k8s.io/reader',
        '@@ -8,4 +8,4 @@',
        '     resources:',
        '       - pods',
        '     verbs:',
        '-      - get',
        '+      - list',
        'diff -u -N live/ConfigMaps.core/default/settings desired/ConfigMaps.core/default/settings',
        '--- live/ConfigMaps.core/default/settings',
        '+++ desired/ConfigMaps.core/default/settings',
        '@@ -4,4 +4,4 @@',
        '   name: settings',
        '   namespace: default',
        ' data:',
        '-  mode: a',
        '+  mode: b',
        '',
      ].join('\n'),
    );
    // The whole objects, through a diff program that shows every line.
    const whole = await cli(['diff', '-f', dir, '--state', stateUrl()], {
      env: { COSI_EXTERNAL_DIFF: 'diff -r -U100' },
    });
    const role = whole.stdout.slice(0, whole.stdout.indexOf('diff -r -U100 live/ConfigMaps'));
    expect(role).toContain(
      '\n apiVersion: rbac.authorization.k8s.io/v1\n kind: ClusterRole\n metadata:\n   name: reader\n rules:\n',
    );
    expect(role).not.toContain('namespace');
  }, 120_000);

  it("masks a Secret's values as kubectl diff does: which key changed, never its value, in text and JSON", async () => {
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const secret = (name: string, password: string): string =>
      [
        'apiVersion: v1',
        'kind: Secret',
        `metadata: { name: ${name} }`,
        `stringData: { user: admin-user, password: ${password} }`,
        '',
      ].join('\n');
    await writeFile(path.join(dir, 'secret.yaml'), secret('db', 'hunter2-old'));
    run = spawnCosi(['run', '-f', dir, '--state', stateUrl()]);
    await run.waitForLine(/converged in/);
    run.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    await writeFile(
      path.join(dir, 'secret.yaml'),
      `${secret('db', 'hunter2-new')}---\n${secret('api', 'token-created')}`,
    );
    const text = await cli(['diff', '-f', dir, '--state', stateUrl()]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('-  password: "*** (before)"');
    expect(text.stdout).toContain('+  password: "*** (after)"');
    expect(text.stdout).toContain('  user: "***"');
    const json = await cli(['diff', '-f', dir, '--state', stateUrl(), '-o', 'json']);
    expect(json.code).toBe(1);
    for (const out of [text.stdout, json.stdout]) {
      for (const value of ['hunter2-old', 'hunter2-new', 'token-created', 'admin-user']) {
        expect(out).not.toContain(value);
      }
    }
  }, 120_000);

  it("masks all of a sensitive type's spec, which no other output prints", async () => {
    await rm(dir, { recursive: true, force: true });
    await cp(path.join(REPO, 'fixtures/cli/sensitive'), dir, { recursive: true });
    const manifest = path.join(dir, 'secrets.yaml');
    const original = await readFile(manifest, 'utf8');
    await writeFile(manifest, `${original}  nested: { user: admin-user, pin: '1234' }\n`);
    run = spawnCosi(['run', '-f', dir, '--state', stateUrl()]);
    await run.waitForLine(/applied 1 resource/);
    run.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    await writeFile(
      manifest,
      `${original.replace('hunter2', 'hunter3')}  nested: { user: admin-user, pin: '5678' }\n`,
    );
    const text = await cli(['diff', '-f', dir, '--state', stateUrl()]);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('-  key: "*** (before)"\n+  key: "*** (after)"');
    expect(text.stdout).toContain('    user: "***"');
    expect(text.stdout).toContain('-    pin: "*** (before)"');
    const json = await cli(['diff', '-f', dir, '--state', stateUrl(), '-o', 'json']);
    expect(json.code).toBe(1);
    for (const out of [text.stdout, json.stdout]) {
      for (const value of ['hunter2', 'hunter3', 'admin-user', '1234', '5678']) {
        expect(out).not.toContain(value);
      }
    }
  }, 120_000);

  it('a definition edit (in the config) is a change of its stored definition, never a removal', async () => {
    await applyWithRun();
    const types = path.join(dir, 'types.ts');
    await writeFile(types, (await readFile(types, 'utf8')).replace('maximum: 256', 'maximum: 128'));
    const edited = await cli(['diff', '-f', dir, '--state', stateUrl(), '-o', 'json']);
    expect(edited.code).toBe(1);
    const entries = JSON.parse(edited.stdout) as {
      type: string;
      id: string;
      namespace: string;
      action: string;
      diff: string;
    }[];
    expect(
      entries.map(({ type, id, namespace, action }) => ({ type, id, namespace, action })),
    ).toEqual([
      {
        type: 'ResourceDefinitions.meta.cosi.dev',
        id: 'vms.example.org',
        namespace: 'meta',
        action: 'change',
      },
    ]);
    expect(entries[0]?.diff).toMatch(/\n- +maximum: 256\n\+ +maximum: 128\n/);
  }, 120_000);

  it('says when the state holds nothing cosi wrote (a mistyped prefix), as get --state does', async () => {
    await applyWithRun();
    const typo = stateUrl().replace(prefix, `${prefix}-typo`);
    const empty = await cli(['diff', '-f', dir, '--state', typo]);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toBe(
      `cosi: --state ${typo} holds nothing cosi wrote: is the prefix the one \`cosi run --state\` was given? (every resource shows as created)\n` +
        'cosi: 10 to create, 0 to change, 0 to remove\n',
    );
    // The state the run wrote: no such line.
    const same = await cli(['diff', '-f', dir, '--state', stateUrl()]);
    expect(same).toMatchObject({
      code: 0,
      stderr: 'cosi: 0 to create, 0 to change, 0 to remove\n',
    });
  });

  it('an RGD edit that changes only what its controller renders is a change of its kind (exit 1)', async () => {
    // The kro example: its RGD's templates are not in its kind's schema, yet restarting
    // `cosi run` on an edited template re-renders every instance's children.
    const kro = path.join(dir, 'kro');
    await cp(path.join(REPO, 'fixtures/kro-webapp'), kro, { recursive: true });
    run = spawnCosi(['run', '-f', kro, '--state', stateUrl()]);
    await run.waitForLine(/converged in/);
    run.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const same = await cli(['diff', '-f', kro, '--state', stateUrl()]);
    expect(same).toMatchObject({ code: 0, stdout: '' });

    const rgd = path.join(kro, 'rgd.yaml');
    const original = await readFile(rgd, 'utf8');
    const port = '                    - containerPort: ${schema.spec.port}\n';
    expect(original).toContain(port);
    await writeFile(rgd, original.replace(port, `${port}                      name: http\n`));
    const edited = await cli(['diff', '-f', kro, '--state', stateUrl()]);
    expect(edited.code).toBe(1);
    expect(edited.stderr).toBe('cosi: 0 to create, 1 to change, 0 to remove\n');
    expect(edited.stdout).toContain(
      '--- live/ResourceDefinitions.meta.cosi.dev/meta/webapps.kro.run\n',
    );
    expect(edited.stdout).toContain(
      [
        '                       - containerPort: ${schema.spec.port}',
        '+                        name: http',
        '       - id: service',
      ].join('\n'),
    );

    // A resource dropped from the graph (its outputs are destroyed as the run restarts).
    const ingressAt = original.indexOf('    - id: ingress\n');
    expect(ingressAt).toBeGreaterThan(0);
    await writeFile(rgd, original.slice(0, ingressAt));
    const dropped = await cli(['diff', '-f', kro, '--state', stateUrl()]);
    expect(dropped.code).toBe(1);
    expect(dropped.stdout).toContain('-      - id: ingress\n');
  });

  it('a label or annotation edit is a change; invalid manifests exit 2 with their findings', async () => {
    await applyWithRun();
    const hosts = path.join(dir, 'hosts.yaml');
    const original = await readFile(hosts, 'utf8');
    await writeFile(hosts, original.replace('zone: eu-1\n', 'zone: eu-9\n'));
    const labels = await cli(['diff', '-f', dir, '--state', stateUrl(), '-o', 'json']);
    expect(labels.code).toBe(1);
    const [entry] = JSON.parse(labels.stdout) as { id: string; action: string; diff: string }[];
    expect(entry).toMatchObject({ id: 'node-a', action: 'change' });
    expect(entry?.diff).toContain('-    zone: eu-1\n+    zone: eu-9\n');

    await writeFile(hosts, original.replace('cpus: 8', 'cpus: many'));
    const invalid = await cli(['diff', '-f', dir, '--state', stateUrl()]);
    expect(invalid.code).toBe(2);
    expect(invalid.stdout).toBe('');
    expect(invalid.stderr).toMatch(/hosts\.yaml:\d+:\d+: error\[schema-violation\]/);
  }, 120_000);

  it('an unreachable etcd is one line and exit 2 (the real process)', async () => {
    // A port nothing listens on: etcd's own port, once etcd is stopped, is not guaranteed free.
    const unreachable = await runCosi(
      ['diff', '-f', dir, '--state', 'etcd://127.0.0.1:1/x', '--connect-timeout', '1s'],
      REPO,
      30_000,
    );
    expect(unreachable.code).toBe(2);
    expect(unreachable.stdout).toBe('');
    const lines = unreachable.stderr.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^cosi: cannot reach etcd at 127\.0\.0\.1:1 within 1s \(--connect-timeout\): connection refused \(nothing listens on that port\): check that etcd runs there and the --state URL, or raise --connect-timeout$/,
    );
  }, 60_000);

  it('an etcd that accepts connections and never answers is one line and exit 2 within --connect-timeout', async () => {
    const silent = await startSilentServer();
    try {
      const started = performance.now();
      const result = await cli([
        'diff',
        '-f',
        dir,
        '--state',
        `etcd://${silent.address}/x`,
        '--connect-timeout',
        '1s',
      ]);
      // The project's load comes on top of the 1 s: bounded for a loaded machine, not exact (a
      // wait with no bound is the test's own timeout).
      expect(performance.now() - started).toBeLessThan(30_000);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
      expect(result.stderr).toMatch(
        /^cosi: etcd at .* did not answer within 1s \(--connect-timeout\): the connection opened/,
      );
    } finally {
      await silent.close();
    }
  }, 60_000);

  it('refuses another project\u2019s state and a memory state, exit 2', async () => {
    await applyWithRun();
    const other = await mkdtemp(path.join(tmpdir(), 'cosi-diff-other-'));
    try {
      await writeFile(
        path.join(other, 'notes.yaml'),
        'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: notes.example.org }\nspec: { type: Notes.example.org }\n---\nmetadata: { type: Notes.example.org, id: a }\nspec: {}\n',
      );
      const foreign = await cli(['diff', '-f', other, '--state', stateUrl()]);
      expect(foreign.code).toBe(2);
      expect(foreign.stderr).toMatch(/holds resources of types this project does not define/);
    } finally {
      await rm(other, { recursive: true, force: true });
    }
    const memory = await cli(['diff', '-f', dir, '--state', 'memory']);
    expect(memory.code).toBe(2);
    expect(memory.stderr).toMatch(/--state: diff compares with a running system/);
  }, 120_000);
});
