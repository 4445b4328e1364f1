import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestProject, expectNoResource, type TestProject } from '../../src/testing/index.js';
import { typeErrorMessage } from '../../src/app/resource-query.js';
import { TypeResolutionError } from '../../src/engine/resource/definition-registry.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const NOTE = 'a kro ResourceGraphDefinition is not a resource in cosi';

const open: TestProject[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

// kro's e2e suites assert the RGD itself (rgd-assert.yaml: status.state, topologicalOrder):
// the unknown type said "did you mean resourcedefinition", an unrelated type.
describe('the RGD as a type name', () => {
  it('says what became of the RGD, with no did-you-mean, in a test project', async () => {
    const p = await createTestProject({ cwd: REPO, manifests: 'fixtures/kro-webapp' });
    open.push(p);
    await p.converge();
    for (const name of ['ResourceGraphDefinition', 'rgd', 'RGDs']) {
      expect(() => p.pointer(name, 'webapp.kro.run')).toThrow(NOTE);
      expect(() => p.pointer(name, 'webapp.kro.run')).not.toThrow('did you mean');
    }
    await expect(expectNoResource(p, 'ResourceGraphDefinition', 'webapp.kro.run')).rejects.toThrow(
      NOTE,
    );
  });

  it('says it for cosi get', async () => {
    const p = await createTestProject({ cwd: REPO, manifests: 'fixtures/kro-webapp' });
    open.push(p);
    const message = typeErrorMessage(
      new TypeResolutionError('unknown-type', 'rgd', []),
      p.project.registry,
    );
    expect(message).toContain(NOTE);
    expect(message).not.toContain('did you mean');
  });
});
