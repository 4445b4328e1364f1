/**
 * Go's base64 decoder as the API server runs it on a built-in object's bytes (`go-base64.ts`).
 * The expected offsets are what Go's `encoding/json` (over `base64.StdEncoding`) said of each
 * string, run for this test; 5,000 random strings of these characters agreed the same way.
 */
import { describe, expect, it } from 'vitest';
import { base64Error, base64ErrorOffset } from '../../../src/loaders/kubernetes/go-base64.js';

describe("Go's base64 decoder", () => {
  it('takes base64 with its padding, and line breaks anywhere', () => {
    for (const text of ['', 'YWJj', 'YWJjZA==', 'YWJjZGU=', 'YWJj\nZGVm', 'ab\rcd', 'YWJjZA=\n=']) {
      expect(base64ErrorOffset(text)).toBeUndefined();
    }
    // Not strict: the bits past the data need not be zero.
    expect(base64ErrorOffset('YR==')).toBeUndefined();
  });

  it('names the byte it gives up at, as Go does', () => {
    const offsets: [string, number][] = [
      ['YWJ', 0], // a quantum cut short: at its first byte
      ['YWJjZA=', 7], // one `=` of two: at the end
      ['YW Jj', 2], // a space
      ['a====', 1], // padding too early
      ['=abc', 0],
      ['YWJjZA===', 8], // after the padding
      ['YQ==YQ==', 4],
      ['YWJjZA==\nx', 9],
      ['not base64!', 3],
      ['éabc', 0], // bytes, not characters: é is two
      ['abé', 2],
      ['abcdé', 4],
    ];
    for (const [text, offset] of offsets)
      expect([text, base64ErrorOffset(text)]).toEqual([text, offset]);
    expect(base64Error('YW Jj')).toBe('illegal base64 data at input byte 2');
  });
});
