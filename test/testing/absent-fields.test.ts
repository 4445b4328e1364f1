import { describe, expect, it } from 'vitest';
import { absentFields } from '../../src/testing/absent-fields.js';

describe('absentFields', () => {
  it('names the fields an expectation has that the object lacks, with those it has, nested', () => {
    expect(absentFields({ spec: { total: 1 } }, { spec: { totl: 1 } })).toBe(
      ': spec has no "totl" (its fields: total)',
    );
    expect(absentFields({ spec: { total: 1 } }, { spec: { total: 2 } })).toBe('');
  });

  it('does not name a chainsaw expression key, which is evaluated, as an absent field', () => {
    const actual = { status: { state: 'ACTIVE', conditions: [{ type: 'Ready' }] } };
    const expected = { status: { "(conditions[?type == 'Ready'])": [{ status: 'True' }] } };
    expect(absentFields(actual, expected)).toBe('');
  });
});
