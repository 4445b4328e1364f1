import { describe, expect, it } from 'vitest';
import { formatCelType } from '../../../src/loaders/cel/cel-types.js';
import { celTypeOfSchema } from '../../../src/loaders/kro/expression-types.js';
import { fieldPathOf, lookupField } from '../../../src/loaders/kro/reference-types.js';

const schema = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        port: { type: 'integer' },
        labels: { type: 'object', additionalProperties: { type: 'string' } },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        target: { 'x-kubernetes-int-or-string': true },
        items: { type: 'array', items: { type: 'object', properties: { n: { type: 'string' } } } },
      },
    },
    metadata: { type: 'object' },
  },
};

describe('the fields an RGD expression reads', () => {
  it('takes plain field paths only', () => {
    expect(fieldPathOf('schema.spec.port')).toEqual({ root: 'schema', path: ['spec', 'port'] });
    expect(fieldPathOf('schema.spec.?port')).toBeUndefined();
    expect(fieldPathOf('string(schema.spec.port)')).toBeUndefined();
    expect(fieldPathOf('schema')).toBeUndefined();
  });

  it('finds a field, a map value and a list item by their schemas', () => {
    const type = (path: (string | number)[]) => {
      const found = lookupField(schema, path);
      return found.state === 'found' ? formatCelType(celTypeOfSchema(found.schema)) : found.state;
    };
    expect(type(['spec', 'port'])).toBe('int');
    expect(type(['spec', 'labels', 'app'])).toBe('string');
    expect(type(['spec', 'items', 0, 'n'])).toBe('string');
    // kro's CEL type of x-kubernetes-int-or-string: dyn (pkg/cel/schemas.go).
    expect(type(['spec', 'target'])).toBe('dyn');
  });

  it('says a field is missing only where the schema closes the object', () => {
    expect(lookupField(schema, ['spec', 'prot'])).toEqual({
      state: 'missing',
      index: 1,
      known: ['port', 'labels', 'extra', 'target', 'items'],
    });
    expect(lookupField(schema, ['spec', 'extra', 'anything'])).toEqual({ state: 'open' });
    expect(lookupField(schema, ['metadata', 'name'])).toEqual({ state: 'open' });
    expect(lookupField(schema, ['spec', 'port', 'x'])).toMatchObject({
      state: 'not-an-object',
      index: 2,
    });
    expect(lookupField(schema, ['spec', 'target', 'x'])).toEqual({ state: 'open' });
  });
});
