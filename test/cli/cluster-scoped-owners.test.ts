/**
 * fixtures/cluster-scoped-owners: a cluster-scoped Tenant (a CRD with `scope: Cluster`) owns a
 * ConfigMap in each namespace it names, through a controller reference, and the garbage
 * collector takes them when it goes. cosi keeps the Tenant in `default`; the ConfigMaps are in
 * team-a, team-b and team-c, which Kubernetes allows for a cluster-scoped owner, and `owns()` and
 * the collector see them there with no namespace named (they watch every namespace).
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parseAllDocuments, stringify } from 'yaml';
import { cli, REPO } from './run-cli.js';

const FIXTURE = 'fixtures/cluster-scoped-owners';

interface Printed {
  kind: string;
  metadata: Record<string, unknown> & { annotations?: Record<string, string> };
}

const printed = (yaml: string): Printed[] =>
  parseAllDocuments(yaml).map((d) => d.toJS() as Printed);

let scratch: string | undefined;
afterEach(async () => {
  if (scratch !== undefined) await rm(scratch, { recursive: true, force: true });
  scratch = undefined;
});

describe('a cluster-scoped owner of objects in other namespaces', () => {
  it('cosi apply converges, each ConfigMap referencing its Tenant', async () => {
    const r = await cli(['apply', '-f', FIXTURE, '-o', 'yaml', '--stable']);
    expect(r.stderr).toMatch(/^converged,/);
    expect(r.code).toBe(0);
    const documents = printed(r.stdout);
    const configMaps = documents
      .filter((d) => d.kind === 'ConfigMap')
      .map((d) => [d.metadata.namespace, d.metadata.name, d.metadata.ownerReferences]);
    // As kubectl prints a reference, the uid the Tenant itself prints.
    const uidOf = (name: string): unknown =>
      documents.find((d) => d.kind === 'Tenant' && d.metadata.name === name)?.metadata.uid;
    expect(uidOf('acme')).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(uidOf('globex')).not.toBe(uidOf('acme'));
    const ref = (name: string): unknown => [
      {
        apiVersion: 'example.org/v1',
        kind: 'Tenant',
        name,
        uid: uidOf(name),
        controller: true,
        blockOwnerDeletion: true,
      },
    ];
    expect(configMaps).toEqual([
      ['team-a', 'tenant-acme', ref('acme')],
      ['team-b', 'tenant-acme', ref('acme')],
      ['team-b', 'tenant-globex', ref('globex')],
      ['team-c', 'tenant-globex', ref('globex')],
    ]);
  });

  it('prints the same uids on every run', async () => {
    const uids = async (): Promise<unknown[]> =>
      printed((await cli(['apply', '-f', FIXTURE, '-o', 'yaml'])).stdout).map(
        (d) => d.metadata.uid,
      );
    const first = await uids();
    // Two Tenants and four ConfigMaps, each its own.
    expect(new Set(first).size).toBe(6);
    expect(await uids()).toEqual(first);
  });

  it('its printed objects read back to the same owner references', async () => {
    const r = await cli(['apply', '-f', FIXTURE, '-o', 'yaml', '--stable']);
    expect(r.code).toBe(0);
    // The ConfigMaps as a user's own manifests: without the annotation that marks them a
    // controller's output, and without the controller, beside the Tenants and their CRD.
    const documents = printed(r.stdout).map((d) => {
      const { annotations: _annotations, ...metadata } = d.metadata;
      return { ...d, metadata };
    });
    scratch = await mkdtemp(path.join(tmpdir(), 'cosi-owners-'));
    const crds = await readFile(path.join(REPO, FIXTURE, 'crds.yaml'), 'utf8');
    await writeFile(path.join(scratch, 'crds.yaml'), crds);
    await writeFile(
      path.join(scratch, 'objects.yaml'),
      documents.map((d) => `---\n${stringify(d)}`).join(''),
    );
    const check = await cli(['check', '-f', scratch, '-o', 'json']);
    expect(check.stdout).not.toContain('ownerReferences');
    expect(check.code).toBe(0);
    const again = await cli(['apply', '-f', scratch, '-o', 'yaml', '--stable']);
    expect(again.code).toBe(0);
    const references = (yaml: string): unknown[] =>
      printed(yaml).map((d) => [
        d.kind,
        d.metadata.name,
        d.metadata.uid,
        d.metadata.ownerReferences,
      ]);
    expect(references(again.stdout)).toEqual(references(r.stdout));
  });

  it('cosi check --expect records the references as kubectl prints them, and passes again', async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'cosi-owners-'));
    const update = await cli(['check', '-f', FIXTURE, '--expect', scratch, '--update']);
    expect(update.code).toBe(0);
    const golden = printed(await readFile(path.join(scratch, 'ConfigMaps.core.yaml'), 'utf8'));
    expect(golden[0]?.metadata.ownerReferences).toEqual([
      expect.objectContaining({ apiVersion: 'example.org/v1', kind: 'Tenant', name: 'acme' }),
    ]);
    const check = await cli(['check', '-f', FIXTURE, '--expect', scratch]);
    expect(check.code).toBe(0);
  });

  it('get --sort-by reaches the references as they print', async () => {
    const by = '.metadata.ownerReferences[0].name';
    const r = await cli(['get', 'configmaps', '-f', FIXTURE, '-A', '--sort-by', by, '-o', 'name']);
    expect(r.stdout).toBe(
      'configmap/tenant-acme\nconfigmap/tenant-acme\nconfigmap/tenant-globex\nconfigmap/tenant-globex\n',
    );
    expect(r.code).toBe(0);
  });

  it('cosi check passes it', async () => {
    const r = await cli(['check', '-f', FIXTURE]);
    expect(r.stdout).toContain('controllers: 2 passed, 0 failed');
    expect(r.code).toBe(0);
  });

  it('cosi test: the ConfigMaps in both namespaces go with their Tenant, the others stay', async () => {
    const r = await cli(['test', FIXTURE]);
    expect(r.stdout).toContain('scenarios: 1 passed, 0 failed (steps: 5 passed, 0 failed)');
    expect(r.code).toBe(0);
  });

  it("cosi test says why an expectation naming the owner in cosi's shape does not match", async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'cosi-owners-'));
    const file = path.join(scratch, 'old-shape.cosi-test.yaml');
    await writeFile(
      file,
      [
        'name: an owner reference written as cosi prints its own',
        `manifests: ${path.join(REPO, FIXTURE)}`,
        'steps:',
        '  - expect:',
        '      apiVersion: v1',
        '      kind: ConfigMap',
        '      metadata:',
        '        name: tenant-acme',
        '        namespace: team-a',
        '        ownerReferences: [{ type: Tenants.example.org, id: acme }]',
        '',
      ].join('\n'),
    );
    const r = await cli(['test', file]);
    expect(r.stdout).toContain(
      'differs from the expected document; metadata.ownerReferences.0 names its owner by type and id',
    );
    expect(r.stdout).toContain('written as kubectl prints them (apiVersion, kind, name;');
    expect(r.code).toBe(1);
  });
});
