import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainResource } from '../../../src/app/explain/explain-resource.js';
import { explainSourceOf, runProject } from '../../../src/app/run-project.js';
import { renderExplainTree } from '../../../src/cli/render/explain/explain-tree.js';

const root = resolve(import.meta.dirname, '../../..');

async function explainIn(dir: string, type: string, id: string) {
  const run = await runProject({ cwd: root, files: [dir], record: true, stable: true });
  const outcome = run.outcome;
  if (!outcome) throw new Error('the fixture did not load');
  const source = explainSourceOf(outcome, run.manifests.resources);
  if (!source) throw new Error('not recorded');
  return explainResource(source, { namespace: 'default', type, id });
}

describe('explain: the RGD resource an output was rendered from', () => {
  it("names the RGD, the resource's id and its template's line", async () => {
    const explanation = await explainIn('fixtures/kro-webapp', 'Services.core', 'shop-svc');
    expect(explanation.renderedBy).toEqual({
      graph: 'webapp.kro.run',
      resource: 'service',
      template: 'fixtures/kro-webapp/rgd.yaml:45:9',
    });
    expect(renderExplainTree(explanation).split('\n')[1]).toBe(
      'rendered from: ResourceGraphDefinition webapp.kro.run, resource service, template fixtures/kro-webapp/rgd.yaml:45:9',
    );
  });

  it('names it for a nested instance, which kro writes unowned', async () => {
    const explanation = await explainIn(
      'fixtures/kro-examples/saas-multi-tenant',
      'TenantApplications.kro.run',
      'tenant001',
    );
    expect(explanation.renderedBy).toMatchObject({
      graph: 'tenant.kro.run',
      resource: 'tenantApplication',
    });
    expect(explanation.renderedBy?.template).toMatch(
      /^fixtures\/kro-examples\/saas-multi-tenant\/tenant-rgd\.yaml:\d+:\d+$/,
    );
  });

  it("says what the output's readyWhen waits on, at its line, and nothing when it is ready", async () => {
    const waiting = await explainIn('fixtures/kro-examples/webapp', 'Deployments.apps', 'test-app');
    expect(waiting.renderedBy?.notReady).toBe(
      'readyWhen ${deployment.spec.replicas == deployment.status.availableReplicas} (fixtures/kro-examples/webapp/rg.yaml:27:9) (no such key: status)',
    );
    expect(renderExplainTree(waiting).split('\n')[2]).toBe(
      'not ready: readyWhen ${deployment.spec.replicas == deployment.status.availableReplicas} (fixtures/kro-examples/webapp/rg.yaml:27:9) (no such key: status)',
    );
    const ready = await explainIn('fixtures/kro-webapp', 'Deployments.apps', 'shop');
    expect(ready.renderedBy?.notReady).toBeUndefined();
    expect(renderExplainTree(ready)).not.toContain('not ready:');
  });

  it('names nothing for a manifest', async () => {
    const explanation = await explainIn('fixtures/kro-webapp', 'WebApps.kro.run', 'shop');
    expect(explanation.renderedBy).toBeUndefined();
    expect(renderExplainTree(explanation)).not.toContain('rendered from:');
  });
});
