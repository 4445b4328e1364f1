import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { strictWarnings } from '../../src/app/check/strict-warnings.js';
import { loadManifests } from '../../src/loaders/load-manifests.js';
import { cli } from './run-cli.js';

interface KubernetesDoc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
}

const docs = (yaml: string): KubernetesDoc[] =>
  parseAllDocuments(yaml).map((d) => d.toJS() as KubernetesDoc);

describe('cosi on Kubernetes manifests and CRDs (fixtures/kubernetes)', () => {
  it('runs a builder controller from a WebApp kind (a CRD in the tree) to built-in Deployments, to convergence', async () => {
    const r = await cli(['apply', '-f', 'fixtures/kubernetes', '-o', 'yaml', '--stable']);
    expect(r.stderr).toMatch(/^converged, 13 resources, 1 controller /);
    expect(r.code).toBe(0);
    const deployments = docs(r.stdout).filter((d) => d.kind === 'Deployment');
    expect(deployments.map((d) => [d.apiVersion, d.metadata.name])).toEqual([
      ['apps/v1', 'blog'],
      ['apps/v1', 'shop'],
    ]);
    const shop = deployments[1];
    expect(shop?.metadata.annotations).toEqual({ 'cosi.dev/owner': 'WebAppController' });
    // The WebApp's replicas, and the blog's from the WebApp CRD's default.
    expect(deployments.map((d) => d.spec?.replicas)).toEqual([2, 3]);
    // Both shapes in one tree: the cosi-shaped Host prints as cosi writes it.
    expect(r.stdout).toContain('type: Hosts.example.org');
    // The plain Kubernetes kinds of platform.yaml print back as Kubernetes documents.
    expect(
      docs(r.stdout)
        .filter((d) => !(d.apiVersion as string | undefined)?.includes('example.org'))
        .map((d) => `${d.apiVersion} ${d.kind}`),
    ).toEqual(
      expect.arrayContaining([
        'v1 ConfigMap',
        'v1 Service',
        'networking.k8s.io/v1 Ingress',
        'apps/v1 StatefulSet',
        'batch/v1 CronJob',
        'policy/v1 PodDisruptionBudget',
      ]),
    );
  });

  it('prints the CRD print columns in tables', async () => {
    const r = await cli(['get', '-f', 'fixtures/kubernetes', 'deploy', '--stable']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/REPLICAS\s+IMAGES$/);
    expect(r.stdout).toMatch(/shop\s+1\s+WebAppController\s+running\s+3\s+registry/);
  });

  it('reads its own -o yaml output of Kubernetes-shaped resources back, and refuses a controller output', async () => {
    const webapps = await cli(['get', '-f', 'fixtures/kubernetes', 'webapps', '-o', 'yaml']);
    expect(webapps.code).toBe(0);
    const crds = 'fixtures/kubernetes/apps-crds.yaml';
    const again = await cli(['check', '-f', crds, '-f', '-'], { stdin: webapps.stdout });
    expect(again.code).toBe(0);
    const deployments = await cli(['get', '-f', 'fixtures/kubernetes', 'deploy', '-o', 'yaml']);
    const refused = await cli(['check', '-f', crds, '-f', '-'], { stdin: deployments.stdout });
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('controller-output');
  });

  it('reports an unknown kind at its line, naming the CRD that would define it', async () => {
    const r = await cli(['check', 'fixtures/invalid/unknown-kind']);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      'fixtures/invalid/unknown-kind/resources.yaml:3:7: error[unknown-type]: no CustomResourceDefinition defines kind Certificate in cert-manager.io/v1: add one (certificates.cert-manager.io)',
    );
  });

  it('leaves the undeclared fields of a Kubernetes-shaped type to the load, not to --strict', () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: jobs.example.org }
spec:
  group: example.org
  names: { plural: jobs, kind: Job }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec: { type: object, properties: { image: { type: string } } }
            status:
              type: object
              x-kubernetes-preserve-unknown-fields: true
              properties: { phase: { type: string } }
`;
    const job =
      'apiVersion: example.org/v1\nkind: Job\nmetadata: { name: j }\nspec: { image: x }\nstatus: { phase: done, extra: 1 }\n';
    const { resources, findings } = loadManifests([
      { path: 'crd.yaml', text: crd },
      { path: 'job.yaml', text: job },
    ]);
    expect(findings).toEqual([]);
    expect(strictWarnings(resources, undefined)).toEqual([]);
  });
});
