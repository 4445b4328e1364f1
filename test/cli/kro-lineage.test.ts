import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { ReportData } from '../../src/app/report/report-data.js';
import type { GraphView } from '../../src/cli/render/graph/graph-view.js';
import { cli } from './run-cli.js';

const SAAS = 'fixtures/kro-examples/saas-multi-tenant';
const WEBAPP = 'fixtures/kro-webapp';

async function graphJson(args: string[]): Promise<GraphView> {
  const r = await cli(['graph', '-o', 'json', ...args]);
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as GraphView;
}

/** The data `cosi report` embeds in its page (gzipped JSON in base64). */
async function reportData(dir: string): Promise<ReportData> {
  const r = await cli(['report', '-f', dir, '-o', '-', '-q']);
  expect(r.code).toBe(0);
  const match = /<script type="application\/octet-stream" id="report-data">(.*?)<\/script>/s.exec(
    r.stdout,
  );
  expect(match).not.toBeNull();
  return JSON.parse(gunzipSync(Buffer.from(match![1]!, 'base64')).toString('utf8')) as ReportData;
}

function resourceOf(view: GraphView, type: string, id: string) {
  const node = view.resources?.find((g) => g.type === type)?.resources.find((r) => r.id === id);
  expect(node, `${type} ${id}`).toBeDefined();
  return node!;
}

describe('the lineage of nested kro instances', () => {
  it('graph --resources says which RGD made a nested instance, unowned, and from what', async () => {
    const r = await cli(['graph', '-f', SAAS, '--resources', '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      '  default/tenant001  by ResourceGraph(tenant.kro.run) (unowned)\n' +
        '    from  Tenants.kro.run(default/tenant001)',
    );
    expect(r.stdout).not.toMatch(
      /TenantApplications\.kro\.run\n {2}default\/tenant001 {2}manifest/,
    );
    const view = await graphJson(['-f', SAAS, '--resources', '-q']);
    const app = resourceOf(view, 'TenantApplications.kro.run', 'tenant001');
    expect(app.owner).toBe('');
    expect(app.writer).toBe('ResourceGraph(tenant.kro.run)');
    expect(app.derivedFrom).toEqual([
      { namespace: 'default', type: 'Tenants.kro.run', id: 'tenant001', via: 'primary' },
    ]);
    const tenant = resourceOf(view, 'Tenants.kro.run', 'tenant001');
    expect(tenant.writer).toBe('');
  });

  it('--focus on the outer instance shows what was derived from it, through the nested ones', async () => {
    const view = await graphJson(['-f', SAAS, '--focus', 'tenant/tenant001', '--depth', '3', '-q']);
    const types = view.resources?.map((g) => g.type) ?? [];
    expect(types).toContain('TenantApplications.kro.run');
    expect(types).toContain('Deployments.apps');
  });

  it("explain traces a nested instance past the inner RGD's status write to the outer manifest", async () => {
    const r = await cli(['explain', 'tenantapplication', 'tenant001', '-f', SAAS, '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('owner: (unowned, created by ResourceGraph(tenant.kro.run))');
    expect(r.stdout).toContain(
      '└─ primary: TenantApplications.kro.run(default/tenant001)@1  <- ResourceGraph(tenant.kro.run) reconcile #',
    );
    expect(r.stdout).toContain(
      `└─ primary: Tenants.kro.run(default/tenant001)@1  <- manifest ${SAAS}/tenant-instance.yaml:1:1`,
    );
  });

  it("explain traces a manifest instance past its RGD's status write to its manifest", async () => {
    const r = await cli(['explain', 'webapp', 'shop', '-f', WEBAPP, '-q']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('owner: (manifest)');
    expect(r.stdout).toContain(
      `└─ primary: WebApps.kro.run(default/shop)@1  <- manifest ${WEBAPP}/instances.yaml:1:1`,
    );
  });

  it('the report says who made a nested instance, and its lineage reaches the manifest', async () => {
    const data = await reportData(SAAS);
    const app = data.resources.find((x) => x.type === 'TenantApplications.kro.run');
    expect(app?.owner).toBe('');
    expect(app?.writer).toBe('ResourceGraph(tenant.kro.run)');
    const from = app?.from.map(([i, via]) => [data.resources[i]?.type, via]);
    expect(from).toEqual([['Tenants.kro.run', 'primary']]);
    const tenant = data.resources.find((x) => x.type === 'Tenants.kro.run');
    expect(tenant?.writer).toBeUndefined();
    expect(tenant?.source).toBe(`${SAAS}/tenant-instance.yaml:1`);
  });
});

describe('the lineage of RGD outputs', () => {
  it('names the other outputs of the instance that its template read', async () => {
    const view = await graphJson(['-f', WEBAPP, '--resources', '-q']);
    const service = resourceOf(view, 'Services.core', 'shop-svc');
    expect(service.derivedFrom).toEqual([
      { namespace: 'default', type: 'Deployments.apps', id: 'shop', via: 'template' },
      { namespace: 'default', type: 'WebApps.kro.run', id: 'shop', via: 'primary' },
    ]);
    const deployment = resourceOf(view, 'Deployments.apps', 'shop');
    expect(deployment.derivedFrom.map((s) => s.via)).toEqual(['primary']);
    const explain = await cli(['explain', 'service', 'shop-svc', '-f', WEBAPP, '-q']);
    expect(explain.stdout).toContain('template: Deployments.apps(default/shop)@');
    const data = await reportData(WEBAPP);
    const inReport = data.resources.find((x) => x.type === 'Services.core');
    expect(inReport?.from.map(([i, via]) => [data.resources[i]?.type, via])).toEqual([
      ['Deployments.apps', 'template'],
      ['WebApps.kro.run', 'primary'],
    ]);
  });
});
