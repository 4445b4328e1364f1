import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCosi } from '../support/cosi-process.js';
import { cli, REPO } from './run-cli.js';

/** Four JSON Schemas of datreeio/CRDs-catalog, as it lays them out (fixtures/real-crds/README.md). */
const CATALOG = path.join(REPO, 'fixtures/real-crds/crds-catalog');
const LOCATION = `${CATALOG}/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`;

/** Resources of four projects' kinds, none defined by a CRD or built in. */
const MANIFESTS = `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: web, namespace: shop}
spec:
  secretName: web-tls
  dnsNames: [shop.example.org]
  issuerRef: {name: letsencrypt, kind: ClusterIssuer}
---
apiVersion: ec2.aws.m.upbound.io/v1beta1
kind: VPC
metadata: {name: main, namespace: infra}
spec:
  forProvider: {region: eu-west-1, cidrBlock: 10.0.0.0/16}
---
apiVersion: networking.istio.io/v1alpha3
kind: Gateway
metadata: {name: shop, namespace: shop}
spec:
  selector: {istio: ingressgateway}
  servers:
    - port: {number: 80, name: http, protocol: HTTP}
      hosts: ['*']
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: apps, namespace: flux-system}
spec:
  interval: 10m
  prune: true
  sourceRef: {kind: GitRepository, name: flux-system}
  path: ./apps
`;

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-schema-location-'));
  await mkdir(path.join(dir, 'k8s'));
  await writeFile(path.join(dir, 'k8s', 'apps.yaml'), MANIFESTS);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--schema-location (CRDs-catalog JSON Schemas, as kubeconform reads them)', () => {
  it('reports a schema path that is a named pipe or a device, without reading it (review gate2 9)', async () => {
    // A FIFO there blocked the check for ever; /dev/zero took all the memory.
    await writeFile(
      path.join(dir, 'w.yaml'),
      'apiVersion: example.com/v1\nkind: Widget\nmetadata: {name: a, namespace: default}\n',
    );
    await mkdir(path.join(dir, 'pipes'));
    execFileSync('mkfifo', [path.join(dir, 'pipes', 'widget_v1.json')]);
    await mkdir(path.join(dir, 'devices'));
    await symlink('/dev/zero', path.join(dir, 'devices', 'widget_v1.json'));
    for (const where of ['pipes', 'devices']) {
      const location = `${where}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`;
      const r = await runCosi(['check', 'w.yaml', '--schema-location', location], dir, 30_000);
      expect(r.stdout).toContain(`${where}/widget_v1.json is not a regular file`);
      expect(r.code).toBe(1);
    }
  });

  it('without it the kinds are unknown; with it every resource is checked and valid', async () => {
    const without = await cli(['check', 'k8s'], { cwd: dir });
    expect(without.code).toBe(1);
    expect(without.stdout.match(/error\[unknown-type\]/g)).toHaveLength(4);
    const r = await cli(['check', 'k8s', '--schema-location', LOCATION, '-o', 'json'], {
      cwd: dir,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      resources: { valid: number; invalid: number };
      cases: { resource?: { kind: string } }[];
    };
    expect(report.resources).toMatchObject({ valid: 4, invalid: 0 });
    expect(report.cases.flatMap((c) => (c.resource ? [c.resource.kind] : []))).toEqual([
      'Certificate',
      'VPC',
      'Gateway',
      'Kustomization',
    ]);
  });

  it("reports what the schemas refuse at the manifest's file:line:col, CEL rules included", async () => {
    await writeFile(
      path.join(dir, 'k8s', 'apps.yaml'),
      MANIFESTS.replace('  secretName: web-tls\n', '')
        .replace('region: eu-west-1, ', '')
        .replace("hosts: ['*']", "hostz: ['*']")
        .replace('path: ./apps', 'path: ./apps\n  kubeConfig: {}'),
    );
    const r = await cli(['check', 'k8s', '--schema-location', LOCATION], { cwd: dir });
    expect(r.code).toBe(1);
    const lines = r.stdout.split('\n').filter((l) => l.includes(': error['));
    expect(lines).toEqual([
      expect.stringMatching(/^k8s\/apps\.yaml:5:3: error\[schema-violation\]: .*secretName/),
      expect.stringMatching(/^k8s\/apps\.yaml:12:16: error\[schema-violation\]: .*region/),
      expect.stringMatching(/^k8s\/apps\.yaml:20:7: error\[schema-violation\]: .*hosts/),
      expect.stringMatching(
        /^k8s\/apps\.yaml:21:7: error\[schema-violation\]: unknown field "hostz" \(did you mean "hosts"\?\)/,
      ),
      expect.stringMatching(
        /^k8s\/apps\.yaml:31:15: error\[cel-violation\]: .*exactly one of spec\.kubeConfig\.configMapRef or spec\.kubeConfig\.secretRef/,
      ),
    ]);
  });

  it('takes a relative location from the working directory, and tries locations in order', async () => {
    await mkdir(path.join(dir, 'schemas'));
    await cp(
      path.join(CATALOG, 'cert-manager.io/certificate_v1.json'),
      path.join(dir, 'schemas', 'certificate-cert-manager-v1.json'),
    );
    const r = await cli(
      [
        'check',
        'k8s',
        '--schema-location',
        'default',
        '--schema-location',
        'schemas/{{ .ResourceKind }}{{ .KindSuffix }}.json',
        '--schema-location',
        LOCATION,
      ],
      { cwd: dir },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('names the files it looked for when no location has a kind', async () => {
    const r = await cli(['check', 'k8s', '--schema-location', 'schemas/{{.ResourceKind}}.json'], {
      cwd: dir,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'k8s/apps.yaml:2:7: error[unknown-type]: no CustomResourceDefinition defines kind Certificate in cert-manager.io/v1',
    );
    expect(r.stdout).toContain('(no schema at schemas/certificate.json)');
  });

  it('refuses another scheme than http(s) or an unknown field as a usage error (exit 2) before reading anything', async () => {
    const url = await cli(
      ['check', 'k8s', '--schema-location', 'ftp://example.org/{{.ResourceKind}}.json'],
      { cwd: dir },
    );
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('ftp:// is not a location cosi reads');
    const field = await cli(
      ['get', 'certificates', '-f', 'k8s', '--schema-location', 's/{{.Kind}}.json'],
      { cwd: dir },
    );
    expect(field.code).toBe(2);
    expect(field.stderr).toContain('{{.Kind}} is not a field of a schema location');
  });

  it("reads the config's schemaLocations (relative to it) when the command line gives none", async () => {
    await writeFile(path.join(dir, 'k8s', 'apps.yaml'), MANIFESTS.split('---\n')[0] ?? '');
    await mkdir(path.join(dir, 'vendor', 'cert-manager.io'), { recursive: true });
    await cp(
      path.join(CATALOG, 'cert-manager.io/certificate_v1.json'),
      path.join(dir, 'vendor', 'cert-manager.io', 'certificate_v1.json'),
    );
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      "export default { manifests: ['k8s'], schemaLocations: ['default', 'vendor/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json'] };\n",
    );
    await mkdir(path.join(dir, 'sub'));
    const r = await cli(['check'], { cwd: path.join(dir, 'sub') });
    expect(r.stdout + r.stderr).not.toContain('error[');
    expect(r.code).toBe(0);
    // The command line's locations replace the config's.
    const over = await cli(['check', '--schema-location', 'none/{{.ResourceKind}}.json'], {
      cwd: dir,
    });
    expect(over.code).toBe(1);
    expect(over.stdout).toContain('(no schema at none/certificate.json)');
    // (In a directory of its own: this process has the first config's module already.)
    await mkdir(path.join(dir, 'bad'));
    await writeFile(
      path.join(dir, 'bad', 'cosi.config.mjs'),
      "export default { manifests: ['../k8s'], schemaLocations: ['ftp://example.org/x.json'] };\n",
    );
    const bad = await cli(['check', '--config', 'bad'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stdout + bad.stderr).toContain('schemaLocations[0]: --schema-location');
  });
});

describe('--schema-location URLs (a local server standing for raw.githubusercontent.com)', () => {
  let server: Server;
  let base: string;
  let requests: string[];

  beforeEach(async () => {
    requests = [];
    server = createServer((request, response) => {
      const url = request.url ?? '/';
      requests.push(url);
      if (url.startsWith('/broken/')) {
        response.writeHead(500, 'Internal Server Error').end('no');
        return;
      }
      readFile(path.join(CATALOG, decodeURIComponent(url))).then(
        (body) => response.writeHead(200, { 'content-type': 'application/json' }).end(body),
        () => response.writeHead(404).end('not found'),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterEach(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  const catalogUrl = (): string =>
    `${base}/{{.Group}}/{{.ResourceKind}}_{{.ResourceAPIVersion}}.json`;

  it('downloads the schema of each kind used, once, and checks as with the files', async () => {
    const r = await cli(['check', 'k8s', '--schema-location', catalogUrl(), '-o', 'json'], {
      cwd: dir,
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ resources: { valid: 4, invalid: 0 } });
    expect(requests.sort()).toEqual([
      '/cert-manager.io/certificate_v1.json',
      '/ec2.aws.m.upbound.io/vpc_v1beta1.json',
      '/kustomize.toolkit.fluxcd.io/kustomization_v1.json',
      '/networking.istio.io/gateway_v1alpha3.json',
    ]);
    // What a downloaded schema refuses is placed in the manifest, as a file's is.
    await writeFile(
      path.join(dir, 'k8s', 'apps.yaml'),
      MANIFESTS.replace('dnsNames: [shop.example.org]', 'dnsName: [shop.example.org]'),
    );
    const bad = await cli(['check', 'k8s', '--schema-location', catalogUrl()], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain(
      'k8s/apps.yaml:6:3: error[schema-violation]: unknown field "dnsName" (did you mean "dnsNames"?)',
    );
  });

  it('asks the next location after a 404, in order, and reports any other failure at the URL', async () => {
    const r = await cli(
      [
        'check',
        'k8s',
        '--schema-location',
        `${base}/elsewhere/{{.ResourceKind}}.json`,
        '--schema-location',
        catalogUrl(),
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(0);
    expect(requests.filter((u) => u.startsWith('/elsewhere/'))).toHaveLength(4);
    const broken = await cli(
      ['check', 'k8s', '--schema-location', `${base}/broken/{{.ResourceKind}}.json`],
      { cwd: dir },
    );
    expect(broken.code).toBe(1);
    expect(broken.stdout).toContain(
      `${base}/broken/certificate.json: error[invalid-definition]: the schema of Certificates.cert-manager.io cannot be read: ${base}/broken/certificate.json could not be downloaded: HTTP 500 Internal Server Error`,
    );
    expect(broken.stdout).toContain(
      `k8s/apps.yaml:2:7: error[unknown-type]: kind Certificate of cert-manager.io/v1 is not defined: its schema at ${base}/broken/certificate.json`,
    );
    // No server at all: said as the connection's failure.
    const gone = createServer();
    await new Promise<void>((resolve) => gone.listen(0, '127.0.0.1', resolve));
    const port = (gone.address() as AddressInfo).port;
    await new Promise((resolve) => gone.close(resolve));
    const closed = `http://127.0.0.1:${port}/{{.ResourceKind}}.json`;
    const refused = await cli(['check', 'k8s', '--schema-location', closed], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('could not be downloaded: ECONNREFUSED');
  });

  it('downloads from the built CLI (its worker) as from the sources', async () => {
    const r = await runCosi(['check', 'k8s', '--schema-location', catalogUrl()], dir);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('4 resources in 1 file: 4 valid, 0 invalid');
    expect(r.code).toBe(0);
    expect(requests).toHaveLength(4);
  });

  it('downloads again a schema whose cache file is a named pipe, not waiting on it (review gate2 14)', async () => {
    const cache = path.join(dir, 'cache');
    await mkdir(cache, { mode: 0o700 });
    const url = `${base}/cert-manager.io/certificate_v1.json`;
    const name = createHash('sha256').update(url).digest('hex');
    execFileSync('mkfifo', [path.join(cache, `${name}.json`)]);
    const args = ['check', 'k8s', '--schema-location', catalogUrl(), '--schema-cache', cache];
    const r = await runCosi(args, dir, 25_000);
    expect(r.stdout).toContain('4 resources in 1 file: 4 valid, 0 invalid');
    expect(r.code).toBe(0);
    expect(requests).toContain('/cert-manager.io/certificate_v1.json');
  });

  it('keeps what it downloaded under --schema-cache, and a later run reads it from there', async () => {
    const cache = path.join(dir, 'cache');
    const args = ['check', 'k8s', '--schema-location', catalogUrl(), '--schema-cache', cache];
    expect((await cli(args, { cwd: dir })).code).toBe(0);
    expect(requests).toHaveLength(4);
    expect((await readdir(cache)).filter((f) => f.endsWith('.json'))).toHaveLength(4);
    requests = [];
    const again = await cli(args, { cwd: dir });
    expect(again.code).toBe(0);
    expect(requests).toEqual([]);
    // The config's URL locations are taken as they are, not as paths relative to it.
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      `export default { manifests: ['k8s'], schemaLocations: [${JSON.stringify(catalogUrl())}] };\n`,
    );
    const fromConfig = await cli(['check'], { cwd: dir });
    expect(fromConfig.stdout + fromConfig.stderr).not.toContain('error[');
    expect(fromConfig.code).toBe(0);
  });
});
