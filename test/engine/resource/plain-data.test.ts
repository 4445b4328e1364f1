import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
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

/**
 * Structural equality written the plain way, with `Object.keys`, to check the library's against:
 * the same own keys in any order, equal values, NaN equal to NaN, Dates by time.
 */
function referenceEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) || Array.isArray(b)) {
    return (
      Array.isArray(a) &&
      Array.isArray(b) &&
      a.length === b.length &&
      a.every((item, i) => referenceEqual(item, b[i]))
    );
  }
  if (a instanceof Date || b instanceof Date) {
    return a instanceof Date && b instanceof Date && a.getTime() === b.getTime();
  }
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return (
    ka.length === kb.length &&
    ka.every((key, i) => key === kb[i]) &&
    ka.every((key) =>
      referenceEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]),
    )
  );
}

/** Two values: equal, differing by one key of a record, or drawn apart. */
const nearPair = plain.chain((a) =>
  fc.oneof(
    fc.constant([a, deepClone(a)] as const),
    plain.map((b) => [a, b] as const),
    fc.tuple(fc.oneof(fc.string(), fc.constant('__proto__')), plain).map(([key, value]) => {
      const b = deepClone(a);
      if (typeof b === 'object' && b !== null && !Array.isArray(b)) {
        Object.defineProperty(b, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return [a, b] as const;
    }),
  ),
);

function isDeepFrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(isDeepFrozen);
}

describe('deepEqual', () => {
  it('is structural equality: the same own keys in any order, equal values, NaN equal to NaN', () => {
    fc.assert(
      fc.property(nearPair, ([a, b]) => {
        expect(deepEqual(a, b)).toBe(referenceEqual(a, b));
        expect(deepEqual(b, a)).toBe(referenceEqual(a, b));
      }),
      { numRuns: 500 },
    );
  });

  it('tells records apart by a key one has and the other lacks, whatever its value', () => {
    expect(deepEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(deepEqual({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(deepEqual({}, { x: undefined })).toBe(false);
    expect(deepEqual({ x: undefined }, {})).toBe(false);
    expect(deepEqual({ a: 1, b: [2] }, { b: [2], a: 1 })).toBe(true);
  });

  it('compares own keys only: an inherited enumerable key is not part of the data', () => {
    const inherits = Object.create({ inherited: 1 }) as Record<string, unknown>;
    inherits.own = 2;
    expect(deepEqual(inherits, { own: 2 })).toBe(true);
    expect(deepEqual({ own: 2 }, inherits)).toBe(true);
    expect(deepEqual(inherits, { own: 2, inherited: 1 })).toBe(false);
  });
});

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
      fc.property(nearPair, fc.boolean(), ([a, b], swap) => {
        // Both ways round: `next` with a key more than `prev`, and with one less.
        const [was, is] = swap ? [b, a] : [a, b];
        const prev = deepFreeze(deepClone(was));
        const next = deepClone(is);
        const out = freezeSharing(next, prev);
        expect(Object.is(out, prev)).toBe(referenceEqual(is, was));
        expect(referenceEqual(out, is)).toBe(true);
        expect(isDeepFrozen(out)).toBe(true);
      }),
      { numRuns: 500 },
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

describe('plain data from another realm (a vm context, as jest runs tests in)', () => {
  const foreign = (): { spec: { cpus: number; tags: string[] } } =>
    runInNewContext('({ spec: { cpus: 2, tags: ["a"] } })') as {
      spec: { cpus: number; tags: string[] };
    };

  it('is copied by deepClone, not shared', () => {
    const value = foreign();
    const copy = deepClone(value);
    expect(copy).not.toBe(value);
    expect(copy.spec).not.toBe(value.spec);
    copy.spec.cpus = 4;
    expect(value.spec.cpus).toBe(2);
  });

  it('is copied by freezeCopy, leaving the original mutable', () => {
    const value = foreign();
    const frozen = freezeCopy(value);
    expect(frozen).not.toBe(value);
    expect(Object.isFrozen(frozen.spec)).toBe(true);
    expect(Object.isFrozen(value.spec)).toBe(false);
    expect(deepEqual(frozen, value)).toBe(true);
  });

  it('is still told apart from class instances, which are shared', () => {
    class Point {
      x = 1;
    }
    const point = new Point();
    expect(deepClone({ point }).point).toBe(point);
  });
});
