import { afterEach, describe, expect, it } from 'vitest';
import * as path from 'node:path';
import {
  createTestProject,
  expectConverged,
  expectResource,
  type TestProject,
} from '../../src/testing/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');

// kro's e2e suite check-external-references: an externalRef to a ConfigMap, and a ConfigMap
// rendered from it. The RGD both reads and writes ConfigMaps.
const RGD = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: check-external-references
spec:
  schema:
    apiVersion: v1alpha1
    kind: ExternalReferenceTest
    spec:
      name: string | default=foobar
  resources:
    - id: input
      externalRef:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: external
          namespace: default
    - id: owned
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: config
        data:
          ECHO_VALUE: '\${input.?data.ECHO_VALUE.orValue("not found")}'
`;
const INSTANCE = `apiVersion: kro.run/v1alpha1
kind: ExternalReferenceTest
metadata:
  name: test
`;
const external = (value: string): string => `apiVersion: v1
kind: ConfigMap
metadata:
  name: external
  namespace: default
data:
  ECHO_VALUE: ${value}
`;

const open: TestProject[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});
async function project(manifests: string): Promise<TestProject> {
  const p = await createTestProject({ cwd: REPO, manifests });
  open.push(p);
  return p;
}

describe('an externalRef of a kind the RGD also renders', () => {
  it('is watched: the object created after the start renders the instance', async () => {
    const p = await project(`${RGD}---\n${INSTANCE}`);
    await p.converge();
    await expectResource(p, 'ExternalReferenceTest', 'test', { status: { state: 'IN_PROGRESS' } });
    await p.apply(external('hello'));
    expectConverged(await p.converge());
    await expectResource(p, 'ExternalReferenceTest', 'test', { status: { state: 'ACTIVE' } });
    await expectResource(p, 'ConfigMap', 'config', { data: { ECHO_VALUE: 'hello' } });
  });

  it('is watched: a change and a deletion of the object render the instance again', async () => {
    const p = await project(`${RGD}---\n${INSTANCE}---\n${external('hello')}`);
    expectConverged(await p.converge());
    await expectResource(p, 'ConfigMap', 'config', { data: { ECHO_VALUE: 'hello' } });
    await p.apply(external('bye'));
    expectConverged(await p.converge());
    await expectResource(p, 'ConfigMap', 'config', { data: { ECHO_VALUE: 'bye' } });
    await p.destroy('ConfigMap', 'external');
    await p.converge();
    await expectResource(p, 'ExternalReferenceTest', 'test', { status: { state: 'IN_PROGRESS' } });
  });

  it('converges with few reconciles: its own writes of the type do not loop', async () => {
    const p = await project(`${RGD}---\n${INSTANCE}---\n${external('hello')}`);
    const report = await p.converge();
    expectConverged(report);
    expect(report.reconciles).toBeLessThan(6);
  });
});

describe('an edit of what an RGD renders', () => {
  it('is refused with the observed status to give instead', async () => {
    const p = await project('fixtures/kro-webapp');
    await p.converge();
    await expect(
      p.edit('Deployment', 'shop', (d) => {
        d.spec = { status: { availableReplicas: 1 } };
      }),
    ).rejects.toThrow(
      'it is rendered by ResourceGraph(webapp.kro.run): what a cluster would report of it is given as an observed status, applied as the object annotated cosi.dev/observed: "true" with its status, then edited as { type: observed, id: "Deployments.apps:shop" }',
    );
  });
});
