import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * A CRD version's `selectableFields`, as `ValidateCustomResourceSelectableFields` checks them: a
 * `.a.b` path to a declared string, boolean or integer field outside metadata, named once, at
 * most 8 of them.
 */

const load = (text: string) => loadManifests([{ path: 'crd.yaml', text }]).findings;
const at = (f: Finding) => [f.code, f.line, f.col, f.pointer, f.message];
const crd = (fields: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.org}
spec:
  group: example.org
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata: {type: object, properties: {name: {type: string}}}
          spec:
            type: object
            properties:
              color: {type: string, enum: [red, blue]}
              size: {type: integer}
              ready: {type: boolean}
              ratio: {type: number}
              parts: {type: array, items: {type: string}}
              labels: {type: object, additionalProperties: {type: string}}
    selectableFields:
${fields}`;
const field = (path: string) => `    - jsonPath: ${path}\n`;
const pointer = (i: number) => `/spec/versions/0/selectableFields/${i}/jsonPath`;

describe("a CRD's selectable fields (ValidateCustomResourceSelectableFields)", () => {
  it('takes paths to string, boolean and integer fields, map values included', () => {
    const fields = ['.spec.color', '.spec.size', '.spec.ready', '.spec.labels.team'];
    expect(load(crd(fields.map(field).join(''))).map(at)).toEqual([]);
  });

  it('refuses a path the schema does not declare, array notation, and one without its dot', () => {
    const fields = ['.spec.nope', ".spec['color']", 'spec.color', '.spec.'];
    expect(load(crd(fields.map(field).join(''))).map(at)).toEqual([
      [
        'invalid-definition',
        27,
        17,
        pointer(0),
        'Invalid value: ".spec.nope": is an invalid path: "nope" is not a field of the schema',
      ],
      [
        'invalid-definition',
        28,
        17,
        pointer(1),
        'Invalid value: ".spec[\'color\']": is an invalid path: array notation is not allowed',
      ],
      [
        'invalid-definition',
        29,
        17,
        pointer(2),
        'Invalid value: "spec.color": is an invalid path: expected "." or "[", not spec',
      ],
      [
        'invalid-definition',
        30,
        17,
        pointer(3),
        'Invalid value: ".spec.": is an invalid path: unexpected end of the path',
      ],
    ]);
  });

  it('refuses a field of another type, metadata, and a field named twice', () => {
    const fields = ['.spec.ratio', '.spec.parts', '.metadata.name', '.spec.size', '.spec.size'];
    expect(load(crd(fields.map(field).join(''))).map((f) => [f.pointer, f.message])).toEqual([
      [
        pointer(0),
        'Invalid value: ".spec.ratio": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      ],
      [
        pointer(1),
        'Invalid value: ".spec.parts": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
      ],
      [pointer(2), 'Invalid value: ".metadata.name": must not point to fields in metadata'],
      [pointer(4), 'Duplicate value: ".spec.size"'],
    ]);
  });

  it('refuses more than 8 fields', () => {
    const fields = Array.from({ length: 9 }, (_, i) => `.spec.labels.k${i}`);
    expect(load(crd(fields.map(field).join(''))).map((f) => [f.pointer, f.message])).toEqual([
      ['/spec/versions/0/selectableFields', 'Too many: 9: must have at most 8 items'],
    ]);
  });
});
