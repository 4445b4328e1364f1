/**
 * kro's own chainsaw e2e suites (fixtures/kro-e2e), run offline by `cosi test`: each asserts the
 * RGD itself (rgd-assert.yaml: `status.state: Active`, the Ready condition, `topologicalOrder`,
 * kro's finalizer), which cosi, loading an RGD as its kind and controller, refused as "not a
 * resource in cosi" (kro4 review, finding 1: 11 of 11 suites stopped there), and most assert the
 * CRD kro generates for the kind (instancecrd-assert.yaml; finding 3: 9 of 11 stopped there).
 */
import { describe, expect, it } from 'vitest';
import { temporaryTree } from '../support/temporary-directory.js';
import { REPO, cli } from './run-cli.js';

const RGD = `${REPO}/fixtures/kro-e2e/check-external-references/rgd.yaml`;

describe("kro's e2e suites", () => {
  it('pass step by step: the RGD as kro writes it, instances, what they render', async () => {
    const { code, stdout } = await cli(['test', 'fixtures/kro-e2e']);
    expect(stdout).toMatch(/\(steps: 46 passed, 0 failed\)\n$/);
    expect(code).toBe(0);
  }, 60_000);

  it('expects the RGD with the status kro writes, and fails a wrong one with a diff', async () => {
    const dir = await temporaryTree('cosi-kro-rgd-', {
      'rgd-assert.yaml': [
        'apiVersion: kro.run/v1alpha1',
        'kind: ResourceGraphDefinition',
        'metadata: { name: check-external-references, generation: 1, finalizers: [kro.run/finalizer] }',
        'status:',
        '  state: Active',
        '  topologicalOrder: [owned, input]',
        '',
      ].join('\n'),
      'rgd.cosi-test.yaml': [
        `manifests: ${RGD}`,
        'steps:',
        '  - expect:',
        '      apiVersion: kro.run/v1alpha1',
        '      kind: ResourceGraphDefinition',
        '      metadata: { name: check-external-references }',
        '      status:',
        '        conditions:',
        '          - { type: GraphRevisionsResolved, status: "True" }',
        '          - { type: GraphAccepted, status: "True", reason: Valid }',
        '          - { type: KindReady, status: "True", message: kind ExternalReferenceTest has been accepted and ready }',
        '          - { type: ControllerReady, status: "True", reason: Running }',
        '          - { type: Ready, status: "True", observedGeneration: 1 }',
        '        resources: [{ id: owned, dependencies: [{ id: input }] }]',
        '  - expect: rgd-assert.yaml',
        '',
      ].join('\n'),
    });
    const { code, stdout } = await cli(['test', dir], { cwd: dir });
    expect(stdout).toContain(
      'rgd-assert.yaml:1:1: error[unexpected-state]: ResourceGraphDefinitions.kro.run(check-external-references) differs from the expected document\n',
    );
    expect(stdout).toContain(
      '   topologicalOrder:\n    -    - owned\n         - input\n    +    - owned\n',
    );
    expect(stdout).toContain('steps: 1 passed, 1 failed');
    expect(code).toBe(1);
  }, 60_000);

  it('says which RGDs the project serves, for one it does not and one expected absent', async () => {
    const dir = await temporaryTree('cosi-kro-rgd-', {
      'rgd.cosi-test.yaml': [
        `manifests: ${RGD}`,
        'steps:',
        '  - expect-absent: { apiVersion: kro.run/v1alpha1, kind: ResourceGraphDefinition, name: check-external-references }',
        '---',
        `manifests: ${RGD}`,
        'steps:',
        '  - expect: { apiVersion: kro.run/v1alpha1, kind: ResourceGraphDefinition, metadata: { name: webapp } }',
        '  - expect-absent: { apiVersion: kro.run/v1alpha1, kind: ResourceGraphDefinition, name: webapp }',
        '',
      ].join('\n'),
    });
    const { stdout } = await cli(['test', dir], { cwd: dir });
    expect(stdout.split('\n').filter((l) => l.includes('error['))).toEqual([
      'rgd.cosi-test.yaml:3:20: error[unexpected-resource]: ResourceGraphDefinitions.kro.run(check-external-references) exists: the project serves this RGD (its manifests hold the RGD)',
      'rgd.cosi-test.yaml:7:13: error[missing-resource]: expected ResourceGraphDefinitions.kro.run(webapp), but the project serves no such RGD (it serves: check-external-references)',
      'rgd.cosi-test.yaml:7:5: error[step-failed]: 1 later step not run',
    ]);
  }, 60_000);

  it("expects the CRD kro generates for the RGD's kind, and fails a wrong one with a diff", async () => {
    const dir = await temporaryTree('cosi-kro-crd-', {
      'crd.cosi-test.yaml': [
        `manifests: ${RGD}`,
        'steps:',
        '  - expect:',
        '      apiVersion: apiextensions.k8s.io/v1',
        '      kind: CustomResourceDefinition',
        '      metadata: { name: externalreferencetests.kro.run }',
        '      spec:',
        '        names: { kind: ExternalReferenceTest, plural: externalreferencetests }',
        '        scope: Namespaced',
        '        versions:',
        '          - name: v1alpha1',
        '            (additionalPrinterColumns[*].name): [State, Ready, Age]',
        '            schema:',
        '              openAPIV3Schema:',
        '                properties:',
        '                  status: { properties: { state: { type: string } } }',
        '            subresources: { status: {} }',
        '      status:',
        "        (conditions[?type == 'Established'].status): ['True']",
        '        storedVersions: [v1alpha1]',
        '  - expect:',
        '      apiVersion: apiextensions.k8s.io/v1',
        '      kind: CustomResourceDefinition',
        '      metadata: { name: externalreferencetests.kro.run }',
        '      spec: { scope: Cluster }',
        '  - expect: { apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, metadata: { name: webapps.kro.run } }',
        '',
      ].join('\n'),
    });
    const { code, stdout } = await cli(['test', dir], { cwd: dir });
    expect(stdout).toContain(
      'crd.cosi-test.yaml:22:7: error[unexpected-state]: CustomResourceDefinitions.apiextensions.k8s.io(externalreferencetests.kro.run) differs from the expected document\n',
    );
    expect(stdout).toContain('-  scope: Cluster\n    +  scope: Namespaced');
    expect(stdout).toContain('steps: 1 passed, 1 failed, 1 skipped');
    expect(code).toBe(1);
  }, 60_000);
});
