import { describe, expect, it } from 'vitest';
import { createSchemaCompiler, SchemaCompiler } from '../../src/loaders/schema-compiler.js';

describe('SchemaCompiler', () => {
  it('compiles a schema object once and hands back the same result', () => {
    const compiler = createSchemaCompiler();
    const schema = { type: 'object', required: ['a'] };
    const first = compiler.compile(schema);
    expect(compiler.compile(schema)).toBe(first);
    expect(compiler.compile({ ...schema, required: ['b'] })).not.toBe(first);
  });

  it('compiles a schema written the same as one before once: copies of a CRD cost one', () => {
    const compiler = createSchemaCompiler();
    const schema = () => ({ type: 'object', properties: { a: { type: 'integer', default: 1 } } });
    const first = compiler.compile(schema());
    expect(compiler.compile(schema())).toBe(first);
    // What JSON cannot say is never taken for what it says: NaN and -0 read as null and 0.
    const withNumber = (n: number) => ({ enum: [n] });
    const nullEnum = compiler.compile({ enum: [null] });
    const nan = compiler.compile(withNumber(Number.NaN));
    expect(nan).not.toBe(nullEnum);
    expect(compiler.compile(withNumber(-0))).not.toBe(compiler.compile(withNumber(0)));
    expect(nullEnum.validate?.(null)).toEqual([]);
    expect(nan.validate?.(null)).not.toEqual([]);
  });

  it('keeps a bounded number of schemas by their text, the oldest out first', () => {
    const compiler = new SchemaCompiler({ schemas: 2, characters: 1000 });
    const schema = (n: number) => ({ type: 'object', required: [`a${n}`] });
    const [one, two] = [compiler.compile(schema(1)), compiler.compile(schema(2))];
    expect(compiler.compile(schema(1))).toBe(one);
    compiler.compile(schema(3));
    expect(compiler.compile(schema(2))).toBe(two);
    expect(compiler.compile(schema(1))).not.toBe(one);
    // And a bounded length of text.
    const short = new SchemaCompiler({ schemas: 10, characters: 60 });
    const first = short.compile(schema(1));
    short.compile(schema(2));
    expect(short.compile(schema(1))).not.toBe(first);
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
        // The API server says it at the missing field.
        apiServerMessage: 'Required value',
        apiServerPath: '/size',
      },
      {
        path: '/a~1b',
        part: 'key',
        keyword: 'additionalProperties',
        message: 'unknown field "a/b"',
      },
      {
        path: '/kind',
        part: 'value',
        keyword: 'enum',
        message: 'must be one of "ssd", "hdd"',
        // What a Kubernetes object checked whole is told instead, in the API server's words.
        apiServerMessage: 'Unsupported value: "tape": supported values: "ssd", "hdd"',
      },
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

  it('refuses a $ref cycle that never descends into the data, at the $ref', () => {
    const compiler = createSchemaCompiler();
    expect(compiler.compile({ $ref: '#' }).problems).toMatchObject([
      { path: '/$ref', keyword: '$ref' },
    ]);
    const { problems } = compiler.compile({
      definitions: { a: { allOf: [{ $ref: '#/definitions/b' }] }, b: { $ref: '#/definitions/a' } },
      properties: { x: { $ref: '#/definitions/a' } },
    });
    expect(problems).toHaveLength(1);
    expect(problems[0]?.keyword).toBe('$ref');
    // Recursion through a property is fine: it ends with the data.
    const tree = compiler.compile({ type: 'object', properties: { child: { $ref: '#' } } });
    expect(tree.problems).toEqual([]);
    expect(tree.validate?.({ child: { child: { child: 1 } } })).toHaveLength(1);
  });

  it('points a $ref to nowhere and an unknown keyword at their place in the schema', () => {
    const compiler = createSchemaCompiler();
    expect(
      compiler.compile({ properties: { a: { $ref: '#/definitions/nothing' } } }).problems,
    ).toMatchObject([{ path: '/properties/a/$ref', keyword: '$ref' }]);
    expect(compiler.compile({ properties: { a: { requried: ['x'] } } }).problems).toMatchObject([
      { path: '/properties/a/requried', part: 'key' },
    ]);
  });

  it("takes a $ref to draft-07's meta-schema, which ajv adds only for the schemas that name it", () => {
    const compiler = createSchemaCompiler();
    const plain = compiler.compile({ properties: { a: { type: 'string' } } });
    expect(plain.problems).toEqual([]);
    const { validate, problems } = compiler.compile({
      type: 'object',
      properties: { schema: { $ref: 'http://json-schema.org/draft-07/schema#' } },
    });
    expect(problems).toEqual([]);
    expect(validate?.({ schema: { type: 'string', minLength: 1 } })).toEqual([]);
    expect(validate?.({ schema: { type: 5 } })).not.toEqual([]);
    // A meta-schema ajv does not have is a problem, as it always was.
    expect(
      compiler.compile({ $schema: 'http://json-schema.org/draft-04/schema#', type: 'string' })
        .problems,
    ).toMatchObject([{ keyword: 'compile' }]);
    expect(
      compiler.compile({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'string' })
        .problems,
    ).toEqual([]);
  });

  it('runs patterns in linear time and refuses those the linear engine cannot run', () => {
    const compiler = createSchemaCompiler();
    const { validate } = compiler.compile({ type: 'string', pattern: '^(a+)+$' });
    const started = Date.now();
    expect(validate?.(`${'a'.repeat(40)}!`)).toHaveLength(1);
    expect(validate?.('aaaa')).toEqual([]);
    // Generous for a loaded machine: a backtracking engine takes some 2^40 steps here (hours).
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(
      compiler.compile({
        patternProperties: { '^(?=x)': {} },
        properties: { b: { pattern: '(a)\\1' } },
      }).problems,
    ).toMatchObject([
      { path: '/patternProperties/^(?=x)', part: 'key', keyword: 'pattern' },
      { path: '/properties/b/pattern', part: 'value', keyword: 'pattern' },
    ]);
  });

  it('keeps two patterns apart and matches them anywhere in the value, as RegExp#test does', () => {
    const { validate } = createSchemaCompiler().compile({
      properties: { a: { pattern: '[0-9]' }, b: { pattern: '^x' } },
    });
    expect(validate?.({ a: 'v1', b: 'xy' })).toEqual([]);
    expect(validate?.({ a: 'v', b: 'yx' })).toHaveLength(2);
  });

  it('compiles each schema on its own: a foreign $id breaks nothing after it', () => {
    const compiler = createSchemaCompiler();
    const meta = compiler.compile({
      $id: 'http://json-schema.org/draft-07/schema',
      type: 'object',
    });
    expect(meta.problems).toMatchObject([{ path: '/$id' }]);
    const same = { $id: 'http://example.org/a', type: 'string' };
    expect(compiler.compile(same).problems).toEqual([]);
    expect(compiler.compile({ ...same }).problems).toEqual([]);
    const after = compiler.compile({ type: 'object', properties: { n: { type: 'integer' } } });
    expect(after.problems).toEqual([]);
    expect(after.validate?.({ n: 'x' })).toHaveLength(1);
  });

  it('checks the formats the API server parses, and none it does not know', () => {
    const { validate } = createSchemaCompiler().compile({
      type: 'object',
      properties: {
        every: { type: 'string', format: 'duration' },
        days: { type: 'array', items: { type: 'string', format: 'date' } },
        at: { type: 'object', additionalProperties: { type: 'string', format: 'date-time' } },
        data: { type: 'string', format: 'byte' },
        host: { type: 'string', format: 'fqdn' },
      },
    });
    const value = {
      every: '1h30m',
      days: ['2024-02-29'],
      at: { start: '2024-01-01T00:00:00Z' },
      data: 'aGk=',
      host: 'not a hostname!',
    };
    expect(validate?.(value)).toEqual([]);
    expect(
      validate?.({
        ...value,
        every: 'soon',
        days: ['2024-02-30'],
        at: { start: 'now' },
        data: '!',
      }),
    ).toEqual([
      {
        path: '/every',
        part: 'value',
        keyword: 'format',
        message: 'must be of type duration: "soon"',
        apiServerMessage: 'Invalid value: "soon": every in body must be of type duration: "soon"',
      },
      {
        path: '/days/0',
        part: 'value',
        keyword: 'format',
        message: 'must be of type date: "2024-02-30"',
        apiServerMessage:
          'Invalid value: "2024-02-30": days[0] in body must be of type date: "2024-02-30"',
      },
      {
        path: '/at/start',
        part: 'value',
        keyword: 'format',
        message: 'must be of type date-time: "now"',
        apiServerMessage: 'Invalid value: "now": at.start in body must be of type date-time: "now"',
      },
      {
        path: '/data',
        part: 'value',
        keyword: 'format',
        message: 'must be of type byte: "!"',
        apiServerMessage: 'Invalid value: "!": data in body must be of type byte: "!"',
      },
    ]);
  });
});
