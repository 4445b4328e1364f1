/**
 * Keys that name what every JavaScript object inherits (`constructor`, `toString`, `__proto__`)
 * are plain keys in a manifest, as they are to the API server: read, validated and kept as
 * written, and never anything an object inherits.
 */
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/loaders/load-manifests.js';

/** A CRD of kind Gadget whose spec's schema is `spec` (YAML, indented for its place). */
const gadgetCrd = (spec: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: gadgets.example.com }
spec:
  group: example.com
  names: { kind: Gadget, plural: gadgets }
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
${spec}
`;

const gadget = (name: string, spec: string) =>
  `apiVersion: example.com/v1\nkind: Gadget\nmetadata: { name: ${name}, namespace: default }\n${spec}`;

const load = (...texts: string[]) => {
  const { resources, findings } = loadManifests(
    texts.map((text, i) => ({ path: `m${i}.yaml`, text })),
  );
  return {
    specs: resources.map((r): unknown[] => [
      r.resource.metadata.id,
      (r.resource.spec as { spec?: unknown }).spec,
    ]),
    findings: findings.map((f) => `${f.file}:${f.line} ${f.code} ${f.message} (${f.pointer})`),
  };
};

describe('keys named as what objects inherit', () => {
  it('are not fields of an object that does not have them (constructor, toString)', () => {
    const crd = gadgetCrd(`            type: object
            default: {}
            properties:
              constructor: { type: string, default: made }
              toString: { type: integer }`);
    const { specs, findings } = load(
      crd,
      gadget('a', ''),
      gadget('b', 'spec: { toString: 2 }'),
      gadget('c', 'spec: { toString: two }'),
    );
    expect(findings).toEqual([
      'm3.yaml:4 schema-violation Invalid value: "string": spec.toString in body must be of type integer: "string" (/spec/toString)',
    ]);
    expect(specs).toEqual([
      ['a', { constructor: 'made' }],
      ['b', { constructor: 'made', toString: 2 }],
    ]);
  });
});
