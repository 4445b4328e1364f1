import { describe, expect, it } from 'vitest';
import { absentFields } from '../../src/testing/absent-fields.js';

describe('absentFields', () => {
  it('names the fields an expectation has that the object lacks, with those it has, nested', () => {
    expect(absentFields({ spec: { total: 1 } }, { spec: { totl: 1 } })).toBe(
      ': spec has no "totl" (its fields: total)',
    );
    expect(absentFields({ spec: { total: 1 } }, { spec: { total: 2 } })).toBe('');
  });

  it('says a chainsaw expression key of an assert file ported as it is is not evaluated', () => {
    const actual = { status: { state: 'ACTIVE', conditions: [{ type: 'Ready' }] } };
    const expected = { status: { "(conditions[?type == 'Ready'])": [{ status: 'True' }] } };
    expect(absentFields(actual, expected)).toBe(
      `: status has no "(conditions[?type == 'Ready'])" (its fields: state, conditions); "(conditions[?type == 'Ready'])" is a chainsaw expression key, which a partial match does not evaluate: write the fields it selects as they are`,
    );
  });
});
