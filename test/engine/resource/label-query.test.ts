import { describe, expect, it } from 'vitest';
import {
  idRegexp,
  labelEqual,
  labelExists,
  labelIn,
  labelLT,
  labelLTE,
  labelLTENumeric,
  labelLTNumeric,
  labelQuery,
  notMatches,
  type LabelTerm,
} from '../../../src/index.js';
import {
  idMatches,
  parseQuantity,
  queriesMatch,
  queryMatches,
  termMatches,
} from '../../../src/engine/resource/label-query.js';

describe('parseQuantity', () => {
  it('parses plain integers', () => {
    expect(parseQuantity('0')).toBe(0n);
    expect(parseQuantity('2000')).toBe(2000n);
    expect(parseQuantity('007')).toBe(7n);
  });

  it('parses negative integers', () => {
    expect(parseQuantity('-5')).toBe(-5n);
    expect(parseQuantity('-1 k')).toBe(-1000n);
  });

  it('multiplies by powers of ten for k, M, G, T and P', () => {
    expect(parseQuantity('3k')).toBe(3_000n);
    expect(parseQuantity('3M')).toBe(3_000_000n);
    expect(parseQuantity('3G')).toBe(3_000_000_000n);
    expect(parseQuantity('3T')).toBe(3n * 10n ** 12n);
    expect(parseQuantity('3P')).toBe(3n * 10n ** 15n);
  });

  it('multiplies by powers of two for Ki, Mi, Gi, Ti and Pi', () => {
    expect(parseQuantity('3Ki')).toBe(3n * 1024n);
    expect(parseQuantity('3Mi')).toBe(3n * 1024n ** 2n);
    expect(parseQuantity('3Gi')).toBe(3n * 1024n ** 3n);
    expect(parseQuantity('3Ti')).toBe(3n * 1024n ** 4n);
    expect(parseQuantity('3Pi')).toBe(3n * 1024n ** 5n);
  });

  it('reads units case-insensitively, so a lower-case m is mega, not milli', () => {
    expect(parseQuantity('2m')).toBe(2_000_000n);
    expect(parseQuantity('2K')).toBe(2_000n);
    expect(parseQuantity('2mI')).toBe(2n * 1024n ** 2n);
  });

  it('decides the unit by its first one or two letters, ignoring the rest', () => {
    expect(parseQuantity('10kg')).toBe(10_000n);
    expect(parseQuantity('4GiB')).toBe(4n * 1024n ** 3n);
    expect(parseQuantity('4GB')).toBe(4_000_000_000n);
  });

  it('ignores whitespace around the number and before the unit', () => {
    expect(parseQuantity(' 1 k')).toBe(1000n);
    expect(parseQuantity('\t5 Mi \n')).toBe(5n * 1024n ** 2n);
  });

  it('rejects text that does not start with digits', () => {
    expect(parseQuantity('')).toBeUndefined();
    expect(parseQuantity('   ')).toBeUndefined();
    expect(parseQuantity('k')).toBeUndefined();
    expect(parseQuantity('abc')).toBeUndefined();
    expect(parseQuantity('NaN')).toBeUndefined();
    expect(parseQuantity('+5')).toBeUndefined();
  });

  it('rejects misplaced minus signs', () => {
    expect(parseQuantity('-')).toBeUndefined();
    expect(parseQuantity('--5')).toBeUndefined();
    expect(parseQuantity('5-')).toBeUndefined();
    expect(parseQuantity('1-2')).toBeUndefined();
  });

  it('rejects decimals and unknown units', () => {
    expect(parseQuantity('1.5')).toBeUndefined();
    expect(parseQuantity('1.1 k')).toBeUndefined();
    expect(parseQuantity('1 i')).toBeUndefined();
    expect(parseQuantity('5x')).toBeUndefined();
    expect(parseQuantity('1 1')).toBeUndefined();
  });

  it('rejects numbers outside the 64-bit signed range', () => {
    expect(parseQuantity('9223372036854775807')).toBe(9223372036854775807n);
    expect(parseQuantity('-9223372036854775808')).toBe(-9223372036854775808n);
    expect(parseQuantity('9223372036854775808')).toBeUndefined();
    expect(parseQuantity('-9223372036854775809')).toBeUndefined();
  });
});

describe('label terms', () => {
  const labels = { app: 'web', empty: '', num: '10', size: '2Ki' };
  const both = (t: LabelTerm): [boolean, boolean] => [
    termMatches(labels, t),
    termMatches(labels, notMatches(t)),
  ];

  it('exists matches a label set to the empty string', () => {
    expect(both(labelExists('empty'))).toEqual([true, false]);
  });

  it('exists, equal and in are false on a missing label and true inverted', () => {
    expect(both(labelExists('missing'))).toEqual([false, true]);
    expect(both(labelEqual('missing', 'web'))).toEqual([false, true]);
    expect(both(labelIn('missing', ['web']))).toEqual([false, true]);
  });

  it('exists is false on an empty label set', () => {
    expect(termMatches({}, labelExists('app'))).toBe(false);
    expect(termMatches({}, notMatches(labelExists('app')))).toBe(true);
  });

  it('equal compares the whole value', () => {
    expect(both(labelEqual('app', 'web'))).toEqual([true, false]);
    expect(both(labelEqual('app', 'we'))).toEqual([false, true]);
  });

  it('in with no values never matches, and matches inverted', () => {
    expect(both(labelIn('app', []))).toEqual([false, true]);
  });

  it('lt and lte compare strings, not numbers', () => {
    expect(both(labelLT('num', '9'))).toEqual([true, false]);
    expect(both(labelLTE('app', 'web'))).toEqual([true, false]);
    expect(both(labelLT('app', 'web'))).toEqual([false, true]);
  });

  it('ltNumeric and lteNumeric compare numbers with units', () => {
    expect(both(labelLTNumeric('num', '9'))).toEqual([false, true]);
    expect(both(labelLTNumeric('size', '2049'))).toEqual([true, false]);
    expect(both(labelLTNumeric('size', '2048'))).toEqual([false, true]);
    expect(both(labelLTENumeric('size', '2048'))).toEqual([true, false]);
    expect(both(labelLTENumeric('size', '2k'))).toEqual([false, true]);
  });

  it('the less-than family is false on a missing label, even inverted', () => {
    for (const t of [
      labelLT('missing', 'z'),
      labelLTE('missing', 'z'),
      labelLTNumeric('missing', '1'),
      labelLTENumeric('missing', '1'),
    ]) {
      expect(both(t)).toEqual([false, false]);
    }
  });

  it('numeric comparisons are false on an unparsable value or bound, even inverted', () => {
    expect(both(labelLTNumeric('app', '10'))).toEqual([false, false]);
    expect(both(labelLTENumeric('num', 'lots'))).toEqual([false, false]);
    expect(both(labelLTENumeric('empty', '1'))).toEqual([false, false]);
  });

  it('a double not is the term itself', () => {
    expect(termMatches(labels, notMatches(notMatches(labelEqual('app', 'web'))))).toBe(true);
    expect(termMatches(labels, notMatches(notMatches(labelLT('missing', 'z'))))).toBe(false);
  });

  it('not does not change the term it is given', () => {
    const t = labelEqual('app', 'web');
    notMatches(t);
    expect(t.invert).toBe(false);
  });
});

describe('label queries', () => {
  const labels = { app: 'web', tier: 'front' };

  it('an empty query matches everything', () => {
    expect(queryMatches(labels, labelQuery())).toBe(true);
    expect(queryMatches({}, labelQuery())).toBe(true);
  });

  it('AND-s the terms of one query', () => {
    expect(queryMatches(labels, labelQuery(labelEqual('app', 'web'), labelExists('tier')))).toBe(
      true,
    );
    expect(queryMatches(labels, labelQuery(labelEqual('app', 'web'), labelExists('zone')))).toBe(
      false,
    );
  });

  it('OR-s several queries', () => {
    const queries = [labelQuery(labelEqual('app', 'db')), labelQuery(labelEqual('tier', 'front'))];
    expect(queriesMatch(labels, queries)).toBe(true);
    expect(queriesMatch({ app: 'api' }, queries)).toBe(false);
  });

  it('no queries, or an empty list of them, match everything', () => {
    expect(queriesMatch(labels, undefined)).toBe(true);
    expect(queriesMatch(labels, [])).toBe(true);
  });

  it('does not treat inherited object properties as labels', () => {
    expect(termMatches({}, labelExists('toString'))).toBe(false);
    expect(termMatches({}, labelLT('constructor', 'z'))).toBe(false);
  });
});

describe('id queries', () => {
  it('match ids by regexp, anywhere unless anchored', () => {
    expect(idMatches('idquery/path3', idRegexp('path[2-4]'))).toBe(true);
    expect(idMatches('idquery/path5', idRegexp(/^idquery\/.+[2-4]$/))).toBe(false);
  });

  it('match everything when there is no query', () => {
    expect(idMatches('anything', undefined)).toBe(true);
  });

  it('give the same answer every time, even from a global regexp', () => {
    const query = idRegexp(/a/g);
    expect([idMatches('a', query), idMatches('a', query), idMatches('a', query)]).toEqual([
      true,
      true,
      true,
    ]);
  });
});
