import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-definitions-'));
  await mkdir(path.join(dir, 'crds'));
  await mkdir(path.join(dir, 'manifests'));
  // A vendored bundle: the CRDs, and an example that is no manifest of this project.
  const crds = await readFile(path.join(REPO, 'fixtures/kubernetes/apps-crds.yaml'), 'utf8');
  await writeFile(
    path.join(dir, 'crds', 'bundle.yaml'),
    `${crds}---\napiVersion: example.org/v1\nkind: WebApp\nmetadata: { name: example }\nspec: { image: x }\n`,
  );
  await writeFile(
    path.join(dir, 'manifests', 'shop.yaml'),
    'apiVersion: example.org/v1\nkind: WebApp\nmetadata:\n  name: shop\nspec:\n  image: shop:1\n  replicas: 0\n',
  );
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('--definitions', () => {
  it("takes a Crossplane XRD's kinds, its claim's too", async () => {
    const xrd = await readFile(path.join(REPO, 'fixtures/crossplane/postgresql-xrd.yaml'), 'utf8');
    await writeFile(path.join(dir, 'crds', 'bundle.yaml'), xrd);
    await writeFile(
      path.join(dir, 'manifests', 'shop.yaml'),
      'apiVersion: database.example.org/v1alpha1\nkind: PostgreSQLInstance\nmetadata: { name: db, namespace: team-a }\nspec:\n  parameters: { storageGB: 0 }\n  compositionRef: { name: aws }\n',
    );
    const r = await cli(['check', '--definitions', 'crds', 'manifests'], { cwd: dir });
    expect(r.stdout.split('\n').filter((l) => l.includes('error'))).toEqual([
      'manifests/shop.yaml:5:28: error[schema-violation]: Invalid value: 0: spec.parameters.storageGB in body should be greater than or equal to 1 (at /spec/parameters/storageGB)',
    ]);
  });

  it('takes the same CRD checked again as a manifest (helm template --include-crds), and names the file of another', async () => {
    const crds = await readFile(path.join(REPO, 'fixtures/kubernetes/apps-crds.yaml'), 'utf8');
    await writeFile(path.join(dir, 'crds', 'bundle.yaml'), crds);
    await writeFile(path.join(dir, 'manifests', 'crds.yaml'), crds);
    const ok = await cli(['check', '--definitions', 'crds', 'manifests'], { cwd: dir });
    expect(ok.stdout).not.toContain('duplicate-definition');
    expect(ok.stdout).toContain('manifests/shop.yaml:7:13: error[schema-violation]');
    // Another CRD of the same type: one finding (not one per version), naming the file.
    await writeFile(
      path.join(dir, 'manifests', 'crds.yaml'),
      crds.replace('minLength: 1', 'minLength: 2') +
        '    - name: v2\n      served: true\n      storage: false\n' +
        '      schema: { openAPIV3Schema: { type: object, x-kubernetes-preserve-unknown-fields: true } }\n',
    );
    const other = await cli(['check', '--definitions', 'crds', 'manifests'], { cwd: dir });
    const duplicates = other.stdout.split('\n').filter((l) => l.includes('duplicate-definition'));
    expect(duplicates).toEqual([
      'manifests/crds.yaml:6:9: error[duplicate-definition]: the type WebApps.example.org is already defined at crds/bundle.yaml:6:9 (at /metadata/name)',
    ]);
  });

  it('reads a cosi definitions file that the walk reaches too as itself, no duplicate of its own', async () => {
    await writeFile(
      path.join(dir, 'crds', 'vms.yaml'),
      'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: vms.example.org }\nspec:\n  type: VMs.example.org\n  schema: { type: object, properties: { cpus: { type: integer, minimum: 1 } } }\n',
    );
    await writeFile(
      path.join(dir, 'manifests', 'vm.yaml'),
      'metadata: { type: VMs.example.org, id: web }\nspec: { cpus: 2 }\n',
    );
    await rm(path.join(dir, 'crds', 'bundle.yaml'));
    await rm(path.join(dir, 'manifests', 'shop.yaml'));
    const r = await cli(['check', '.', '--definitions', 'crds'], { cwd: dir });
    expect(r.stdout).not.toContain('duplicate-definition');
    expect(r.code).toBe(0);
    // Another file defining the same type is a duplicate still, named at the given file.
    await writeFile(
      path.join(dir, 'manifests', 'again.yaml'),
      'metadata: { type: ResourceDefinitions.meta.cosi.dev, id: vms.example.org }\nspec:\n  type: VMs.example.org\n  schema: { type: object, properties: { cpus: { type: integer, minimum: 1 } } }\n',
    );
    const other = await cli(['check', '.', '--definitions', 'crds'], { cwd: dir });
    expect(other.stdout).toMatch(
      /^manifests\/again\.yaml:\d+:\d+: error\[duplicate-definition\]: the type VMs\.example\.org is already defined at crds\/vms\.yaml:\d+:\d+/m,
    );
    expect(other.code).toBe(1);
  });

  it('takes the definitions of other files, and none of their other documents', async () => {
    const r = await cli(
      ['get', '--definitions', 'crds', '-f', 'manifests', 'webapps', '-o', 'name', '--stable'],
      { cwd: dir },
    );
    expect(r.stderr).toContain('error[schema-violation]');
    expect(r.stderr).toContain('manifests/shop.yaml:7:13');
    await writeFile(
      path.join(dir, 'manifests', 'shop.yaml'),
      'apiVersion: example.org/v1\nkind: WebApp\nmetadata:\n  name: shop\nspec:\n  image: shop:1\n',
    );
    const ok = await cli(
      ['get', '--definitions', 'crds', '-f', 'manifests', 'webapps', '-o', 'name'],
      {
        cwd: dir,
      },
    );
    expect(ok.code).toBe(0);
    expect(ok.stdout.trim().split('\n')).toEqual(['webapp.example.org/shop']);
  });

  it('reports an invalid definition there at its own file:line:col', async () => {
    await writeFile(
      path.join(dir, 'crds', 'broken.yaml'),
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x.example.org\nspec:\n  group: example.org\n',
    );
    const r = await cli(['check', '--definitions', 'crds', 'manifests'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toMatch(/crds\/broken\.yaml:6:3: error\[invalid-definition\]/);
  });

  it('checks the schema of a CRD there only when a manifest uses its kind, and then at the CRD', async () => {
    // The shape is read at once (above); the schema, the costly part, waits for a user.
    await writeFile(
      path.join(dir, 'crds', 'gadgets.yaml'),
      `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gadgets.example.org }
spec:
  group: example.org
  names: { plural: gadgets, kind: Gadget }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              properties:
                size: { type: integer }
`,
    );
    const unused = await cli(['check', '--definitions', 'crds', 'manifests'], { cwd: dir });
    expect(unused.stdout + unused.stderr).not.toContain('gadgets.yaml');
    expect(unused.stdout).toContain('manifests/shop.yaml');
    await writeFile(
      path.join(dir, 'manifests', 'gadget.yaml'),
      'apiVersion: example.org/v1\nkind: Gadget\nmetadata: { name: g }\nspec: { size: 1 }\n',
    );
    const used = await cli(['check', '--definitions', 'crds', 'manifests'], { cwd: dir });
    expect(used.code).toBe(1);
    const out = used.stdout + used.stderr;
    // The schema's problem at the CRD's line, and the document told why its kind is unknown.
    expect(out).toMatch(/crds\/gadgets\.yaml:17:15: error\[invalid-schema\]/);
    expect(out).toMatch(
      /manifests\/gadget\.yaml:2:7: error\[unknown-type\]: .*gadgets\.yaml:17:15 is invalid/,
    );
  });

  it('checks a document against a real bundle (cert-manager, Gateway API), nothing of the CRDs it does not use reported', async () => {
    await writeFile(
      path.join(dir, 'manifests', 'certificate.yaml'),
      'apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: { name: web, namespace: apps }\nspec:\n  secretName: web-tls\n  dnsNames: [web.example.org]\n  issuerRef: { name: letsencrypt, kind: ClusterIssuer }\n  privateKey: { algorithm: DSA }\n',
    );
    const r = await cli(
      [
        'check',
        '--definitions',
        path.join(REPO, 'fixtures/real-crds/cert-manager/crds'),
        '--definitions',
        path.join(REPO, 'fixtures/real-crds/gateway-api/crds'),
        '-f',
        'manifests/certificate.yaml',
        '-o',
        'json',
      ],
      { cwd: dir },
    );
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      cases: { findings: { code: string; file: string; line: number; pointer: string }[] }[];
    };
    const findings = report.cases.flatMap((c) => c.findings);
    // The schema of the used CRD applies (its algorithm enum); nothing of the unused CRDs is
    // reported.
    expect(findings.map((f) => [f.code, f.file, f.line, f.pointer])).toEqual([
      ['schema-violation', 'manifests/certificate.yaml', 8, '/spec/privateKey/algorithm'],
    ]);
  });
});
