/** A cosi type's JSON Schema `default`s, filled into a manifest's spec before it is checked. */
import { describe, expect, it } from 'vitest';
import { fillSchemaDefaults, schemaHasDefaults } from '../../src/loaders/schema-defaults.js';

describe('fillSchemaDefaults', () => {
  it('fills a property left out, not one written, and lists what it filled', () => {
    const spec: Record<string, unknown> = { image: 'nginx', port: 8080 };
    const filled = fillSchemaDefaults(spec, {
      type: 'object',
      properties: {
        image: { type: 'string', default: 'busybox' },
        port: { type: 'integer', default: 80 },
        replicas: { type: 'integer', default: 1 },
      },
    });
    expect(spec).toEqual({ image: 'nginx', port: 8080, replicas: 1 });
    expect(filled).toEqual(['/replicas']);
  });

  it('fills inside objects and list items that exist, without creating parents', () => {
    const spec: Record<string, unknown> = { ports: [{ port: 80 }, { port: 443, protocol: 'UDP' }] };
    const filled = fillSchemaDefaults(spec, {
      type: 'object',
      properties: {
        ports: {
          type: 'array',
          items: {
            type: 'object',
            properties: { port: { type: 'integer' }, protocol: { type: 'string', default: 'TCP' } },
          },
        },
        probe: { type: 'object', properties: { path: { type: 'string', default: '/healthz' } } },
      },
    });
    expect(spec).toEqual({
      ports: [
        { port: 80, protocol: 'TCP' },
        { port: 443, protocol: 'UDP' },
      ],
    });
    expect(filled).toEqual(['/ports/0/protocol']);
  });

  it("fills what was filled in, listing only the outermost, and never shares the default's object", () => {
    const schema = {
      type: 'object',
      properties: {
        limits: {
          type: 'object',
          default: {},
          properties: { cpu: { type: 'string', default: '1' } },
        },
      },
    };
    const first: Record<string, unknown> = {};
    const second: Record<string, unknown> = {};
    expect(fillSchemaDefaults(first, schema)).toEqual(['/limits']);
    fillSchemaDefaults(second, schema);
    expect(first).toEqual({ limits: { cpu: '1' } });
    (first.limits as Record<string, unknown>).cpu = '2';
    expect(second).toEqual({ limits: { cpu: '1' } });
    expect(schema.properties.limits.default).toEqual({});
  });

  it('follows local $refs and allOf, not anyOf or oneOf', () => {
    const spec: Record<string, unknown> = { a: {}, b: {} };
    fillSchemaDefaults(spec, {
      $defs: {
        port: { type: 'integer', default: 80 },
        named: { properties: { x: { default: 1 } } },
      },
      type: 'object',
      properties: {
        port: { $ref: '#/$defs/port' },
        a: { $ref: '#/$defs/named' },
        b: { anyOf: [{ properties: { y: { default: 2 } } }] },
      },
      allOf: [{ properties: { tier: { type: 'string', default: 'web' } } }],
    });
    expect(spec).toEqual({ port: 80, a: { x: 1 }, b: {}, tier: 'web' });
  });

  it('keeps a null as written and ends on a $ref cycle', () => {
    const spec: Record<string, unknown> = { note: null, tree: { child: {} } };
    fillSchemaDefaults(spec, {
      $defs: {
        node: {
          type: 'object',
          properties: { child: { $ref: '#/$defs/node' }, n: { default: 0 } },
        },
      },
      type: 'object',
      properties: {
        note: { type: ['string', 'null'], default: 'x' },
        tree: { $ref: '#/$defs/node' },
      },
    });
    expect(spec).toEqual({ note: null, tree: { child: { n: 0 }, n: 0 } });
  });

  it('fills additionalProperties values', () => {
    const spec: Record<string, unknown> = { web: {}, db: { size: 5 } };
    fillSchemaDefaults(spec, {
      type: 'object',
      additionalProperties: { type: 'object', properties: { size: { default: 1 } } },
    });
    expect(spec).toEqual({ web: { size: 1 }, db: { size: 5 } });
  });
});

describe('schemaHasDefaults', () => {
  it('finds a default keyword anywhere, not a property or an enum value named so', () => {
    expect(schemaHasDefaults({ properties: { a: { items: { default: 1 } } } })).toBe(true);
    expect(schemaHasDefaults({ $defs: { a: { default: 'x' } } })).toBe(true);
    expect(schemaHasDefaults({ properties: { default: { type: 'string' } } })).toBe(false);
    expect(schemaHasDefaults({ enum: [{ default: 1 }], required: ['default'] })).toBe(false);
  });
});

describe('fillSchemaDefaults on a schema with a broken $ref', () => {
  it('follows no local $ref that is malformed or points at nothing, and does not throw', () => {
    const spec: Record<string, unknown> = {};
    expect(
      fillSchemaDefaults(spec, {
        type: 'object',
        properties: {
          replicas: { type: 'integer', default: 2 },
          port: { $ref: '#/%zz' },
          host: { $ref: '#/$defs/none' },
        },
      }),
    ).toEqual(['/replicas']);
    expect(spec).toEqual({ replicas: 2 });
  });
});
