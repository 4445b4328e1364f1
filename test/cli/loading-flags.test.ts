import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCli } from '../../src/cli/program.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { runCosi, spawnCosi, type CosiProcess } from '../support/cosi-process.js';
import { cli, REPO } from './run-cli.js';

/**
 * The flags that say how manifests are read are the same on every command that reads them:
 * `run` and `diff` take them as `apply` and `check` do, and they have their effect there.
 */

/** Every command that reads a project's manifests. */
const LOADING_COMMANDS = [
  'apply',
  'get',
  'diff',
  'check',
  'graph',
  'report',
  'explain',
  'watch',
  'run',
];
const LOADING_FLAGS = [
  '--ignore',
  '--definitions',
  '--schema-location',
  '--schema-cache',
  '--kubernetes-version',
  '--config',
];

/** A CRD of WebApps (spec.replicas: at least 1) and a WebApp. */
const CRDS = path.join(REPO, 'fixtures/kubernetes/apps-crds.yaml');
const webApp = (replicas: number): string =>
  `apiVersion: example.org/v1\nkind: WebApp\nmetadata:\n  name: shop\nspec:\n  image: shop:1\n  replicas: ${replicas}\n`;
/** A kind Kubernetes serves from 1.34 on (resource.k8s.io/v1). */
const DEVICE_CLASS =
  'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: { name: gpu }\nspec: {}\n';
/** A cert-manager Certificate, and where the JSON Schema of its kind is (datreeio/CRDs-catalog). */
const CERTIFICATE =
  'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: web, namespace: shop}\nspec:\n  secretName: web-tls\n  dnsNames: [shop.example.org]\n  issuerRef: {name: letsencrypt, kind: ClusterIssuer}\n';
const LOCATION = `${path.join(REPO, 'fixtures/real-crds/crds-catalog')}/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`;

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-loading-flags-'));
  await mkdir(path.join(dir, 'crds'));
  await mkdir(path.join(dir, 'manifests'));
  await writeFile(path.join(dir, 'crds', 'apps.yaml'), await readFile(CRDS, 'utf8'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the loading flags', () => {
  it('are one definition: every command that reads manifests has each, with the same help', () => {
    const io = {
      stdout: { write: () => true },
      stderr: { write: () => true },
      cwd: REPO,
      env: {},
      isTTY: false,
    };
    const { program } = createCli(io);
    const helpOf = (command: string, flag: string): string | undefined =>
      program.commands.find((c) => c.name() === command)?.options.find((o) => o.long === flag)
        ?.description;
    for (const flag of LOADING_FLAGS) {
      const helps = LOADING_COMMANDS.map((command) => [command, helpOf(command, flag)]);
      const apply = helpOf('apply', flag);
      expect(apply).toBeDefined();
      expect(Object.fromEntries(helps)).toEqual(
        Object.fromEntries(LOADING_COMMANDS.map((command) => [command, apply])),
      );
    }
  });
});

describe('cosi run takes the loading flags', () => {
  let running: CosiProcess | undefined;
  afterEach(async () => {
    running?.kill('SIGKILL');
    await running?.exited;
    running = undefined;
  });

  /** `cosi run` on a state in memory: applies the manifests, or refuses them (exit 1). */
  async function served(args: string[]): Promise<void> {
    running = spawnCosi(['run', ...args], dir);
    await running.waitForLine(/applied 1 resource/, 60_000);
  }

  it('--definitions: the CRDs of a directory, their schemas checked', async () => {
    await writeFile(path.join(dir, 'manifests', 'shop.yaml'), webApp(0));
    const without = await runCosi(['run', '-f', 'manifests'], dir);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('no CustomResourceDefinition defines kind WebApp');
    const invalid = await runCosi(['run', '-f', 'manifests', '--definitions', 'crds'], dir);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).not.toContain('no CustomResourceDefinition');
    expect(invalid.stderr).toMatch(/shop\.yaml:7:\d+: .*greater than or equal to 1/);
    await writeFile(path.join(dir, 'manifests', 'shop.yaml'), webApp(2));
    await served(['-f', 'manifests', '--definitions', 'crds']);
  }, 120_000);

  it('--definitions with --watch: a changed CRD starts the controllers again, its schema checked', async () => {
    await writeFile(path.join(dir, 'manifests', 'shop.yaml'), webApp(2));
    await served(['-f', 'manifests', '--definitions', 'crds', '--watch']);
    const crd = path.join(dir, 'crds', 'apps.yaml');
    const text = await readFile(crd, 'utf8');
    expect(text).toContain('minimum: 1, default: 2');
    // A CRD the manifests break: said, and the last good ones keep running.
    await writeFile(crd, text.replace('minimum: 1, default: 2', 'minimum: 3, default: 3'));
    await running?.waitForLine(/shop\.yaml:7:\d+: .*greater than or equal to 3/, 30_000);
    // One they pass: the controllers start again on it.
    await writeFile(crd, text.replace('minimum: 1, default: 2', 'minimum: 2, default: 2'));
    await running?.waitForLine(/the manifests' definitions changed/, 30_000);
  }, 120_000);

  it('--kubernetes-version: the built-in kinds of that release', async () => {
    await writeFile(path.join(dir, 'manifests', 'gpu.yaml'), DEVICE_CLASS);
    const older = await runCosi(['run', '-f', 'manifests', '--kubernetes-version', '1.33'], dir);
    expect(older.code).toBe(1);
    expect(older.stderr).toContain('DeviceClass');
    await served(['-f', 'manifests', '--kubernetes-version', '1.34']);
    const bad = await runCosi(['run', '-f', 'manifests', '--kubernetes-version', '1.10'], dir);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--kubernetes-version: unknown Kubernetes version "1.10"');
  }, 120_000);

  it('--schema-location: the JSON Schemas of kinds nothing else defines', async () => {
    await writeFile(path.join(dir, 'manifests', 'cert.yaml'), CERTIFICATE);
    const without = await runCosi(['run', '-f', 'manifests'], dir);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('Certificate');
    await served(['-f', 'manifests', '--schema-location', LOCATION]);
  }, 120_000);
});

describe.skipIf(!etcdAvailable)('cosi diff takes the loading flags', () => {
  let etcd: EtcdServer;
  let prefixes = 0;
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 60_000);
  afterAll(async () => {
    await etcd.stop();
  });

  /** `cosi diff` against an empty prefix: every resource of the manifests is created. */
  const diff = (args: string[]) =>
    cli(
      [
        'diff',
        '-f',
        'manifests',
        '--state',
        `etcd://${etcd.endpoint.replace(/^http:\/\//, '')}/loading-${++prefixes}`,
        '-o',
        'json',
        ...args,
      ],
      { cwd: dir },
    );
  const created = (stdout: string): string[] =>
    (JSON.parse(stdout) as { type: string; id: string; action: string }[])
      .filter((c) => c.action === 'create')
      .map((c) => `${c.type}/${c.id}`);

  it('--definitions', async () => {
    await writeFile(path.join(dir, 'manifests', 'shop.yaml'), webApp(2));
    const without = await diff([]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('no CustomResourceDefinition defines kind WebApp');
    const withCrds = await diff(['--definitions', 'crds']);
    expect(withCrds.stderr).not.toContain('no CustomResourceDefinition');
    expect(withCrds.code).toBe(1);
    expect(created(withCrds.stdout)).toEqual(
      expect.arrayContaining([expect.stringMatching(/WebApp.*\/shop$/)]),
    );
  }, 60_000);

  it('--kubernetes-version', async () => {
    await writeFile(path.join(dir, 'manifests', 'gpu.yaml'), DEVICE_CLASS);
    const older = await diff(['--kubernetes-version', '1.33']);
    expect(older.code).toBe(2);
    expect(older.stderr).toContain('DeviceClass');
    const newer = await diff(['--kubernetes-version', '1.34']);
    expect(newer.code).toBe(1);
    expect(created(newer.stdout)).toEqual(
      expect.arrayContaining([expect.stringMatching(/DeviceClass.*\/gpu$/)]),
    );
  }, 60_000);

  it('--schema-location', async () => {
    await writeFile(path.join(dir, 'manifests', 'cert.yaml'), CERTIFICATE);
    const without = await diff([]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('Certificate');
    const located = await diff(['--schema-location', LOCATION]);
    expect(located.code).toBe(1);
    expect(created(located.stdout)).toEqual(
      expect.arrayContaining([expect.stringMatching(/Certificate.*\/web$/)]),
    );
  }, 60_000);
});
