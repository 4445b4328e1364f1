import { describe, expect, it } from 'vitest';
import { createSchemaCompiler } from '../../src/loaders/schema-compiler.js';

describe('SchemaCompiler', () => {
  it('compiles a schema object once and hands back the same result', () => {
    const compiler = createSchemaCompiler();
    const schema = { type: 'object', required: ['a'] };
    const first = compiler.compile(schema);
    expect(compiler.compile(schema)).toBe(first);
    expect(compiler.compile({ ...schema })).not.toBe(first);
  });

  it('gives every problem with its path, keyword and part', () => {
    const { validate, problems } = createSchemaCompiler().compile({
      type: 'object',
      additionalProperties: false,
      required: ['size'],
      properties: { size: { type: 'integer' }, kind: { enum: ['ssd', 'hdd'] } },
    });
    expect(problems).toEqual([]);
    // In ajv's order; the loaders sort findings by position.
    expect(validate?.({ kind: 'tape', 'a/b': 1 })).toEqual([
      {
        path: '',
        part: 'value',
        keyword: 'required',
        message: "must have required property 'size'",
      },
      {
        path: '/a~1b',
        part: 'key',
        keyword: 'additionalProperties',
        message: 'unknown field "a/b"',
      },
      { path: '/kind', part: 'value', keyword: 'enum', message: 'must be one of "ssd", "hdd"' },
    ]);
    expect(validate?.({ size: 3 })).toEqual([]);
  });

  it('reports one problem per place of an invalid schema, at its path inside the schema', () => {
    const { validate, problems } = createSchemaCompiler().compile({
      type: 'objekt',
      properties: { a: { type: 5 }, b: { minimum: 'x' } },
    });
    expect(validate).toBeUndefined();
    expect(problems.map((p) => [p.path, p.keyword])).toEqual([
      ['/properties/a/type', 'enum'],
      ['/properties/b/minimum', 'type'],
      ['/type', 'enum'],
    ]);
  });
});
