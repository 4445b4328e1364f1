/**
 * CEL rules ratchet on an update: ported from apiextensions-apiserver
 * `pkg/apiserver/schema/cel/validation_test.go` `TestRatcheting` (each case's name is its Go
 * name; its `errors` are what is reported, its `warnings` what ratchets).
 */

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { evaluateRules } from '../../../src/loaders/cel/evaluate-rules.js';
import { CostBudget } from '../../../src/loaders/cel/cost-budget.js';

/** The violations of an update from `old` to `now` (YAML), as `pointer: message`. */
function update(
  schema: string,
  old: string,
  now: string,
  options: { typeMeta?: boolean; budget?: CostBudget } = {},
): string[] {
  return evaluateRules(parse(schema) as object, parse(now), {
    previous: { value: parse(old) },
    ...options,
  }).map((v) => `${v.path}: ${v.code === 'cel-violation' ? v.message : v.code}`);
}

/** The same value checked as a create. */
function create(schema: string, now: string): string[] {
  return evaluateRules(parse(schema) as object, parse(now)).map((v) => `${v.path}: ${v.message}`);
}

const FOO_IS_BAR = `
type: object
properties:
  foo:
    type: string
    x-kubernetes-validations:
      - rule: self == "bar"
        message: gotta be bar
`;

describe('CEL rules on an update (ratcheting, TestRatcheting)', () => {
  it('normal CEL expression: an unchanged invalid field is not reported, as it is on a create or once changed', () => {
    expect(update(FOO_IS_BAR, 'foo: baz', 'foo: baz')).toEqual([]);
    expect(create(FOO_IS_BAR, 'foo: baz')).toEqual(['/foo: gotta be bar']);
    expect(update(FOO_IS_BAR, 'foo: qux', 'foo: baz')).toEqual(['/foo: gotta be bar']);
  });

  const ATOMIC = `
type: array
x-kubernetes-list-type: atomic
items:
  type: object
  properties:
    bar:
      type: string
      x-kubernetes-validations:
        - rule: self == "baz"
          message: gotta be baz
`;

  it("normal CEL expression thats a descendent of an atomic array whose parent is totally unchanged; we can't ratchet a normal CEL expression from an uncorrelatable part of the schema whose parent nodes has changed", () => {
    expect(update(ATOMIC, '[{bar: bar}]', '[{bar: bar}]')).toEqual([]);
    expect(update(ATOMIC, '[{bar: bar}]', '[{bar: bar}, {bar: baz}]')).toEqual([
      '/0/bar: gotta be baz',
    ]);
  });

  const ODD = `
type: number
x-kubernetes-validations:
  - rule: int(self) % 2 == 1
    message: gotta be odd
`;

  it('normal CEL expression thats a descendent of a set whose parent is totally unchanged', () => {
    const schema = `{type: array, x-kubernetes-list-type: set, items: ${JSON.stringify(parse(ODD))}}`;
    expect(update(schema, '[1, 2]', '[1, 2]')).toEqual([]);
    // A set's items do not correlate: one more item changes the set, and the 2 is reported.
    expect(update(schema, '[1, 2]', '[1, 2, 3]')).toEqual(['/1: gotta be odd']);
  });

  it('normal CEL expression thats a descendent of a set and one of its siblings has changed', () => {
    const schema = `
type: object
properties:
  stringField: { type: string }
  setArray: { type: array, x-kubernetes-list-type: set, items: ${JSON.stringify(parse(ODD))} }
`;
    expect(
      update(
        schema,
        '{stringField: foo, setArray: [1, 3, 2]}',
        '{stringField: changed but ratcheted, setArray: [1, 3, 2]}',
      ),
    ).toEqual([]);
  });

  const MAP_LIST = `
type: array
x-kubernetes-list-type: map
x-kubernetes-list-map-keys: [key]
items:
  type: object
  properties:
    key: { type: string }
    value:
      type: string
      x-kubernetes-validations:
        - rule: self == "baz"
          message: gotta be baz
`;

  it('descendent of a map list whose parent is unchanged', () => {
    expect(
      update(
        MAP_LIST,
        '[{key: foo, value: notbaz}, {key: bar, value: notbaz}]',
        '[{key: foo, value: notbaz}, {key: bar, value: notbaz}, {key: baz, value: baz}]',
      ),
    ).toEqual([]);
  });

  it('descendent of a map list whose siblings have changed', () => {
    expect(
      update(
        MAP_LIST,
        '[{key: foo, value: notbaz}, {key: bar, value: notbaz}]',
        // Reordered too: items correlate by their keys.
        '[{key: bar, value: notbaz}, {key: foo, value: baz}]',
      ),
    ).toEqual([]);
    expect(update(MAP_LIST, '[{key: foo, value: baz}]', '[{key: foo, value: notbaz}]')).toEqual([
      '/0/value: gotta be baz',
    ]);
  });

  it('descendent of a map whose siblings have changed', () => {
    const schema = `
type: object
properties:
  stringField: { type: string }
  mapField:
    type: object
    properties:
      foo:
        type: string
        x-kubernetes-validations: [{ rule: self == "baz", message: gotta be baz }]
      mapField:
        type: object
        properties:
          bar:
            type: string
            x-kubernetes-validations: [{ rule: self == "baz", message: gotta be baz }]
          otherBar:
            type: string
            x-kubernetes-validations: [{ rule: self == "otherBaz", message: gotta be otherBaz }]
`;
    expect(
      update(
        schema,
        '{stringField: foo, mapField: {foo: baz, mapField: {bar: notbaz, otherBar: nototherBaz}}}',
        '{stringField: foo, mapField: {foo: notbaz, mapField: {bar: notbaz, otherBar: otherBaz}}}',
      ),
    ).toEqual(['/mapField/foo: gotta be baz']);
  });

  it('transition rules never ratchet for correlatable schemas', () => {
    const schema = `
type: object
properties:
  foo:
    type: string
    x-kubernetes-validations:
      - rule: oldSelf != "bar" && self == "baz"
        message: gotta be baz
      - rule: self == "baz"
        message: not a transition rule
`;
    expect(update(schema, 'foo: bar', 'foo: bar')).toEqual(['/foo: gotta be baz']);
  });

  it('changing field path does not change ratcheting logic', () => {
    const schema = `
type: object
x-kubernetes-validations:
  - rule: self.foo == "baz"
    message: gotta be baz
    fieldPath: .foo
properties:
  bar: { type: string }
  foo: { type: string }
`;
    expect(update(schema, 'foo: bar', '{foo: bar, bar: invalid}')).toEqual(['/foo: gotta be baz']);
    expect(update(schema, '{foo: bar, bar: x}', '{foo: bar, bar: x}')).toEqual([]);
  });

  it('cost budget errors are not ratcheted', () => {
    const schema = `{type: string, x-kubernetes-validations: [{rule: '[1, 2, 3].all(x, x > 0) && self == "baz"'}]}`;
    const budget = new CostBudget(1);
    expect(update(schema, 'unchanged', 'unchanged', { budget })).toEqual([': cel-cost-exceeded']);
    expect(update(schema, 'unchanged', 'unchanged')).toEqual([]);
  });

  it('typemeta fields are not ratcheted', () => {
    const schema = `
type: object
properties:
  apiVersion: { type: string, x-kubernetes-validations: [{ rule: self == "v1" }] }
  kind: { type: string, x-kubernetes-validations: [{ rule: self == "Pod" }] }
  spec: { type: string, x-kubernetes-validations: [{ rule: self == "ok" }] }
`;
    const object = '{apiVersion: v2, kind: Baz, spec: notok}';
    expect(update(schema, object, object, { typeMeta: true })).toEqual([
      '/apiVersion: failed rule: self == "v1"',
      '/kind: failed rule: self == "Pod"',
    ]);
  });

  it('nested typemeta fields may still be ratcheted', () => {
    const typeMeta = `
      apiVersion: { type: string, x-kubernetes-validations: [{ rule: self == "v1" }] }
      kind: { type: string, x-kubernetes-validations: [{ rule: self == "Pod" }] }`;
    const schema = `
type: object
properties:
  list:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items:
      type: object
      properties:
        name: { type: string }
        otherField: { type: string }${typeMeta.replace(/\n {6}/g, '\n        ')}
  subField:
    type: object
    properties:
      otherField: { type: string }${typeMeta}
`;
    expect(
      update(
        schema,
        '{subField: {apiVersion: v2, kind: Baz}, list: [{name: entry1, apiVersion: v2, kind: Baz}]}',
        '{subField: {apiVersion: v2, kind: Baz, otherField: x}, list: [{name: entry1, apiVersion: v2, kind: Baz, otherField: y}]}',
        { typeMeta: true },
      ),
    ).toEqual([]);
  });
});
