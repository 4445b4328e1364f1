import { describe, expect, it } from 'vitest';
import { jsonPointer, parseJsonPointer } from '../../src/loaders/json-pointer.js';

describe('JSON pointers', () => {
  it('escape ~ and / in keys, and round-trip', () => {
    expect(jsonPointer(['spec', 'a/b', 'c~d', 0])).toBe('/spec/a~1b/c~0d/0');
    expect(parseJsonPointer('/spec/a~1b/c~0d/0')).toEqual(['spec', 'a/b', 'c~d', '0']);
  });

  it('unescape ~01 as ~1, not as /', () => {
    expect(jsonPointer(['~1'])).toBe('/~01');
    expect(parseJsonPointer('/~01')).toEqual(['~1']);
  });

  it('name the whole document with the empty pointer', () => {
    expect(jsonPointer([])).toBe('');
    expect(parseJsonPointer('')).toEqual([]);
    expect(parseJsonPointer('/')).toEqual(['']);
  });
});
