/**
 * Schema problems ratchet on an update. Cases ported from apiextensions-apiserver
 * `pkg/apiserver/validation/ratcheting_test.go` (TestScalarRatcheting, ...) and
 * `test/integration/ratcheting_test.go` (TestRatchetingFunctionality's cases, by name).
 */

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { JsonSchema } from '../../src/engine/resource/definition.js';
import { correlate, ratchetSchemaProblems } from '../../src/loaders/ratcheting.js';
import { createSchemaCompiler } from '../../src/loaders/schema-compiler.js';
import { findUnknownFields } from '../../src/loaders/kubernetes/unknown-fields.js';

const compiler = createSchemaCompiler();

/** The problems reported for an update from `old` to `now` (YAML), as `pointer keyword`. */
function update(schemaYaml: string, old: string, now: string, typeMeta = false): string[] {
  const schema = parse(schemaYaml) as JsonSchema;
  const { validate } = compiler.compile(schema);
  if (validate === undefined) throw new Error('invalid schema');
  const value: unknown = parse(now);
  const previous: unknown = parse(old);
  const problems = [...validate(value), ...findUnknownFields(value, schema)];
  return ratchetSchemaProblems(problems, correlate(value, previous, schema, { typeMeta }), () =>
    validate(previous),
  ).map((p) => `${p.path} ${p.keyword}`);
}

const MEDIUM = '{type: number, minimum: 50, maximum: 10000}';
const OBJECT = `
type: object
properties:
  zero: {type: number, minimum: 0, maximum: 0}
  small: {type: number, maximum: 50}
  medium: ${MEDIUM}
  large: {type: number, minimum: 10000}
`;

describe('schema problems on an update (ratcheting)', () => {
  it('TestScalarRatcheting: an unchanged invalid value passes, a changed one does not', () => {
    expect(update(MEDIUM, '1', '1')).toEqual([]);
    expect(update(MEDIUM, '1', '2')).toEqual([' minimum']);
  });

  it('TestObjectScalarFieldsRatcheting: scalar fields of objects ratchet one by one', () => {
    expect(update(OBJECT, '{small: 500}', '{small: 500}')).toEqual([]);
    expect(update(OBJECT, '{small: 501, medium: 500}', '{small: 501}')).toEqual([]);
    expect(update(OBJECT, '{small: 501}', '{small: 500}')).toEqual(['/small maximum']);
  });

  it('TestObjectObjectFieldsRatcheting: fields of nested objects ratchet', () => {
    const schema = `{type: object, properties: {nested: ${JSON.stringify(parse(OBJECT))}}}`;
    expect(update(schema, '{nested: {small: 500}}', '{nested: {small: 500}}')).toEqual([]);
    expect(update(schema, '{nested: {small: 501, medium: 500}}', '{nested: {small: 501}}')).toEqual(
      [],
    );
    expect(update(schema, '{nested: {small: 501}}', '{nested: {small: 500}}')).toEqual([
      '/nested/small maximum',
    ]);
  });

  it('Minimum Maximum: new valid fields beside unchanged invalid ones pass; a changed one is reported', () => {
    const schema = `
type: object
properties:
  hasMinimum: {type: integer, minimum: 10}
  hasMaximum: {type: integer, maximum: 20}
  noRestrictions: {type: integer}
`;
    const old = '{hasMinimum: 0, hasMaximum: 1000}';
    expect(update(schema, old, '{hasMinimum: 0, hasMaximum: 1000, noRestrictions: 50}')).toEqual(
      [],
    );
    expect(update(schema, old, '{hasMinimum: 5, hasMaximum: 1000}')).toEqual([
      '/hasMinimum minimum',
    ]);
    expect(update(schema, old, '{hasMinimum: 11, hasMaximum: 1000}')).toEqual([]);
  });

  const MAP_LIST = `
type: object
properties:
  field:
    type: array
    maxItems: 2
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name, port]
    items:
      type: object
      required: [name, port]
      properties:
        name: {type: string}
        port: {type: number, multipleOf: 2}
        field: {type: string}
`;
  const THREE = `field:
  - {name: nginx, port: 443, field: value}
  - {name: etcd, port: 2379, field: value}
  - {name: kube-apiserver, port: 6443, field: value}`;

  it('Map Type List Reordering Grandfathers Invalid Key: a reordered map list is unchanged', () => {
    const reordered = `field:
  - {name: kube-apiserver, port: 6443, field: value}
  - {name: nginx, port: 443, field: value}
  - {name: etcd, port: 2379, field: value}`;
    expect(update(MAP_LIST, THREE, reordered)).toEqual([]);
  });

  it('Map Type List Reordering Grandfathers Invalid Key: an item added is reported, unchanged keys are not', () => {
    const added = `field:
  - {name: nginx, port: 443, field: value}
  - {name: etcd, port: 2379, field: value}
  - {name: kube-apiserver, port: 6443, field: a changed value of a grandfathered key}
  - {name: dev, port: 8080, field: value}`;
    // The odd ports are kept though their items changed: a port is a node of its own.
    expect(update(MAP_LIST, THREE, added)).toEqual(['/field maxItems']);
  });

  it('ArrayItems do not correlate by index: items of an atomic list ratchet only with the list', () => {
    const schema = `
type: object
properties:
  values:
    type: array
    items: {type: object, additionalProperties: {type: string, minLength: 6}}
  otherField: {type: string}
`;
    const old = 'values: [{name: "1", key: value}, {name: "2", key: value}]';
    const problems = [
      '/values/0/name minLength',
      '/values/0/key minLength',
      '/values/1/name minLength',
      '/values/1/key minLength',
    ];
    expect(
      update(
        schema,
        old,
        'values: [{name: "1", key: value}, {name: "2", key: value}]\notherField: x',
      ),
    ).toEqual([]);
    expect(
      update(
        schema,
        old,
        'values: [{name: "1", key: value}, {name: "2", key: value, key2: valid value}]',
      ),
    ).toEqual(problems);
  });

  it('a set list does not correlate its items: an item added reports the unchanged invalid ones', () => {
    const schema = `{type: array, x-kubernetes-list-type: set, items: {type: string, maxLength: 3}}`;
    expect(update(schema, '[toolong]', '[toolong]')).toEqual([]);
    expect(update(schema, '[toolong]', '[toolong, ok]')).toEqual(['/0 maxLength']);
  });

  it('required belongs to the object: it ratchets while the object is unchanged, not once it changes', () => {
    const schema = `{type: object, properties: {spec: {type: object, required: [size], properties: {size: {type: string}, color: {type: string}}}}}`;
    expect(update(schema, 'spec: {color: red}', 'spec: {color: red}')).toEqual([]);
    expect(update(schema, 'spec: {color: red}', 'spec: {color: blue}')).toEqual(['/spec required']);
  });

  it('AllOf_should_not_ratchet: a problem inside allOf belongs to the node that carries it', () => {
    const schema = `
type: object
properties:
  spec:
    type: object
    allOf: [{properties: {size: {type: string, maxLength: 3}}}]
    properties: {size: {type: string}, color: {type: string}}
`;
    expect(update(schema, 'spec: {size: toolong}', 'spec: {size: toolong}')).toEqual([]);
    expect(update(schema, 'spec: {size: toolong}', 'spec: {size: toolong, color: red}')).toEqual([
      '/spec/size maxLength',
    ]);
  });

  it('fields the schema does not declare never ratchet', () => {
    const schema = `{type: object, properties: {spec: {type: object, properties: {a: {type: string}}}}}`;
    expect(update(schema, 'spec: {b: x}', 'spec: {b: x}')).toEqual(['/spec/b unknown-field']);
  });

  it('duplicate list items are reported only when the previous revision had none', () => {
    const schema = `{type: object, properties: {a: {type: array, x-kubernetes-list-type: set, items: {type: string}}, b: {type: string}}}`;
    expect(update(schema, '{a: [x, x], b: one}', '{a: [x, x], b: two}')).toEqual([]);
    expect(update(schema, '{a: [x, y], b: one}', '{a: [x, x], b: one}')).toEqual([
      '/a/1 x-kubernetes-list-type',
    ]);
  });

  it("a Kubernetes object's apiVersion and kind never ratchet", () => {
    const schema = `{type: object, properties: {kind: {type: string, maxLength: 2}, spec: {type: string, maxLength: 2}}}`;
    const object = '{kind: Widget, spec: toolong}';
    expect(update(schema, object, object, true)).toEqual(['/kind maxLength']);
    expect(update(schema, object, object)).toEqual([]);
  });
});
