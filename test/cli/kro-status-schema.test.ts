/**
 * The status kro infers for an RGD's kind from its status expressions (krostatus review): the
 * instance kind's status schema had none of the RGD's status fields, so `cosi explain` listed
 * none, the CRD a scenario expects lacked them, and a nested RGD's `${child.status.x}` was
 * checked against nothing.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { temporaryTree } from '../support/temporary-directory.js';
import { REPO, cli } from './run-cli.js';

const WEBAPP_RGD = `${REPO}/fixtures/kro-webapp/rgd.yaml`;

/** A WebApp RGD whose status has a string template and nested fields. */
const RGD = `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: webapp.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: WebApp
    spec:
      name: string | required=true
    status:
      deploymentName: \${deployment.metadata.name}
      availableReplicas: \${deployment.status.availableReplicas}
      url: http://\${service.spec.clusterIP}
      endpoint:
        port: \${service.spec.ports[0].port}
        ready: \${deployment.status.availableReplicas > 0}
  resources:
    - id: deployment
      template:
        apiVersion: apps/v1
        kind: Deployment
        metadata:
          name: \${schema.spec.name}
        spec:
          selector:
            matchLabels:
              app: \${schema.spec.name}
          template:
            metadata:
              labels:
                app: \${schema.spec.name}
            spec:
              containers:
                - name: app
                  image: nginx
    - id: service
      template:
        apiVersion: v1
        kind: Service
        metadata:
          name: \${schema.spec.name}
        spec:
          selector:
            app: \${schema.spec.name}
          ports:
            - port: 80
`;

describe("an RGD kind's status, typed from the status expressions as kro does", () => {
  it('is listed by explain with the type of each field', async () => {
    const dir = await temporaryTree('cosi-kro-status-', { 'rgd.yaml': RGD });
    const status = await cli(['explain', '-f', dir, 'webapp.status'], { cwd: dir });
    expect(status.stdout).toMatch(/^ {2}availableReplicas\t<integer>$/m);
    expect(status.stdout).toMatch(/^ {2}deploymentName\t<string>$/m);
    expect(status.stdout).toMatch(/^ {2}url\t<string>$/m);
    expect(status.stdout).toMatch(/^ {2}endpoint\t<Object>$/m);
    expect(status.stdout).toMatch(/^ {2}state\t<string>$/m);
    expect(status.stdout).toMatch(/^ {2}conditions\t<\[\]Object>$/m);
    const endpoint = await cli(['explain', '-f', dir, 'webapp.status.endpoint'], { cwd: dir });
    expect(endpoint.stdout).toMatch(/^ {2}port\t<integer>$/m);
    expect(endpoint.stdout).toMatch(/^ {2}ready\t<boolean>$/m);
    expect(status.code).toBe(0);
  }, 60_000);

  it("is the status schema of the CRD kro generates, which a scenario's expect reads", async () => {
    const dir = await temporaryTree('cosi-kro-status-crd-', {
      'rgd.yaml': await readFile(WEBAPP_RGD, 'utf8'),
      'crd.cosi-test.yaml': [
        'manifests: rgd.yaml',
        'steps:',
        '  - expect:',
        '      apiVersion: apiextensions.k8s.io/v1',
        '      kind: CustomResourceDefinition',
        '      metadata: { name: webapps.kro.run }',
        '      spec:',
        '        versions:',
        '          - name: v1alpha1',
        '            schema:',
        '              openAPIV3Schema:',
        '                properties:',
        '                  status:',
        '                    properties:',
        '                      availableReplicas: { type: integer }',
        '                      deploymentName: { type: string }',
        '                      state: { type: string }',
        '                      conditions: { type: array }',
        '',
      ].join('\n'),
    });
    const { code, stdout } = await cli(['test', dir], { cwd: dir });
    expect(stdout).toContain('steps: 1 passed, 0 failed');
    expect(code).toBe(0);
  }, 60_000);

  it("types a nested RGD's ${child.status.x} by the child's status", async () => {
    const dir = await temporaryTree('cosi-kro-status-nested-', {
      'a-child.yaml': RGD,
      'b-parent.yaml': parent(
        [
          '          replicas: ${child.status.availableReplicas}',
          '          missing: ${child.status.nope}',
          '          name: ${child.status.deploymentName}',
          '          count: ${string(child.status.availableReplicas)}',
        ].join('\n'),
      ),
    });
    const { code, stdout } = await cli(['check', '-f', '.', '-q'], { cwd: dir });
    expect(stdout.split('\n').filter((line) => line.includes('error['))).toEqual([
      expect.stringMatching(
        /^b-parent\.yaml:\d+:\d+: error\[rgd-type-mismatch\]: \$\{child\.status\.availableReplicas\} is of type int, but data\.replicas of ConfigMaps\.core is of type string/,
      ),
      expect.stringMatching(
        /^b-parent\.yaml:\d+:\d+: error\[rgd-unknown-field\]: \$\{child\.status\.nope\} reads status\.nope, which child \(WebApps\.kro\.run\) cannot have/,
      ),
    ]);
    expect(code).toBe(1);
  }, 60_000);
  it('types it so when the nested RGD comes before its child in the files', async () => {
    const dir = await temporaryTree('cosi-kro-status-order-', {
      'a-parent.yaml': parent('          replicas: ${child.status.availableReplicas}'),
      'b-child.yaml': RGD,
    });
    const { code, stdout } = await cli(['check', '-f', '.', '-q'], { cwd: dir });
    expect(stdout.split('\n').filter((line) => line.includes('error['))).toEqual([
      expect.stringMatching(
        /^a-parent\.yaml:\d+:\d+: error\[rgd-type-mismatch\]: \$\{child\.status\.availableReplicas\} is of type int, but data\.replicas of ConfigMaps\.core is of type string/,
      ),
    ]);
    expect(code).toBe(1);
  }, 60_000);
});

/** An RGD of kind Parent with a WebApp `child` and a ConfigMap whose `data` is `data`. */
function parent(data: string): string {
  return `apiVersion: kro.run/v1alpha1
kind: ResourceGraphDefinition
metadata:
  name: parent.kro.run
spec:
  schema:
    apiVersion: v1alpha1
    kind: Parent
    spec:
      name: string
  resources:
    - id: child
      template:
        apiVersion: kro.run/v1alpha1
        kind: WebApp
        metadata:
          name: \${schema.spec.name}
        spec:
          name: \${schema.spec.name}
    - id: config
      template:
        apiVersion: v1
        kind: ConfigMap
        metadata:
          name: \${schema.spec.name}
        data:
${data}
`;
}
