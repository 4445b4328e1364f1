import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  deepClone,
  deepEqual,
  deepFreeze,
  freezeCopy,
  freezeSharing,
} from '../../../src/engine/resource/plain-data.js';

/** Plain data as specs hold it, NaN and a `__proto__` key included. */
const plain = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(fc.string(), fc.integer(), fc.constant(Number.NaN), fc.boolean(), fc.constant(null)),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constant('__proto__')), tie('value'), {
      maxKeys: 4,
    }),
  ),
})).value;

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(isDeepFrozen);
}

describe('freezeCopy', () => {
  it('gives what deepFreeze(deepClone(value)) gives, and leaves the value as it was', () => {
    fc.assert(
      fc.property(plain, (value) => {
        const before = deepClone(value);
        const copy = freezeCopy(value);
        expect(deepEqual(copy, deepFreeze(deepClone(value)))).toBe(true);
        expect(isDeepFrozen(copy)).toBe(true);
        expect(deepEqual(value, before)).toBe(true);
        if (typeof value === 'object' && value !== null) {
          expect(copy).not.toBe(value);
          expect(Object.isFrozen(value)).toBe(false);
        }
      }),
    );
  });

  it('shares a frozen value instead of copying it', () => {
    const frozen = deepFreeze({ a: { b: [1, 2] } });
    expect(freezeCopy(frozen)).toBe(frozen);
    const outer = { keep: frozen, fresh: { c: 1 } };
    const copy = freezeCopy(outer);
    expect(copy.keep).toBe(frozen);
    expect(copy.fresh).not.toBe(outer.fresh);
  });

  it('copies a __proto__ key as an own key, never as a prototype', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    const copy = freezeCopy(value);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('freezeSharing', () => {
  it('returns prev exactly when next deep-equals it, and a deep-frozen equal of next otherwise', () => {
    fc.assert(
      fc.property(plain, plain, (a, b) => {
        const prev = deepFreeze(deepClone(a));
        const next = deepClone(b);
        const expected = deepClone(b);
        const out = freezeSharing(next, prev);
        expect(Object.is(out, prev)).toBe(deepEqual(b, a));
        expect(deepEqual(out, expected)).toBe(true);
        expect(isDeepFrozen(out)).toBe(true);
      }),
    );
  });

  it('returns prev for a mutable copy of it (a draft nobody changed)', () => {
    fc.assert(
      fc.property(plain, (a) => {
        const prev = deepFreeze(deepClone(a));
        expect(freezeSharing(deepClone(prev), prev)).toBe(prev);
      }),
    );
  });

  it('shares the subtrees that did not change with the previous version', () => {
    const prev = deepFreeze({
      same: { deep: [1, { x: 'y' }] },
      changed: { n: 1 },
      list: [{ a: 1 }, { b: 2 }],
    });
    const next = deepClone(prev) as {
      same: unknown;
      changed: { n: number };
      list: { a?: number; b?: number }[];
    };
    next.changed.n = 2;
    next.list[1]!.b = 3;
    const out = freezeSharing(next, prev);
    expect(out).not.toBe(prev);
    expect(out.same).toBe(prev.same);
    expect(out.list[0]).toBe(prev.list[0]);
    expect(out.list[1]).not.toBe(prev.list[1]);
    expect(out).toEqual({ same: prev.same, changed: { n: 2 }, list: [{ a: 1 }, { b: 3 }] });
  });

  it('tells a Date from a plain object and compares Dates by time', () => {
    const prev = deepFreeze({ at: new Date(5) });
    expect(freezeSharing({ at: new Date(5) }, prev)).toBe(prev);
    expect(freezeSharing({ at: new Date(6) }, prev)).not.toBe(prev);
    expect(freezeSharing({ at: {} }, prev)).not.toBe(prev);
  });

  it('treats NaN as equal to NaN, as deepEqual does', () => {
    const prev = deepFreeze({ v: Number.NaN, list: [Number.NaN] });
    expect(freezeSharing({ v: Number.NaN, list: [Number.NaN] }, prev)).toBe(prev);
  });
});
