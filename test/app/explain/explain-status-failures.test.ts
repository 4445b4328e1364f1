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

describe('explain: why a resource that exists is not ready, or failed', () => {
  it('names the controller whose reconciles of the resource failed, and the last error', async () => {
    const explanation = await explainIn(
      'fixtures/cli/why-not',
      'Widgets.whynot.cosi.dev',
      'broken',
    );
    expect(explanation.failures).toHaveLength(1);
    expect(explanation.failures[0]).toMatchObject({
      controller: 'GadgetController',
      attempts: 10,
      failed: 10,
      gaveUp: true,
      message: 'the broken widget cannot be built',
    });
    expect(explanation.failures[0]?.reconciles).toHaveLength(10);
    const tree = renderExplainTree(explanation);
    expect(tree).toContain('reconciles of it that failed');
    expect(tree).toMatch(
      /GadgetController: 10 of 10 failed, given up \(#\d+, #\d+, #\d+, … #\d+\): error: the broken widget cannot be built/,
    );
  });

  it('says a terminal failure was not retried', async () => {
    const explanation = await explainIn('fixtures/cli/why-not', 'Widgets.whynot.cosi.dev', 'bad');
    expect(explanation.failures).toMatchObject([
      { controller: 'GadgetController', failed: 1, terminal: true },
    ]);
    expect(renderExplainTree(explanation)).toContain('1 of 1 failed (terminal, not retried)');
  });

  it("shows a kro instance's state and conditions: what it waits on", async () => {
    const explanation = await explainIn(
      'fixtures/kro-examples/webapp',
      'WebApps.kro.run',
      'test-app',
    );
    expect(explanation.status?.state).toBe('IN_PROGRESS');
    expect(explanation.status?.conditions.find((c) => c.type === 'Ready')).toMatchObject({
      status: 'False',
      reason: 'NotReady',
    });
    expect(explanation.failures).toEqual([]);
    const tree = renderExplainTree(explanation);
    expect(tree).toContain('status\n  state: IN_PROGRESS\n  TYPE ');
    expect(tree).toMatch(
      /\n {2}Ready +False +NotReady +awaiting resource readiness: deployment: readyWhen \$\{deployment\.spec\.replicas == deployment\.status\.availableReplicas\}/,
    );
  });

  it('has no status section for a resource without state or conditions, nor failures', async () => {
    const explanation = await explainIn('fixtures/kro-webapp', 'Deployments.apps', 'shop');
    expect(explanation.status).toBeUndefined();
    expect(explanation.failures).toEqual([]);
    const tree = renderExplainTree(explanation);
    expect(tree).not.toContain('\nstatus\n');
    expect(tree).not.toContain('reconciles of it that failed');
  });
});
