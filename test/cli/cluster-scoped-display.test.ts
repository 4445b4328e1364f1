import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import type { ReportData } from '../../src/app/report/report-data.js';
import type { GraphView } from '../../src/cli/render/graph/graph-view.js';
import { cli } from './run-cli.js';

const SAAS = 'fixtures/kro-examples/saas-multi-tenant';

/** A Namespace and a ClusterRole (cluster-scoped) and a ConfigMap in namespace shop. */
const MANIFESTS = `apiVersion: v1
kind: Namespace
metadata:
  name: shop
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
rules:
  - { apiGroups: [""], resources: [pods], verbs: [get] }
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: c1
  namespace: shop
data: { a: b }
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-cluster-scoped-'));
  await writeFile(path.join(dir, 'all.yaml'), MANIFESTS);
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The ids a table lists, its second column on (TYPE ID ... without NAMESPACE, or after it). */
const ids = (stdout: string): string[] =>
  stdout
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('TYPE') && !l.startsWith('NAMESPACE'))
    .map((l) => l.split(/ {2,}/))
    .map((cells) => (cells[0] === 'shop' ? cells[2] : cells[1]) ?? '');

describe('cluster-scoped kinds', () => {
  it('get -n lists them whatever the namespace, as kubectl does', async () => {
    const r = await cli(['get', 'ns,clusterrole', '-f', dir, '-n', 'elsewhere', '-q']);
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toEqual(['shop', 'reader']);
    const mixed = await cli(['get', 'cm,ns', '-f', dir, '-n', 'shop', '-q']);
    expect(ids(mixed.stdout)).toEqual(['c1', 'shop']);
    const other = await cli(['get', 'cm,ns', '-f', dir, '-n', 'elsewhere', '-q']);
    expect(ids(other.stdout)).toEqual(['shop']);
  });

  it('graph --resources prints their objects as NAME, not default/NAME, in every format', async () => {
    const text = await cli(['graph', '-f', dir, '--resources', '-q']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('\nNamespaces.core\n  shop  manifest\n');
    expect(text.stdout).toContain('\nClusterRoles.rbac.authorization.k8s.io\n  reader  manifest\n');
    expect(text.stdout).toContain('\n  shop/c1  manifest\n');
    const dot = await cli(['graph', '-f', dir, '--resources', '-o', 'dot', '-q']);
    expect(dot.stdout).toMatch(/"resource:default\/Namespaces\.core\/shop" \[label="shop"/);
    const mermaid = await cli(['graph', '-f', dir, '--resources', '-o', 'mermaid', '-q']);
    expect(mermaid.stdout).toContain('["shop"]');
    expect(mermaid.stdout).not.toContain('default/shop');
    const saas = await cli(['graph', '-f', SAAS, '--resources', '-o', 'tree', '-q']);
    expect(saas.stdout).toContain(
      'Namespaces.core(tenant001)  by ResourceGraph(tenantenvironment.kro.run)',
    );
    const view = JSON.parse(
      (await cli(['graph', '-f', SAAS, '--resources', '-o', 'json', '-q'])).stdout,
    ) as GraphView;
    const namespaces = view.resources?.find((g) => g.type === 'Namespaces.core')?.resources;
    expect(namespaces?.map((n) => n.clusterScoped)).toEqual([true]);
  });

  it('explain prints them as Type(NAME)', async () => {
    const r = await cli(['explain', 'namespace', 'shop', '-f', dir, '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^Namespaces\.core\(shop\)@1 {2}owner: \(manifest\)/);
    const saas = await cli(['explain', 'namespace', 'tenant001', '-f', SAAS, '-q']);
    expect(saas.stdout).toContain(
      '  Namespaces.core(tenant001)@1  <- ResourceGraph(tenantenvironment.kro.run)',
    );
    const feeds = await cli([
      'explain',
      'tenantenvironment',
      'tenant001',
      '-f',
      SAAS,
      '--reverse',
      '-q',
    ]);
    expect(feeds.stdout).toContain('primary: Namespaces.core(tenant001)@1');
    expect(feeds.stdout).not.toContain('Namespaces.core(default/tenant001)');
  });

  it('the report data marks them, for its page to print them without a namespace', async () => {
    const r = await cli(['report', '-f', dir, '-o', '-', '-q']);
    expect(r.code).toBe(0);
    const match = /<script type="application\/octet-stream" id="report-data">(.*?)<\/script>/s.exec(
      r.stdout,
    );
    const data = JSON.parse(
      gunzipSync(Buffer.from(match![1]!, 'base64')).toString('utf8'),
    ) as ReportData;
    const scoped = data.resources.filter((x) => x.clusterScoped === true).map((x) => x.id);
    expect(scoped.sort()).toEqual(['reader', 'shop']);
  });
});
