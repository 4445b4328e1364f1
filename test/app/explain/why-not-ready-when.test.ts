import { writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainResource } from '../../../src/app/explain/explain-resource.js';
import { explainSourceOf, runProject } from '../../../src/app/run-project.js';
import { temporaryDirectory } from '../../support/temporary-directory.js';

const root = resolve(import.meta.dirname, '../../..');

async function whyNotIn(cwd: string, dir: string, type: string, id: string): Promise<string[]> {
  const run = await runProject({ cwd, files: [dir], record: true, stable: true });
  const outcome = run.outcome;
  if (!outcome) throw new Error('the project did not load');
  const source = explainSourceOf(outcome, run.manifests.resources);
  if (!source) throw new Error('not recorded');
  const explanation = explainResource(source, { namespace: 'default', type, id });
  return (explanation.whyNot ?? []).flatMap((w) => w.findings.map((f) => f.message));
}

describe('--why-not: a resource that waits on a readyWhen names where it is written', () => {
  it("gives the dependency's readyWhen expression its file:line:col", async () => {
    const messages = await whyNotIn(
      root,
      'fixtures/kro-examples/webapp',
      'Services.core',
      'test-app',
    );
    expect(messages).toEqual([
      'for WebApps.kro.run(default/test-app), resource service depends on deployment, which is not ready: readyWhen ${deployment.spec.replicas == deployment.status.availableReplicas} (fixtures/kro-examples/webapp/rg.yaml:27:9) (no such key: status)',
    ]);
  });

  it('names each readyWhen that is false, at its line', async () => {
    const dir = await temporaryDirectory('cosi-why-not-ready-');
    await writeFile(
      path.join(dir, 'rgd.yaml'),
      [
        'apiVersion: kro.run/v1alpha1',
        'kind: ResourceGraphDefinition',
        'metadata:',
        '  name: gate.kro.run',
        'spec:',
        '  schema:',
        '    apiVersion: v1alpha1',
        '    kind: Gate',
        '    spec:',
        '      open: string | default=no',
        '  resources:',
        '    - id: flag',
        '      readyWhen:',
        '        - ${flag.data.open == "yes"}',
        '      template:',
        '        apiVersion: v1',
        '        kind: ConfigMap',
        '        metadata:',
        '          name: ${schema.metadata.name}-flag',
        '        data:',
        '          open: ${schema.spec.open}',
        '    - id: after',
        '      template:',
        '        apiVersion: v1',
        '        kind: ConfigMap',
        '        metadata:',
        '          name: ${flag.metadata.name}-after',
        '        data: {}',
        '---',
        'apiVersion: kro.run/v1alpha1',
        'kind: Gate',
        'metadata:',
        '  name: g',
        'spec: {}',
        '',
      ].join('\n'),
    );
    const messages = await whyNotIn(dir, '.', 'ConfigMaps.core', 'g-flag-after');
    expect(messages).toContain(
      'for Gates.kro.run(default/g), resource after depends on flag, which is not ready: readyWhen ${flag.data.open == "yes"} (rgd.yaml:14:11) is false',
    );
  });
});
