import { describe, expect, it } from 'vitest';
import { DYN, primitive, type CelType } from '../../../src/loaders/cel/cel-types.js';
import { instanceStatusSchema, schemaOfCelType } from '../../../src/loaders/kro/status-schema.js';

const OPEN = { 'x-kubernetes-preserve-unknown-fields': true };

describe("kro's status schema from CEL types (pkg/graph/schema/conversion_cel_type.go)", () => {
  it('writes the primitive types as OpenAPI types, bytes and timestamps as formatted strings', () => {
    expect(schemaOfCelType(primitive('int'))).toEqual({ type: 'integer' });
    expect(schemaOfCelType(primitive('uint'))).toEqual({ type: 'integer' });
    expect(schemaOfCelType(primitive('double'))).toEqual({ type: 'number' });
    expect(schemaOfCelType(primitive('bool'))).toEqual({ type: 'boolean' });
    expect(schemaOfCelType(primitive('string'))).toEqual({ type: 'string' });
    expect(schemaOfCelType(primitive('bytes'))).toEqual({ type: 'string', format: 'byte' });
    expect(schemaOfCelType(primitive('timestamp'))).toEqual({
      type: 'string',
      format: 'date-time',
    });
  });

  it('leaves open what kro cannot type: dyn, null, an optional, a duration', () => {
    expect(schemaOfCelType(DYN)).toEqual(OPEN);
    expect(schemaOfCelType(primitive('null'))).toEqual(OPEN);
    expect(schemaOfCelType({ kind: 'optional', value: primitive('int') })).toEqual(OPEN);
    expect(schemaOfCelType(primitive('duration'))).toEqual(OPEN);
  });

  it('writes lists, maps and objects with their element, value and field schemas', () => {
    const object: CelType = {
      kind: 'object',
      fields: new Map<string, CelType>([
        ['name', primitive('string')],
        ['ports', { kind: 'list', elem: primitive('int') }],
      ]),
    };
    expect(schemaOfCelType({ kind: 'list', elem: DYN })).toEqual({ type: 'array', items: OPEN });
    expect(schemaOfCelType({ kind: 'map', key: primitive('string'), value: object })).toEqual({
      type: 'object',
      additionalProperties: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          ports: { type: 'array', items: { type: 'integer' } },
        },
      },
    });
  });
});

describe("an instance's status schema", () => {
  it("places each field at its path, with kro's state and conditions", () => {
    const schema = instanceStatusSchema([
      { path: ['url'], schema: { type: 'string' } },
      { path: ['endpoints', 'http', 'port'], schema: { type: 'integer' } },
      { path: ['hosts', 0], schema: { type: 'string' } },
    ]);
    expect(schema).toMatchObject({
      type: 'object',
      properties: {
        url: { type: 'string' },
        endpoints: {
          type: 'object',
          properties: { http: { type: 'object', properties: { port: { type: 'integer' } } } },
        },
        hosts: { type: 'array', items: { type: 'string' } },
        state: { type: 'string' },
        conditions: { type: 'array', items: { type: 'object' } },
      },
    });
  });

  it('keeps a state the RGD writes itself', () => {
    const schema = instanceStatusSchema([{ path: ['state'], schema: { type: 'integer' } }]);
    expect(schema).toMatchObject({ properties: { state: { type: 'integer' } } });
  });
});
