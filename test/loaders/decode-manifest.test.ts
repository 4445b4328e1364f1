import { describe, expect, it } from 'vitest';
import { decodeManifest, EncodingError } from '../../src/loaders/decode-manifest.js';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p))));

function errorOf(input: Uint8Array): EncodingError {
  try {
    decodeManifest(input);
  } catch (error) {
    if (error instanceof EncodingError) return error;
    throw error;
  }
  throw new Error('decoded');
}

describe('decodeManifest', () => {
  it('decodes UTF-8, keeping a byte order mark and every character as written', () => {
    expect(decodeManifest(bytes([0xef, 0xbb, 0xbf], 'a: é€😀\n'))).toBe('\ufeffa: é€😀\n');
  });

  it('refuses a byte that is not UTF-8 at its line and column, instead of reading U+FFFD', () => {
    const error = errorOf(bytes('a: 1\nb: it', [0x92], 's\n'));
    expect([error.line, error.col]).toEqual([2, 6]);
    expect(error.message).toContain('not UTF-8');
    // Columns count characters, as yaml's do.
    expect(errorOf(bytes('é: ', [0xff])).col).toBe(4);
  });

  it('refuses overlong forms, surrogates and truncated sequences', () => {
    for (const bad of [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
      [0xf4, 0x90, 0x80, 0x80],
    ]) {
      expect(errorOf(bytes('x', bad)).col).toBe(2);
    }
  });

  it('says UTF-16 for a UTF-16 file, with or without a byte order mark', () => {
    expect(errorOf(Buffer.from('\ufeffa: 1\n', 'utf16le')).message).toContain('UTF-16');
    expect(errorOf(Buffer.from('a: 1\n', 'utf16le')).message).toContain('UTF-16');
  });
});
