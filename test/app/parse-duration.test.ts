import { describe, expect, it } from 'vitest';
import { parseDurationText } from '../../src/app/parse-duration.js';

describe('parseDurationText', () => {
  it('reads terms one after another, a bare number as seconds', () => {
    expect(parseDurationText('1h30m')).toBe(5_400_000);
    expect(parseDurationText(' 1.5s ')).toBe(1500);
    expect(parseDurationText('250ms')).toBe(250);
    expect(parseDurationText('2')).toBe(2000);
    expect(parseDurationText('1h 30m')).toBeUndefined();
    expect(parseDurationText('soon')).toBeUndefined();
    expect(parseDurationText('1hx')).toBeUndefined();
  });

  it('refuses a long run of digits without a unit in time linear in its length', () => {
    // A test scenario's `advance` is read from a file: searching the whole text for each term
    // took time quadratic in the run (100,000 digits: about 5 s).
    const started = performance.now();
    expect(parseDurationText(`${'1'.repeat(100_000)}x`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(500);
  });
});
