import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { explainResource } from '../../../src/app/explain/explain-resource.js';
import { explainSourceOf, runProject } from '../../../src/app/run-project.js';
import { renderExplainTree } from '../../../src/cli/render/explain/explain-tree.js';

const root = resolve(import.meta.dirname, '../../..');

describe("explain: a kro instance's field its RGD's schema defaulted", () => {
  it('names the line of the RGD that writes the default', async () => {
    const run = await runProject({
      cwd: root,
      files: ['fixtures/kro-webapp'],
      record: true,
      stable: true,
    });
    if (!run.outcome) throw new Error('the fixture did not load');
    const source = explainSourceOf(run.outcome, run.manifests.resources);
    if (!source) throw new Error('not recorded');
    const explanation = explainResource(source, {
      namespace: 'default',
      type: 'WebApps.kro.run',
      id: 'shop',
    });
    const image = explanation.fields.find((f) => f.field === '/spec/image');
    expect(image?.by).toMatchObject({
      kind: 'manifest',
      schemaDefault: true,
      defaultAt: 'fixtures/kro-webapp/rgd.yaml:11:14',
    });
    // A field the manifest wrote has no default.
    const port = explanation.fields.find((f) => f.field === '/spec/port');
    expect(port?.by).not.toHaveProperty('defaultAt');
    expect(renderExplainTree(explanation)).toMatch(
      /\/spec\/replicas +manifest fixtures\/kro-webapp\/instances\.yaml:6:3 {2}default of its schema at fixtures\/kro-webapp\/rgd\.yaml:13:17\n/,
    );
  });
});
