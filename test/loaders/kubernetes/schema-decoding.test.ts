import { describe, expect, it } from 'vitest';
import { decodedSchema } from '../../../src/loaders/kubernetes/schema-decoding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * A CRD's schema as the API server decodes it into JSONSchemaProps: null keywords are left out,
 * and below `items`, `additionalProperties` and `dependencies` keys that are no keyword are
 * dropped (openshift/api's Route and DNS CRDs).
 */

const crd = (property: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
${property}
---
apiVersion: example.com/v1
kind: Widget
metadata: { name: w }
spec: { port: 8080, upstreams: [{ address: 10.0.0.1 }] }
`;

describe("a CRD's schema as the API server decodes it", () => {
  it('leaves out a keyword written null (openshift Route: anyOf: null beside int-or-string)', () => {
    const text = crd(`                port:
                  anyOf: null
                  allOf: null
                  description: null
                  x-kubernetes-int-or-string: true
                upstreams:
                  type: array
                  items:
                    type: object
                    required: null
                    properties:
                      address: { type: string, pattern: null }`);
    expect(loadManifests([{ path: 'w.yaml', text }]).findings).toEqual([]);
  });

  it('drops a key that is no keyword below items (openshift DNS: optional:), refuses it elsewhere', () => {
    const below = crd(`                port: { type: integer }
                upstreams:
                  type: array
                  items:
                    type: object
                    properties:
                      address: { type: string, optional: true }`);
    expect(loadManifests([{ path: 'w.yaml', text: below }]).findings).toEqual([]);
    const above = crd(`                port: { type: integer, optional: true }
                upstreams: { type: array, items: { type: object, x-kubernetes-preserve-unknown-fields: true } }`);
    expect(
      loadManifests([{ path: 'w.yaml', text: above }]).findings.map((f) => [f.code, f.message]),
    ).toContainEqual([
      'invalid-schema',
      'the schema of Widgets.example.com is invalid: unknown keyword "optional"',
    ]);
  });

  it('keeps a schema that needs no decoding as it is, and turns a null property into {}', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    expect(decodedSchema(schema)).toBe(schema);
    expect(
      decodedSchema({
        type: 'object',
        properties: { a: null, b: { type: 'array', items: { type: 'string', x: 1 } } },
        additionalProperties: false,
      }),
    ).toEqual({
      type: 'object',
      properties: { a: {}, b: { type: 'array', items: { type: 'string' } } },
      additionalProperties: false,
    });
  });
});
