/**
 * A Kubernetes-shaped manifest's `metadata.ownerReferences` as kubectl writes them (apiVersion,
 * kind, name, uid): read as cosi owner references to the owner by kind and name, or said at
 * file:line:col when the garbage collector could not resolve them; never dropped silently.
 */
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const where = (f: Finding) => [f.code, f.line, f.col, f.pointer];

const configMap = (references: string, name = 'web-config') => `apiVersion: v1
kind: ConfigMap
metadata:
  name: ${name}
  namespace: shop
  ownerReferences:
${references}
data: { a: "1" }
`;

const ownersOf = (text: string) => {
  const { resources, findings } = loadManifests([{ path: 'app.yaml', text }]);
  return { owners: resources.map((r) => r.resource.metadata.ownerReferences), findings };
};

describe("a manifest's kubectl-shaped ownerReferences", () => {
  it('name their owner by kind and name, controller and blockOwnerDeletion kept', () => {
    const { owners, findings } = ownersOf(
      configMap(`    - apiVersion: apps/v1
      kind: Deployment
      name: web
      uid: 3f1c2a4e-8d7b-4c1e-9a0f-2b6d5e7f8a90
      controller: true
      blockOwnerDeletion: true
    - { apiVersion: v1, kind: Namespace, name: shop, uid: 11111111-2222-3333-4444-555555555555 }`),
    );
    expect(findings).toEqual([]);
    expect(owners).toEqual([
      [
        { type: 'Deployments.apps', id: 'web', controller: true, blockOwnerDeletion: true },
        { type: 'Namespaces.core', id: 'shop' },
      ],
    ]);
  });

  it("resolve a CRD's kind of the same manifests", () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: tenants.example.org }
spec:
  group: example.org
  scope: Cluster
  names: { plural: tenants, kind: Tenant }
  versions:
    - name: v1
      served: true
      storage: true
      schema: { openAPIV3Schema: { type: object } }
---
`;
    const { owners, findings } = ownersOf(
      crd + configMap('    - { apiVersion: example.org/v1, kind: Tenant, name: acme, uid: u1 }'),
    );
    expect(findings).toEqual([]);
    expect(owners).toEqual([[{ type: 'Tenants.example.org', id: 'acme' }]]);
  });

  it('say a kind nothing defines at its kind, and leave that reference out', () => {
    const { owners, findings } = ownersOf(
      configMap(`    - { apiVersion: apps/v1, kind: Deploymnt, name: web, uid: u1 }
    - { apiVersion: apps/v1, kind: Deployment, name: web, uid: u2 }`),
    );
    expect(findings.map(where)).toEqual([
      ['unresolved-owner', 7, 36, '/metadata/ownerReferences/0/kind'],
    ]);
    expect(findings[0]?.severity).toBe('warning');
    expect(findings[0]?.message).toMatch(
      /^owner Deploymnt of apps\/v1: Kubernetes [\d.]+ has no kind Deploymnt in apps\/v1/,
    );
    expect(findings[0]?.message).toContain('did you mean kind Deployment of apps/v1?');
    expect(owners).toEqual([[{ type: 'Deployments.apps', id: 'web' }]]);
  });

  it("refuse a key an owner reference does not have (kubectl's strict field validation)", () => {
    const { owners, findings } = ownersOf(
      configMap(`    - apiVersion: apps/v1
      kind: Deployment
      name: web
      uid: u1
      controler: true`),
    );
    expect(findings.map(where)).toEqual([
      ['unknown-key', 11, 7, '/metadata/ownerReferences/0/controler'],
    ]);
    expect(findings[0]?.message).toContain('did you mean "controller"?');
    expect(owners).toEqual([]);
  });

  it('say a namespaced owner of a cluster-scoped object, which the garbage collector cannot resolve', () => {
    const { owners, findings } = ownersOf(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: reader
  ownerReferences:
    - { apiVersion: apps/v1, kind: Deployment, name: web, uid: u1 }
rules: []
`);
    expect(findings.map(where)).toEqual([
      ['unresolved-owner', 6, 7, '/metadata/ownerReferences/0'],
    ]);
    expect(findings[0]?.message).toContain('OwnerRefInvalidNamespace');
    expect(owners).toEqual([[]]);
  });
});
