import { describe, expect, it } from 'vitest';
import {
  fieldPathOf,
  fitsType,
  lookupField,
  schemaTypeOf,
} from '../../../src/loaders/kro/reference-types.js';

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
      return found.state === 'found' ? schemaTypeOf(found.schema) : found.state;
    };
    expect(type(['spec', 'port'])).toBe('integer');
    expect(type(['spec', 'labels', 'app'])).toBe('string');
    expect(type(['spec', 'items', 0, 'n'])).toBe('string');
    expect(type(['spec', 'target'])).toBe('int-or-string');
  });

  it('says a field is missing only where the schema closes the object', () => {
    expect(lookupField(schema, ['spec', 'prot'])).toEqual({
      state: 'missing',
      index: 1,
      known: ['port', 'labels', 'extra', 'target', 'items'],
    });
    expect(lookupField(schema, ['spec', 'extra', 'anything'])).toEqual({ state: 'open' });
    expect(lookupField(schema, ['metadata', 'name'])).toEqual({ state: 'open' });
  });

  it('lets integers into numbers and int-or-string fields, and nothing else across types', () => {
    expect(fitsType('integer', 'number')).toBe(true);
    expect(fitsType('integer', 'int-or-string')).toBe(true);
    expect(fitsType('string', 'int-or-string')).toBe(true);
    expect(fitsType('int-or-string', 'integer')).toBe(true);
    expect(fitsType('string', 'integer')).toBe(false);
    expect(fitsType('number', 'integer')).toBe(false);
    expect(fitsType('array', 'string')).toBe(false);
  });
});
