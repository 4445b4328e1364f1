import type { ErrorObject } from 'ajv';
import { describe, expect, it } from 'vitest';
import { bestBranchErrors } from '../../src/loaders/best-branch-errors.js';
import { loadManifests } from '../../src/loaders/load-manifests.js';

/** A CRD whose spec has the given schema properties, and one object with the given spec. */
function check(properties: string, spec: string): string[][] {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: things.example.com }
spec:
  group: example.com
  names: { kind: Thing, plural: things }
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
${properties.replace(/^/gm, '                ')}
`;
  const thing = `apiVersion: example.com/v1\nkind: Thing\nmetadata: { name: a }\nspec: ${spec}\n`;
  return loadManifests([{ path: 'a.yaml', text: `${crd}---\n${thing}` }]).findings.map((f) => [
    f.pointer,
    f.message,
  ]);
}

// The shape of the Gateway API's spec.addresses (gateway.networking.k8s.io_gateways.yaml).
const ADDRESSES = `addresses:
  type: array
  items:
    type: object
    oneOf:
      - properties:
          type: { enum: [IPAddress] }
          value: { anyOf: [{ format: ipv4 }, { format: ipv6 }] }
      - properties:
          type: { not: { enum: [IPAddress] } }
    properties:
      type: { type: string, default: IPAddress }
      value: { type: string }`;

describe('the errors of a failed anyOf or oneOf', () => {
  it("are its best branch's: an IP address that is none is not also said to be of another type", () => {
    expect(
      check(
        ADDRESSES,
        '{ addresses: [{ type: IPAddress, value: 1.1.1 }, { type: Hostname, value: x }, { value: "::1" }, { type: IPAddress, value: "1:::2" }] }',
      ),
    ).toEqual([
      [
        '/spec/addresses/0',
        'Invalid value: "": "spec.addresses[0]" must validate one and only one schema (oneOf). Found none valid',
      ],
      [
        '/spec/addresses/0/value',
        'Invalid value: "1.1.1": spec.addresses[0].value in body must be of type ipv4: "1.1.1"',
      ],
      [
        '/spec/addresses/0/value',
        'Invalid value: "1.1.1": spec.addresses[0].value in body must be of type ipv6: "1.1.1"',
      ],
      [
        '/spec/addresses/0/value',
        'Invalid value: "": "spec.addresses[0].value" must validate at least one schema (anyOf)',
      ],
      [
        '/spec/addresses/3',
        'Invalid value: "": "spec.addresses[3]" must validate one and only one schema (oneOf). Found none valid',
      ],
      [
        '/spec/addresses/3/value',
        'Invalid value: "1:::2": spec.addresses[3].value in body must be of type ipv4: "1:::2"',
      ],
      [
        '/spec/addresses/3/value',
        'Invalid value: "1:::2": spec.addresses[3].value in body must be of type ipv6: "1:::2"',
      ],
      [
        '/spec/addresses/3/value',
        'Invalid value: "": "spec.addresses[3].value" must validate at least one schema (anyOf)',
      ],
    ]);
  });

  it('keep the branch a discriminating enum or required field points at', () => {
    const target = `target:
  type: object
  oneOf:
    - required: [url]
      properties: { url: { pattern: "^https://" } }
    - required: [service]
      properties: { kind: { enum: [Service] }, service: { maxLength: 5 } }
  properties:
    kind: { type: string }
    url: { type: string }
    service: { type: string }`;
    expect(check(target, '{ target: { url: "http://x" } }')).toEqual([
      [
        '/spec/target',
        'Invalid value: "": "spec.target" must validate one and only one schema (oneOf). Found none valid',
      ],
      [
        '/spec/target/url',
        'Invalid value: "http://x": spec.target.url in body should match \'^https://\'',
      ],
    ]);
    expect(check(target, '{ target: { kind: Service, service: too-long } }')).toEqual([
      [
        '/spec/target',
        'Invalid value: "": "spec.target" must validate one and only one schema (oneOf). Found none valid',
      ],
      ['/spec/target/service', 'Too long: may not be more than 5 bytes'],
    ]);
    // Neither alternative is closer: both are named.
    expect(check(target, '{ target: {} }')).toEqual([
      ['/spec/target/url', 'Required value'],
      ['/spec/target/service', 'Required value'],
      [
        '/spec/target',
        'Invalid value: "": "spec.target" must validate one and only one schema (oneOf). Found none valid',
      ],
    ]);
    // Two alternatives taken: the oneOf alone, no branch failed.
    expect(check(target, '{ target: { url: "https://x", service: s } }')).toEqual([
      [
        '/spec/target',
        'Invalid value: "": "spec.target" must validate one and only one schema (oneOf). Found 2 valid alternatives',
      ],
    ]);
  });
});

describe('bestBranchErrors', () => {
  const error = (schemaPath: string, keyword: string, instancePath = ''): ErrorObject => ({
    instancePath,
    schemaPath,
    keyword,
    params: {},
  });
  const schema = { oneOf: [{ enum: ['a'] }, { pattern: 'x' }] };

  it('cuts the branches that mismatch more', () => {
    const errors = [error('#/oneOf/0/enum', 'enum'), error('#/oneOf/1/pattern', 'pattern')];
    const oneOf = error('#/oneOf', 'oneOf');
    expect(bestBranchErrors([...errors, oneOf], schema)).toEqual([errors[1], oneOf]);
  });

  it('keeps every error when a branch is not seen to fail (its errors came from a $ref)', () => {
    const errors = [
      error('#/definitions/x/pattern', 'pattern'),
      error('#/oneOf/1/enum', 'enum'),
      error('#/oneOf/2/pattern', 'pattern'),
      error('#/oneOf', 'oneOf'),
    ];
    const three = { oneOf: [{ $ref: '#/definitions/x' }, ...schema.oneOf], definitions: { x: {} } };
    expect(bestBranchErrors(errors, three)).toEqual(errors);
  });

  it("keeps another value's errors under the same schema path", () => {
    const errors = [
      error('#/items/oneOf/0/enum', 'enum', '/0'),
      error('#/items/oneOf/1/pattern', 'pattern', '/0'),
      error('#/items/oneOf', 'oneOf', '/0'),
      error('#/items/oneOf/0/enum', 'enum', '/1'),
      error('#/items/oneOf/1/pattern', 'pattern', '/1'),
      error('#/items/oneOf', 'oneOf', '/1'),
    ];
    expect(bestBranchErrors(errors, { items: schema })).toEqual([
      errors[1],
      errors[2],
      errors[4],
      errors[5],
    ]);
  });
});
