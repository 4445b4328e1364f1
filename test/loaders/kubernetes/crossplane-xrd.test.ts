/** Crossplane XRDs define the kinds of their XRs and claims, as Crossplane's CRDs of them do. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const XRD_V1 = readFileSync(
  new URL('../../../fixtures/crossplane/postgresql-xrd.yaml', import.meta.url),
  'utf8',
);

const XRD_V2 = `apiVersion: apiextensions.crossplane.io/v2
kind: CompositeResourceDefinition
metadata:
  name: apps.platform.example.org
spec:
  group: platform.example.org
  names: { kind: App, plural: apps }
  versions:
    - name: v1
      served: true
      referenceable: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                image: { type: string }
`;

const load = (...texts: string[]) =>
  loadManifests(texts.map((text, i) => ({ path: `m${i}.yaml`, text })));

describe('Crossplane XRDs', () => {
  it("define the XR's and the claim's kinds, with the spec fields Crossplane adds", () => {
    const { findings, resources } = load(
      XRD_V1,
      `apiVersion: database.example.org/v1alpha1
kind: XPostgreSQLInstance
metadata: { name: db }
spec:
  parameters: { storageGB: 20 }
  compositionSelector: { matchLabels: { provider: aws } }
  writeConnectionSecretToRef: { name: db-conn, namespace: crossplane-system }
---
apiVersion: database.example.org/v1alpha1
kind: PostgreSQLInstance
metadata: { name: db, namespace: team-a }
spec:
  parameters: { storageGB: 0, storageGb: 1 }
  compositeDeletePolicy: Foreground
status: { conditions: [] }
`,
    );
    // The XRD is a resource of a kind no CRD here defines (Crossplane's own are not given).
    expect(findings.map((f) => [f.code, f.file, f.pointer])).toEqual([
      ['unknown-type', 'm0.yaml', '/kind'],
      ['schema-violation', 'm1.yaml', '/spec/parameters/storageGB'],
      ['schema-violation', 'm1.yaml', '/spec/parameters/storageGb'],
      // Crossplane's CRDs have the status subresource.
      ['ignored-status', 'm1.yaml', '/status'],
    ]);
    expect(resources.map((r) => [r.resource.metadata.type, r.resource.metadata.namespace])).toEqual(
      [
        // A v1 XR is cluster-scoped; its claim is namespaced.
        ['XPostgreSQLInstances.database.example.org', 'default'],
      ],
    );
  });

  it('define a v2 XR, namespaced unless the XRD says Cluster', () => {
    const { findings, resources } = load(
      XRD_V2,
      'apiVersion: platform.example.org/v1\nkind: App\nmetadata: { name: web, namespace: shop }\nspec: { image: nginx, crossplane: { compositionRef: { name: c } } }\n',
    );
    expect(findings.map((f) => f.code)).toEqual(['unknown-type']);
    expect(resources.map((r) => r.resource.metadata.namespace)).toEqual(['shop']);
  });
});
