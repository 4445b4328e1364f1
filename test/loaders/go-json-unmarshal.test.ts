import { describe, expect, it } from 'vitest';
import { unmarshalObjectError } from '../../src/loaders/go-json-unmarshal.js';

/**
 * Each expected message is what Go 1.19's `json.Unmarshal(bytes, &map[string]interface{}{})`
 * printed for the same bytes (a Go program run on this machine over 12,000 generated inputs,
 * every one of which agreed; these are one of each kind).
 */
const bytes = (text: string) => Buffer.from(text, 'latin1');
const error = (text: string) => unmarshalObjectError(bytes(text));

describe("Go's json.Unmarshal into a map", () => {
  it('takes an object or null, with spaces around', () => {
    for (const ok of [
      '{}',
      ' { "k" : "v" } ',
      'null',
      '{"a":[1,-0.5,2E+10,{"b":null}],"d":"\\u00e9"}',
    ]) {
      expect(error(ok)).toBeUndefined();
    }
  });

  it.each([
    ['[1,2]', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
    ['"s"', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
    ['1.5e3', 'json: cannot unmarshal number into Go value of type map[string]interface {}'],
    ['true', 'json: cannot unmarshal bool into Go value of type map[string]interface {}'],
    ['{"n": 1e400}', 'json: cannot unmarshal number 1e400 into Go value of type float64'],
    ['{"n": 1e', "invalid character ' ' in exponent of numeric literal"],
    ['{"', 'unexpected end of JSON input'],
    ['   ', 'unexpected end of JSON input'],
    ['--', "invalid character '-' in numeric literal"],
    ['{"x":[[\u0000[]]]}', "invalid character '\\x00' looking for beginning of value"],
    ['1uE', "invalid character 'u' after top-level value"],
    ['{":[1,{"b":null', "invalid character 'b' after object key"],
    ['nul', "invalid character ' ' in literal null (expecting 'l')"],
    ['n\u007f', "invalid character '\\x7f' in literal null (expecting 'u')"],
    ['0.-2{', "invalid character '-' after decimal point in numeric literal"],
    ['trn01ue ', "invalid character 'n' in literal true (expecting 'u')"],
    [' {01 "k" :', "invalid character '0' looking for beginning of object key string"],
    ['f', "invalid character ' ' in literal false (expecting 'a')"],
    ['t\\u12', "invalid character '\\\\' in literal true (expecting 'r')"],
    ['[1u', "invalid character 'u' after array element"],
    ['{"x":[]]] }', "invalid character ']' after object key:value pair"],
    ['{"n\\u12": 1}', `invalid character '"' in \\u hexadecimal character escape`],
    ['"s\t"', "invalid character '\\t' in string literal"],
    [' { "\\k": "v" } ', "invalid character 'k' in string escape code"],
    ['\u00c3\u00a9', "invalid character 'Ã' looking for beginning of value"],
    ['\u0080', "invalid character '\\u0080' looking for beginning of value"],
    ['{"a":1}\u0080', "invalid character '\\u0080' after top-level value"],
    ['\u00ad', "invalid character '\\u00ad' looking for beginning of value"],
  ])('refuses %j: %s', (text, message) => {
    expect(error(text)).toBe(message);
  });

  it('refuses nesting deeper than 10,000', () => {
    expect(error('['.repeat(10001))).toBe("invalid character '[' exceeded max depth");
    expect(error(`${'['.repeat(10000)}${']'.repeat(10000)}`)).toBe(
      'json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
  });
});
