import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatResourceSummary, groupDigits } from '../../../src/cli/render/check/check-text.js';

describe("check's manifests summary", () => {
  it('counts resources and files, with digit groups', () => {
    expect(
      formatResourceSummary({ resources: 5000, files: 1, valid: 4998, invalid: 2, skipped: 0 }),
    ).toBe('5,000 resources in 1 file: 4,998 valid, 2 invalid');
    expect(
      formatResourceSummary({ resources: 1, files: 2, valid: 0, invalid: 0, skipped: 1 }),
    ).toBe('1 resource in 2 files: 0 valid, 0 invalid, 1 skipped');
  });

  it('groups digits as en-US does', () => {
    fc.assert(
      fc.property(fc.nat({ max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(groupDigits(n)).toBe(n.toLocaleString('en-US'));
      }),
    );
  });
});
