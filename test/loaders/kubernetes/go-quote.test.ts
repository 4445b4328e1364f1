/** Values in the API server's messages are quoted as Go's `%q` quotes them. */
import { describe, expect, it } from 'vitest';
import { goQuote, invalidValue } from '../../../src/loaders/kubernetes/go-field-error.js';

describe('goQuote (strconv.Quote)', () => {
  it('keeps printable text, Unicode letters and symbols included', () => {
    expect(goQuote('nginx:1.27')).toBe('"nginx:1.27"');
    expect(goQuote('café ☕')).toBe('"café ☕"');
  });

  it('escapes quotes, backslashes and the short control escapes', () => {
    expect(goQuote('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goQuote('\x07\b\f\n\r\t\v')).toBe('"\\a\\b\\f\\n\\r\\t\\v"');
  });

  it('escapes other non-printable characters as \\x, \\u or \\U', () => {
    expect(goQuote('\x00\x1b\x7f')).toBe('"\\x00\\x1b\\x7f"');
    // NEL, no-break space, byte order mark: not printable to Go (JSON keeps them raw).
    expect(goQuote('\u0085\u00a0\ufeff')).toBe('"\\u0085\\u00a0\\ufeff"');
    expect(goQuote('\u{e0001}')).toBe('"\\U000e0001"');
  });

  it('is what field.Invalid prints', () => {
    expect(invalidValue('a\u2028', 'bad')).toBe('Invalid value: "a\\u2028": bad');
  });
});
