import { describe, expect, it } from 'vitest';
import { structuralSchemaOf } from '../../../src/loaders/kubernetes/json-schema-structural.js';

describe("a kind's JSON Schema read back as its CRD schema", () => {
  it('opens the objects openapi2jsonschema closed, and only those', () => {
    const schema = structuralSchemaOf({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: { a: { type: 'string' } },
          additionalProperties: false,
        },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { a: { type: 'string' } } },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
      },
    });
  });

  it('reads oneOf [string, integer] as x-kubernetes-int-or-string, in lists and items too', () => {
    const intOrString = { oneOf: [{ type: 'integer' }, { type: 'string' }] };
    const schema = structuralSchemaOf({
      type: 'object',
      properties: {
        port: intOrString,
        ports: { type: 'array', items: intOrString },
        either: { anyOf: [{ properties: { p: intOrString } }] },
        other: { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
      },
    });
    expect(schema.properties).toEqual({
      port: { 'x-kubernetes-int-or-string': true },
      ports: { type: 'array', items: { 'x-kubernetes-int-or-string': true } },
      either: { anyOf: [{ properties: { p: { 'x-kubernetes-int-or-string': true } } }] },
      other: { oneOf: [{ type: 'string' }, { type: 'boolean' }] },
    });
  });

  it('reads type [T, "null"] as nullable T, and leaves other type lists as they are', () => {
    const schema = structuralSchemaOf({
      type: 'object',
      properties: {
        a: { type: ['string', 'null'] },
        b: { type: ['integer'] },
        c: { type: ['string', 'integer'] },
      },
    });
    expect(schema.properties).toEqual({
      a: { type: 'string', nullable: true },
      b: { type: 'integer' },
      c: { type: ['string', 'integer'] },
    });
  });

  it("drops the root's dialect and gives a root with properties its object type", () => {
    expect(
      structuralSchemaOf({
        $schema: 'http://json-schema.org/schema#',
        $id: 'x',
        properties: { spec: { type: 'object' } },
      }),
    ).toEqual({ type: 'object', properties: { spec: { type: 'object' } } });
  });

  it('keeps a property named like a keyword as a property', () => {
    const schema = structuralSchemaOf({
      type: 'object',
      properties: { oneOf: { type: 'string' }, additionalProperties: { type: 'boolean' } },
    });
    expect(schema.properties).toEqual({
      oneOf: { type: 'string' },
      additionalProperties: { type: 'boolean' },
    });
  });
});
