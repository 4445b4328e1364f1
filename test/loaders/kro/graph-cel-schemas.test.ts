/**
 * An RGD expression reads each variable as kro's runtime does (`UnstructuredToVal` with the
 * schema of what it is): a `format: byte` string is CEL bytes, a `date-time` a timestamp; and a
 * Secret as the API server serves it, its `stringData` merged into `data`.
 */
import { describe, expect, it } from 'vitest';
import {
  compileGraphExpression,
  type VariableSchemas,
} from '../../../src/loaders/kro/graph-cel.js';
import type { SchemaNode } from '../../../src/loaders/schema-node.js';

/** The part of a Secret's schema that matters here, as core/v1's OpenAPI writes it. */
const SECRET: SchemaNode = {
  type: 'object',
  properties: {
    apiVersion: { type: 'string' },
    kind: { type: 'string' },
    data: { type: 'object', additionalProperties: { type: 'string', format: 'byte' } },
    stringData: { type: 'object', additionalProperties: { type: 'string' } },
    metadata: {
      type: 'object',
      properties: { creationTimestamp: { type: 'string', format: 'date-time' } },
    },
  },
};
const SECRETS: SchemaNode = { type: 'array', items: SECRET };

const schemas: VariableSchemas = (name) =>
  name === 'secret' ? SECRET : name === 'secrets' ? SECRETS : undefined;

function evaluate(
  source: string,
  scope: Record<string, unknown>,
  schemaOf: VariableSchemas | undefined = schemas,
): unknown {
  const compiled = compileGraphExpression(source);
  if ('error' in compiled) throw new Error(compiled.error);
  return compiled.evaluate(scope, schemaOf);
}

const withData = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'creds', creationTimestamp: '2026-01-02T03:04:05Z' },
  data: { clientId: 'bWF4', clientSecret: 'bXVzdGVybWFubg==' },
};

describe('an RGD expression reading a byte field', () => {
  it('reads it as bytes: string() decodes, size() counts bytes, base64 round-trips', () => {
    const scope = { secret: withData };
    expect(evaluate('string(secret.data.clientId)', scope)).toEqual({ value: 'max' });
    expect(evaluate('size(secret.data.clientSecret)', scope)).toEqual({ value: 10 });
    expect(evaluate('secret.data.clientId == b"max"', scope)).toEqual({ value: true });
    expect(evaluate('base64.encode(secret.data.clientSecret)', scope)).toEqual({
      value: 'bXVzdGVybWFubg==',
    });
    expect(
      evaluate('base64.decode(base64.encode(secret.data.clientId)) == secret.data.clientId', scope),
    ).toEqual({ value: true });
  });

  it('refuses bytes written straight into a field, as kro does', () => {
    expect(evaluate('secret.data.clientId', { secret: withData })).toEqual({
      error: expect.stringContaining('bytes value cannot be used directly') as unknown,
    });
  });

  it('reads a date-time field as a timestamp', () => {
    expect(
      evaluate('secret.metadata.creationTimestamp > timestamp("2026-01-01T00:00:00Z")', {
        secret: withData,
      }),
    ).toEqual({ value: true });
  });

  it("reads each item of a list by the list's item schema", () => {
    const other = { ...withData, data: { clientId: 'eW91' } };
    expect(
      evaluate('secrets.map(s, string(s.data.clientId))', { secrets: [withData, other] }),
    ).toEqual({ value: ['max', 'you'] });
  });

  it('reads the value as JSON where no schema is given (a transform)', () => {
    const compiled = compileGraphExpression('secret.data.clientId');
    if ('error' in compiled) throw new Error(compiled.error);
    expect(compiled.evaluate({ secret: withData })).toEqual({ value: 'bWF4' });
  });

  it('evaluates again when the same values come with other schemas', () => {
    const compiled = compileGraphExpression('size(secret.data.clientSecret)');
    if ('error' in compiled) throw new Error(compiled.error);
    const scope = { secret: withData };
    expect(compiled.evaluate(scope, schemas)).toEqual({ value: 10 });
    expect(compiled.evaluate(scope, () => undefined)).toEqual({ value: 16 });
  });
});

describe("an RGD expression reading a Secret's stringData", () => {
  const written = {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name: 'creds' },
    data: { clientId: 'b2xk', kept: 'a2VwdA==' },
    stringData: { clientId: 'héllo' },
  };

  it('reads it in data, as its UTF-8 bytes over the key data had, and stringData not at all', () => {
    const scope = { secret: written };
    expect(evaluate('string(secret.data.clientId)', scope)).toEqual({ value: 'héllo' });
    expect(evaluate('size(secret.data.clientId)', scope)).toEqual({ value: 6 });
    expect(evaluate('string(secret.data.kept)', scope)).toEqual({ value: 'kept' });
    expect(evaluate('has(secret.stringData)', scope)).toEqual({ value: false });
    expect(evaluate('base64.encode(secret.data.clientId)', scope)).toEqual({
      value: Buffer.from('héllo').toString('base64'),
    });
  });

  it('leaves the Secret it was given as it was written', () => {
    const secret = structuredClone(written);
    evaluate('string(secret.data.clientId)', { secret });
    expect(secret).toEqual(written);
  });

  it('merges each Secret of a collection', () => {
    expect(
      evaluate('secrets.map(s, string(s.data.clientId))', { secrets: [written, withData] }),
    ).toEqual({ value: ['héllo', 'max'] });
  });
});
