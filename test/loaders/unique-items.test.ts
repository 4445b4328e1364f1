import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSchemaCompiler } from '../../src/loaders/schema-compiler.js';
import { canonicalJson, duplicateItems } from '../../src/loaders/unique-items.js';

const SCHEMA = {
  type: 'array',
  uniqueItems: true,
  items: { type: 'object', properties: { a: { type: 'string' }, b: { type: 'integer' } } },
};

describe('uniqueItems', () => {
  it('reads each object item once, where a comparison of every pair reads them n² times', () => {
    const { validate } = createSchemaCompiler().compile(SCHEMA);
    let keyReads = 0;
    const items = Array.from(
      { length: 200 },
      (_, i) =>
        new Proxy(
          { a: `k${Math.max(i, 1) - 1}`, b: Math.max(i, 1) - 1 },
          {
            ownKeys: (target) => {
              keyReads++;
              return Reflect.ownKeys(target);
            },
          },
        ),
    );
    expect(validate?.(items).map((p) => p.message)).toEqual([
      // Items 0 and 1 are equal: a pairwise check compares every later item with every other first.
      'must NOT have duplicate items (items ## 0 and 1 are identical)',
    ]);
    expect(keyReads).toBeLessThanOrEqual(3 * items.length);
  });

  it('takes the same items as ajv’s own and names the same pair', () => {
    const ajv = new Ajv({ allErrors: true });
    const reference = ajv.compile({ type: 'array', uniqueItems: true });
    const ours = createSchemaCompiler().compile({ type: 'array', uniqueItems: true });
    const item = fc.oneof(
      fc.constantFrom(0, 1, -0, '1', 'a', true, null),
      // Manifests' objects are plain (ajv's own tells a null prototype apart).
      fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.constantFrom(1, '1', null, [1], { x: 1 }), {
        noNullPrototype: true,
      }),
      fc.array(fc.constantFrom(1, '1', { a: 1 }), { maxLength: 3 }),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 8 }), (items) => {
        reference(items);
        const expected = (reference.errors ?? []).map((e) => e.message);
        expect(ours.validate?.(items).map((p) => p.message)).toEqual(expected);
      }),
    );
  });

  it('treats objects with the same keys in another order as equal, and arrays in order only', () => {
    expect(canonicalJson({ b: 1, a: { d: 2, c: 3 } })).toBe(
      canonicalJson({ a: { c: 3, d: 2 }, b: 1 }),
    );
    expect(
      duplicateItems([
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ]),
    ).toEqual({ i: 1, j: 0 });
    expect(
      duplicateItems([
        [1, 2],
        [2, 1],
      ]),
    ).toBeUndefined();
    expect(duplicateItems([1, '1'])).toBeUndefined();
  });
});
