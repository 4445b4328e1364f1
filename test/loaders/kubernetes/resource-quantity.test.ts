import { describe, expect, it } from 'vitest';
import {
  canonicalQuantity,
  parseResourceQuantity,
} from '../../../src/loaders/kubernetes/resource-quantity.js';

/** apimachinery `resource.Quantity.String()`, which a downward API divisor is compared in. */
describe('canonicalQuantity (Quantity.String)', () => {
  it('prints a decimal quantity with the largest SI suffix that keeps it whole', () => {
    expect(
      ['1', '1000m', '0.001', '1000', '1500', '1.5', '1000000', '2E', '0'].map(canonicalQuantity),
    ).toEqual(['1', '1', '1m', '1k', '1500', '1500m', '1M', '2E', '0']);
  });

  it('prints a binary quantity with the largest binary suffix, below 1024 or not whole in SI', () => {
    expect(['1Ki', '1024Ki', '1000Ki', '0.5Ki', '1.5Ki', '3Gi'].map(canonicalQuantity)).toEqual([
      '1Ki',
      '1Mi',
      '1000Ki',
      '512',
      '1536',
      '3Gi',
    ]);
  });

  it('keeps an exponent as an exponent, a multiple of 3', () => {
    expect(['1e3', '1e0', '1e-3', '1E4'].map(canonicalQuantity)).toEqual([
      '1e3',
      '1',
      '1e-3',
      '10e3',
    ]);
  });

  it('gives nothing for what does not parse', () => {
    expect(canonicalQuantity('abc')).toBeUndefined();
    expect(canonicalQuantity('1Kb')).toBeUndefined();
  });
});

describe('parseResourceQuantity refusals, as resource.ParseQuantity says them', () => {
  it.each([
    ['1Gii', "unable to parse quantity's suffix"],
    ['1.5Mm', "unable to parse quantity's suffix"],
    ['1.2.3', 'quantities must match the regular expression'],
    ['5MB', 'quantities must match the regular expression'],
    ['abc', 'quantities must match the regular expression'],
    ['Gi', 'quantities must match the regular expression'],
  ])('%s: %s', (text, message) => {
    expect(() => parseResourceQuantity(text)).toThrow(message);
  });

  it('parses what it takes', () => {
    expect(parseResourceQuantity('1Gi')).toEqual({ units: 1024n ** 3n, scale: 0 });
  });

  it('refuses a quantity of tens of thousands of digits by its length, in linear time', () => {
    // Matched against the shape first, "0.000…0.0" took quadratic time: 50000 digits, 13 s.
    const started = performance.now();
    for (const text of [`0.${'0'.repeat(200_000)}.0`, `${'1'.repeat(200_000)}Gii`]) {
      expect(() => parseResourceQuantity(text)).toThrow(
        'quantities must match the regular expression',
      );
    }
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
