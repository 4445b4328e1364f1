import { gzipSync } from 'node:zlib';
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

  it('says UTF-32 for a UTF-32 file, either byte order, with or without a byte order mark', () => {
    const utf32le = (text: string): Uint8Array =>
      Uint8Array.from(Array.from(text, (c) => [c.charCodeAt(0), 0, 0, 0]).flat());
    expect(errorOf(utf32le('a: 1\n')).message).toContain('UTF-32');
    expect(errorOf(utf32le('a: 1\n').reverse()).message).toContain('UTF-32');
    expect(errorOf(bytes([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0])).message).toContain('UTF-32');
    // A comment in Chinese after the first characters is still UTF-16.
    expect(errorOf(Buffer.from('# 说明: 中文\napiVersion: v1\n', 'utf16le')).message).toContain(
      'UTF-16',
    );
  });

  it('says that binary data named .yaml is binary, not UTF-16 or Latin-1 text', () => {
    const gzip = Uint8Array.from(gzipSync('apiVersion: v1\n'));
    expect(errorOf(gzip).message).toBe('the file is binary (gzip data), not YAML text');
    const png = bytes([0x89], 'PNG\r\n', [0x1a, 0x0a, 0, 0, 0, 0x0d], 'IHDR');
    expect(errorOf(png).message).toBe('the file is binary (a PNG image), not YAML text');
    // WebAssembly starts with a zero byte then ASCII, as UTF-16 big endian text would.
    expect(errorOf(bytes([0], 'asm', [1, 0, 0, 0])).message).toBe(
      'the file is binary (a WebAssembly module), not YAML text',
    );
    // No known signature: a zero byte in what is not UTF-8, a control byte, many zero bytes.
    expect(errorOf(bytes([0x03, 0x9c, 0x00, 0x41])).message).toBe(
      'the file is binary (a zero byte at offset 2), not YAML text',
    );
    expect(errorOf(bytes([0x03, 0x9c, 0x41])).message).toBe(
      'the file is binary (the control byte 0x03 at offset 0), not YAML text',
    );
    expect(errorOf(bytes('name.yaml', new Array<number>(91).fill(0), 'a: 1')).message).toBe(
      'the file is binary (91 zero bytes in its first 104 bytes), not YAML text',
    );
    // Text stays text: one zero byte written by mistake is said at its place by the parser,
    // a file of ASCII that starts as a PDF does is YAML, Latin-1 is said as before.
    expect(decodeManifest(bytes('a: "x', [0], '"\n'))).toBe('a: "x\u0000"\n');
    expect(decodeManifest(bytes('%PDF-1: no\n'))).toBe('%PDF-1: no\n');
    expect(errorOf(bytes('a: caf', [0xe9], '\n')).message).toContain('Windows-1252 or Latin-1');
  });
});
