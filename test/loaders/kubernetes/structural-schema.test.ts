import { describe, expect, it } from 'vitest';
import { applyDefaults } from '../../../src/loaders/kubernetes/defaulting.js';
import { findUnknownFields } from '../../../src/loaders/kubernetes/unknown-fields.js';
import { createSchemaCompiler } from '../../../src/loaders/schema-compiler.js';

const check = (schema: Record<string, unknown>, value: unknown) => {
  const compiled = createSchemaCompiler().compile(schema);
  expect(compiled.problems).toEqual([]);
  return (compiled.validate?.(value) ?? []).map((p) => [p.path, p.keyword]);
};

describe('the x-kubernetes-* keywords in schemas', () => {
  it('x-kubernetes-int-or-string takes integers and strings only', () => {
    const schema = {
      type: 'object',
      properties: { port: { 'x-kubernetes-int-or-string': true } },
    };
    expect(check(schema, { port: 80 })).toEqual([]);
    expect(check(schema, { port: 'http' })).toEqual([]);
    expect(check(schema, { port: 1.5 })).toEqual([['/port', 'x-kubernetes-int-or-string']]);
    expect(check(schema, { port: true })).toEqual([['/port', 'x-kubernetes-int-or-string']]);
  });

  it('x-kubernetes-list-type set and map refuse duplicates', () => {
    const set = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' };
    expect(check(set, ['a', 'b'])).toEqual([]);
    // At the repeat, as the API server's `spec.steps[1]: Duplicate value`.
    expect(check(set, ['a', 'b', 'a'])).toEqual([['/2', 'x-kubernetes-list-type']]);
    const map = {
      type: 'array',
      items: {
        type: 'object',
        properties: { name: { type: 'string' }, port: { type: 'integer' } },
      },
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    };
    expect(
      check(map, [
        { name: 'a', port: 1 },
        { name: 'b', port: 1 },
      ]),
    ).toEqual([]);
    expect(
      check(map, [
        { name: 'a', port: 1 },
        { name: 'a', port: 2 },
      ]),
    ).toEqual([['/1', 'x-kubernetes-list-type']]);
  });

  it('a set of objects holds an object once, whatever the order of its keys', () => {
    // The API server compares set items by their `json.Marshal`, which sorts an object's keys.
    const set = {
      type: 'array',
      'x-kubernetes-list-type': 'set',
      items: {
        type: 'object',
        'x-kubernetes-map-type': 'atomic',
        properties: { a: { type: 'string' }, b: { type: 'integer' } },
      },
    };
    expect(
      check(set, [
        { a: 'x', b: 1 },
        { a: 'x', b: 2 },
      ]),
    ).toEqual([]);
    expect(
      check(set, [
        { a: 'x', b: 1 },
        { b: 1, a: 'x' },
      ]),
    ).toEqual([['/1', 'x-kubernetes-list-type']]);
  });

  it('nullable takes null beside the type', () => {
    const schema = {
      type: 'object',
      properties: { limit: { type: 'integer', nullable: true }, size: { type: 'integer' } },
    };
    expect(check(schema, { limit: null })).toEqual([]);
    expect(check(schema, { size: null })).toEqual([['/size', 'type']]);
  });

  it('nullable without a type is accepted, and adds null to x-kubernetes-int-or-string', () => {
    const schema = {
      type: 'object',
      properties: {
        port: { 'x-kubernetes-int-or-string': true, nullable: true },
        strict: { 'x-kubernetes-int-or-string': true },
        values: { 'x-kubernetes-preserve-unknown-fields': true, nullable: true },
      },
    };
    expect(check(schema, { port: null, values: null })).toEqual([]);
    expect(check(schema, { port: 1.5 })).toContainEqual(['/port', 'x-kubernetes-int-or-string']);
    expect(check(schema, { strict: null })).toEqual([['/strict', 'x-kubernetes-int-or-string']]);
  });

  it('x-kubernetes-validations and the other annotations are accepted and check nothing themselves', () => {
    const schema = {
      type: 'object',
      'x-kubernetes-validations': [{ rule: 'false', message: 'never' }],
      'x-kubernetes-preserve-unknown-fields': true,
      'x-kubernetes-embedded-resource': false,
      'x-kubernetes-map-type': 'atomic',
    };
    expect(check(schema, { anything: 1 })).toEqual([]);
  });
});

describe('structural defaulting', () => {
  const schema = {
    type: 'object',
    properties: {
      spec: {
        type: 'object',
        properties: {
          replicas: { type: 'integer', default: 1 },
          strategy: {
            type: 'object',
            properties: { type: { type: 'string', default: 'RollingUpdate' } },
          },
          limit: { type: 'integer', nullable: true, default: 5 },
          size: { type: 'integer', default: 3 },
          note: { type: 'string' },
          ports: {
            type: 'array',
            items: {
              type: 'object',
              properties: { protocol: { type: 'string', default: 'TCP' } },
            },
          },
          labels: {
            type: 'object',
            additionalProperties: {
              type: 'object',
              properties: { weight: { type: 'integer', default: 1 } },
            },
          },
          tls: {
            type: 'object',
            default: {},
            properties: { on: { type: 'boolean', default: true } },
          },
        },
      },
    },
  };

  it('fills defaults in objects that exist, not in absent parents', () => {
    expect(applyDefaults({ spec: {} }, schema)).toEqual({
      spec: { replicas: 1, size: 3, limit: 5, tls: { on: true } },
    });
    expect(applyDefaults({}, schema)).toEqual({});
  });

  it('fills defaults in list items and map values', () => {
    expect(
      applyDefaults({ spec: { ports: [{}, { protocol: 'UDP' }], labels: { a: {} } } }, schema),
    ).toMatchObject({
      spec: { ports: [{ protocol: 'TCP' }, { protocol: 'UDP' }], labels: { a: { weight: 1 } } },
    });
  });

  it('keeps a nullable null, defaults a non-nullable one, and drops it when there is no default', () => {
    const value = applyDefaults({ spec: { limit: null, size: null, note: null } }, schema) as {
      spec: Record<string, unknown>;
    };
    expect(value.spec.limit).toBeNull();
    expect(value.spec.size).toBe(3);
    expect('note' in value.spec).toBe(false);
  });

  it('does not share the default value between resources', () => {
    const a = applyDefaults({ spec: {} }, schema) as { spec: { tls: object } };
    const b = applyDefaults({ spec: {} }, schema) as { spec: { tls: object } };
    expect(a.spec.tls).not.toBe(b.spec.tls);
  });
});

describe('unknown fields', () => {
  it('are the fields a structural schema does not declare, unless it preserves them', () => {
    const schema = {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { a: { type: 'string' } } },
        status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        data: { type: 'object', additionalProperties: { type: 'string' } },
      },
    };
    const value = {
      apiVersion: 'v1',
      kind: 'X',
      metadata: { name: 'x', anything: 1 },
      spec: { a: 'x', b: 1 },
      status: { whatever: true },
      data: { k: 'v' },
      extra: 1,
    };
    expect(findUnknownFields(value, schema).map((p) => [p.path, p.part])).toEqual([
      ['/spec/b', 'key'],
      ['/extra', 'key'],
    ]);
  });

  it('are kept in the items of an array that preserves them, but pruned below their declared fields', () => {
    // OpenTelemetry's TargetAllocator: scrapeConfigs is such an array of Prometheus configs.
    const schema = {
      type: 'object',
      properties: {
        configs: {
          type: 'array',
          'x-kubernetes-preserve-unknown-fields': true,
          items: {
            type: 'object',
            properties: { tls: { type: 'object', properties: { ca: { type: 'string' } } } },
          },
        },
        nested: {
          type: 'array',
          'x-kubernetes-preserve-unknown-fields': true,
          items: { type: 'array', items: { type: 'object' } },
        },
        plain: { type: 'array', items: { type: 'object' } },
      },
    };
    const value = {
      configs: [{ job_name: 'p', static_configs: [{}], tls: { ca: 'x', cert: 'y' } }],
      nested: [[{ any: 1 }]],
      plain: [{ job_name: 'p' }],
    };
    expect(findUnknownFields(value, schema).map((p) => p.path)).toEqual([
      '/configs/0/tls/cert',
      '/plain/0/job_name',
    ]);
  });
});
