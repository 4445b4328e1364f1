/**
 * Lists compare as their `x-kubernetes-list-type` says, as the API server's `UnstructuredToVal`
 * lists do (k8s.io/apiserver `pkg/cel/common/valuesunstructured.go`): a `set` as a set, a `map`
 * by its keys' items, both in any order; other lists in order.
 */

import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { evaluateRules } from '../../../src/loaders/cel/evaluate-rules.js';

const SCHEMA = `
type: object
properties:
  set:
    type: array
    x-kubernetes-list-type: set
    items: { type: string }
  atomic:
    type: array
    items: { type: string }
  ports:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name, protocol]
    items:
      type: object
      properties:
        name: { type: string }
        protocol: { type: string }
        port: { type: integer }
        hosts:
          type: array
          x-kubernetes-list-type: set
          items: { type: string }
`;

/** The codes of the violations of `rule` on `now` (YAML), `old` its previous value. */
function check(rule: string, now: string, old?: string): string[] {
  const schema = { ...(parse(SCHEMA) as object), 'x-kubernetes-validations': [{ rule }] };
  return evaluateRules(schema, parse(now), {
    ...(old === undefined ? {} : { previous: { value: parse(old) } }),
  }).map((v) => v.code);
}

describe('x-kubernetes-list-type: set', () => {
  it('equals the same elements in another order', () => {
    expect(check('self.set == oldSelf.set', 'set: [a, b, c]', 'set: [c, a, b]')).toEqual([]);
    expect(check("self.set == ['b', 'a']", 'set: [a, b]')).toEqual([]);
  });

  it('differs from other elements, or from fewer', () => {
    expect(check('self.set == oldSelf.set', 'set: [a, b]', 'set: [a, c]')).toEqual([
      'cel-violation',
    ]);
    expect(check("self.set != ['a']", 'set: [a, b]')).toEqual([]);
    expect(check("self.set != ['b', 'a']", 'set: [a, b]')).toEqual(['cel-violation']);
  });

  it('makes the whole object equal its reordered previous value', () => {
    expect(check('self == oldSelf', 'set: [a, b]', 'set: [b, a]')).toEqual([]);
  });
});

describe('x-kubernetes-list-type: map', () => {
  const NOW = `
ports:
  - { name: http, protocol: TCP, port: 80, hosts: [a, b] }
  - { name: dns, protocol: UDP, port: 53 }
`;

  it("equals the same keys' items in another order, their sets in any order", () => {
    const old = `
ports:
  - { name: dns, protocol: UDP, port: 53 }
  - { name: http, protocol: TCP, port: 80, hosts: [b, a] }
`;
    expect(check('self.ports == oldSelf.ports', NOW, old)).toEqual([]);
    expect(check('self == oldSelf', NOW, old)).toEqual([]);
  });

  it('differs when an item of the same keys differs', () => {
    const old = `
ports:
  - { name: dns, protocol: UDP, port: 5353 }
  - { name: http, protocol: TCP, port: 80, hosts: [a, b] }
`;
    expect(check('self.ports == oldSelf.ports', NOW, old)).toEqual(['cel-violation']);
  });

  it('differs when a key differs', () => {
    const old = `
ports:
  - { name: dns, protocol: TCP, port: 53 }
  - { name: http, protocol: TCP, port: 80, hosts: [a, b] }
`;
    expect(check('self.ports == oldSelf.ports', NOW, old)).toEqual(['cel-violation']);
  });
});

describe('lists of no list type', () => {
  it('compare in order', () => {
    expect(check('self.atomic == oldSelf.atomic', 'atomic: [a, b]', 'atomic: [b, a]')).toEqual([
      'cel-violation',
    ]);
    expect(check("self.atomic == ['a', 'b']", 'atomic: [a, b]')).toEqual([]);
  });
});

describe('+ of lists, as the API server adds them', () => {
  it('unions a set, keeping the left order and appending what is new', () => {
    expect(check("self.set + ['b', 'c', 'c'] == ['a', 'b', 'c']", 'set: [a, b]')).toEqual([]);
    // Ordered, since a union's result here is a plain list: [a, b, c], not [a, b, b, c, c].
    expect(check("(self.set + ['b', 'c']).size() == 3", 'set: [a, b]')).toEqual([]);
  });

  it('merges a map list by its keys: a right item replaces its left one in place', () => {
    const now =
      'ports: [{ name: http, protocol: TCP, port: 80 }, { name: dns, protocol: UDP, port: 53 }]';
    const rule =
      "(self.ports + [{'name': 'http', 'protocol': 'TCP', 'port': 8080}, {'name': 'grpc', 'protocol': 'TCP', 'port': 9090}]).map(p, p.port) == [8080, 53, 9090]";
    expect(check(rule, now)).toEqual([]);
  });

  it('concatenates any other list', () => {
    expect(check("self.atomic + ['a'] == ['a', 'a']", 'atomic: [a]')).toEqual([]);
  });
});
