import { describe, expect, it } from 'vitest';
import { CostBudget } from '../../../src/loaders/cel/cost-budget.js';
import { runExpression } from './run-expression.js';

/**
 * `[expression, outcome]`: the expression is true, or fails with `{ error }` (a message it
 * contains; '' where cel-go's checker refuses it and only an error is asked for).
 */
type Case = [string, { error: string }?];

// Ported from cel-go ext/strings_test.go, stringTests (header: Copyright 2020 Google LLC;
// cel-go at 14f6746a, June 2026; Kubernetes 1.36 pins cel-go v0.29.2): every case of the
// functions Kubernetes enables (strings version 2), without `reverse` (version 3).
const STRING_TESTS: Case[] = [
  ["'tacocat'.charAt(3) == 'o'"],
  ["'tacocat'.charAt(7) == ''"],
  ["'©αT'.charAt(0) == '©' && '©αT'.charAt(1) == 'α' && '©αT'.charAt(2) == 'T'"],
  ["'tacocat'.indexOf('') == 0"],
  ["'tacocat'.indexOf('ac') == 1"],
  ["'tacocat'.indexOf('none') == -1"],
  ["'tacocat'.indexOf('', 3) == 3"],
  ["'tacocat'.indexOf('a', 3) == 5"],
  ["'tacocat'.indexOf('at', 3) == 5"],
  ["'ta©o©αT'.indexOf('©') == 2"],
  ["'ta©o©αT'.indexOf('©', 3) == 4"],
  ["'ta©o©αT'.indexOf('©αT', 3) == 4"],
  ["'ta©o©αT'.indexOf('©α', 5) == -1"],
  ["'ijk'.indexOf('k') == 2"],
  ["'hello wello'.indexOf('hello wello') == 0"],
  ["'hello wello'.indexOf('ello', 6) == 7"],
  ["'hello wello'.indexOf('elbo room!!') == -1"],
  ["'hello wello'.indexOf('elbo room!!!') == -1"],
  ["''.lastIndexOf('@@') == -1"],
  ["'tacocat'.lastIndexOf('') == 7"],
  ["'tacocat'.lastIndexOf('at') == 5"],
  ["'tacocat'.lastIndexOf('none') == -1"],
  ["'tacocat'.lastIndexOf('', 3) == 3"],
  ["'tacocat'.lastIndexOf('a', 3) == 1"],
  ["'ta©o©αT'.lastIndexOf('©') == 4"],
  ["'ta©o©αT'.lastIndexOf('©', 3) == 2"],
  ["'ta©o©αT'.lastIndexOf('©α', 4) == 4"],
  ["'hello wello'.lastIndexOf('ello', 6) == 1"],
  ["'hello wello'.lastIndexOf('low') == -1"],
  ["'hello wello'.lastIndexOf('elbo room!!') == -1"],
  ["'hello wello'.lastIndexOf('elbo room!!!') == -1"],
  ["'hello wello'.lastIndexOf('hello wello') == 0"],
  ["'bananananana'.lastIndexOf('nana', 7) == 6"],
  ["'TacoCat'.lowerAscii() == 'tacocat'"],
  ["'TacoCÆt'.lowerAscii() == 'tacocÆt'"],
  ["'TacoCÆt Xii'.lowerAscii() == 'tacocÆt xii'"],
  ['"12 days 12 hours".replace("{0}", "2") == "12 days 12 hours"'],
  ['"{0} days {0} hours".replace("{0}", "2") == "2 days 2 hours"'],
  ['"{0} days {0} hours".replace("{0}", "2", 1).replace("{0}", "23") == "2 days 23 hours"'],
  ['"1 ©αT taco".replace("αT", "o©α") == "1 ©o©α taco"'],
  ['"hello hello".replace("", "_") == "_h_e_l_l_o_ _h_e_l_l_o_"'],
  ['"hello hello".replace("h", "") == "ello ello"'],
  ['"hello world".split(" ") == ["hello", "world"]'],
  ['"hello world events!".split(" ", 0) == []'],
  ['"hello world events!".split(" ", 1) == ["hello world events!"]'],
  ['"o©o©o©o".split("©", -1) == ["o", "o", "o", "o"]'],
  ['"tacocat".substring(4) == "cat"'],
  ['"tacocat".substring(7) == ""'],
  ['"tacocat".substring(0, 4) == "taco"'],
  ['"tacocat".substring(4, 4) == ""'],
  ['\'ta©o©αT\'.substring(2, 6) == "©o©α"'],
  ['\'ta©o©αT\'.substring(7, 7) == ""'],
  ['" \\f\\n\\r\\t\\vtext  ".trim() == "text"'],
  ['"\\u0085\\u00a0\\u1680text".trim() == "text"'],
  ['"text\\u2000\\u2001\\u2002\\u2003\\u2004\\u2004\\u2006\\u2007\\u2008\\u2009".trim() == "text"'],
  ['"\\u200atext\\u2028\\u2029\\u202F\\u205F\\u3000".trim() == "text"'],
  [
    '"\\u180etext\\u200b\\u200c\\u200d\\u2060\\ufeff".trim() == "\\u180etext\\u200b\\u200c\\u200d\\u2060\\ufeff"',
  ],
  ["'tacoCat'.upperAscii() == 'TACOCAT'"],
  ["'tacoCαt'.upperAscii() == 'TACOCαT'"],
  ["['x', 'y'].join() == 'xy'"],
  ["['x', 'y'].join('-') == 'x-y'"],
  ["[].join() == ''"],
  ["[].join('-') == ''"],
  ['strings.quote("first\\nsecond") == "\\"first\\\\nsecond\\""'],
  ['strings.quote("bell\\a") == "\\"bell\\\\a\\""'],
  ['strings.quote("\\bbackspace") == "\\"\\\\bbackspace\\""'],
  ['strings.quote("\\fform feed") == "\\"\\\\fform feed\\""'],
  ['strings.quote("carriage \\r return") == "\\"carriage \\\\r return\\""'],
  ['strings.quote("horizontal tab\\t") == "\\"horizontal tab\\\\t\\""'],
  ['strings.quote("vertical \\v tab") == "\\"vertical \\\\v tab\\""'],
  ['strings.quote("double \\\\\\\\ slash") == "\\"double \\\\\\\\\\\\\\\\ slash\\""'],
  ['strings.quote("two escape sequences \\a\\n") == "\\"two escape sequences \\\\a\\\\n\\""'],
  ['strings.quote("verbatim") == "\\"verbatim\\""'],
  ['strings.quote("ends with \\\\") == "\\"ends with \\\\\\\\\\""'],
  ['strings.quote("\\\\ starts with") == "\\"\\\\\\\\ starts with\\""'],
  ['strings.quote("printable unicode😀") == "\\"printable unicode😀\\""'],
  ['strings.quote("mid string \\" quote") == "\\"mid string \\\\\\" quote\\""'],
  [
    'strings.quote(\'single-quote with "double quote"\') == "\\"single-quote with \\\\\\"double quote\\\\\\"\\""',
  ],
  ['strings.quote("size(\'ÿ\')") == "\\"size(\'ÿ\')\\""'],
  ['strings.quote("size(\'πέντε\')") == "\\"size(\'πέντε\')\\""'],
  ['strings.quote("завтра") == "\\"завтра\\""'],
  [
    'strings.quote("\\U0001F431\\U0001F600\\U0001F61B") == "\\"\\U0001F431\\U0001F600\\U0001F61B\\""',
  ],
  ['strings.quote("ta©o©αT") == "\\"ta©o©αT\\""'],
  ['strings.quote("") == "\\"\\""'],
  ["strings.quote('%s %s').format(['hello', 'world']) == \"\\\"hello world\\\"\""],
  ["'tacocat'.charAt(30) == ''", { error: 'index out of range: 30' }],
  ["'tacocat'.indexOf('a', 30) == -1"],
  ["'tacocat'.indexOf('', 7) == 7"],
  ["'tacocat'.indexOf('', 30) == 7"],
  ["'tacocat'.indexOf('', -1) == 0", { error: 'index out of range: -1' }],
  ["'tacocat'.lastIndexOf('a', -1) == -1", { error: 'index out of range: -1' }],
  ["'tacocat'.lastIndexOf('a', 30) == -1"],
  ["'tacocat'.lastIndexOf('', 7) == 7"],
  ["'tacocat'.lastIndexOf('', 30) == 7"],
  ["'tacocat'.lastIndexOf('', -1) == 0", { error: 'index out of range: -1' }],
  ['"tacocat".substring(40) == "cat"', { error: 'index out of range: 40' }],
  ['"tacocat".substring(-1) == "cat"', { error: 'index out of range: -1' }],
  ['"tacocat".substring(1, 50) == "cat"', { error: 'index out of range: 50' }],
  ['"tacocat".substring(49, 50) == "cat"', { error: 'index out of range: 49' }],
  ['"tacocat".substring(4, 3) == ""', { error: 'invalid substring range. start: 4, end: 3' }],
  ['42.charAt(2) == ""', { error: '' }],
  ['\'hello\'.charAt(true) == ""', { error: '' }],
  ["24.indexOf('2') == 0", { error: '' }],
  ["'hello'.indexOf(true) == 1", { error: '' }],
  ["42.indexOf('4', 0) == 0", { error: '' }],
  ["'42'.indexOf(4, 0) == 0", { error: '' }],
  ["'42'.indexOf('4', '0') == 0", { error: '' }],
  ["'42'.indexOf('4', 0, 1) == 0", { error: '' }],
  ['42.split("2") == ["4"]', { error: '' }],
  ['42.replace(2, 1) == "41"', { error: '' }],
  ['"42".replace(2, 1) == "41"', { error: '' }],
  ['"42".replace("2", 1) == "41"', { error: '' }],
  ['42.replace("2", "1", 1) == "41"', { error: '' }],
  ['"42".replace(2, "1", 1) == "41"', { error: '' }],
  ['"42".replace("2", 1, 1) == "41"', { error: '' }],
  ['"42".replace("2", "1", "1") == "41"', { error: '' }],
  ['"42".replace("2", "1", 1, false) == "41"', { error: '' }],
  ['42.split("") == ["4", "2"]', { error: '' }],
  ['"42".split(2) == ["4"]', { error: '' }],
  ['42.split("2", "1") == ["4"]', { error: '' }],
  ['"42".split(2, 1) == ["4"]', { error: '' }],
  ['"42".split("2", "1") == ["4"]', { error: '' }],
  ['"42".split("2", 1, 1) == ["4"]', { error: '' }],
  ['\'hello\'.substring(1, 2, 3) == ""', { error: '' }],
  ['30.substring(true, 3) == ""', { error: '' }],
  ['"tacocat".substring(true, 3) == ""', { error: '' }],
  ['"tacocat".substring(0, false) == ""', { error: '' }],
];

// cosi's own: indexes count code points where a string has characters outside the BMP,
// which UTF-16 stores as two units.
const CODE_POINTS: Case[] = [
  ["'😀bc'.charAt(1) == 'b'"],
  ["'😀bc'.charAt(0) == '😀'"],
  ["'a😀b😀c'.indexOf('b') == 2"],
  ["'a😀b😀c'.indexOf('😀', 2) == 3"],
  ["'a😀b😀c'.lastIndexOf('😀') == 3"],
  ["'a😀b😀c'.lastIndexOf('😀', 2) == 1"],
  ["'a😀b😀c'.lastIndexOf('') == 5"],
  ["'a😀b😀c'.substring(1, 3) == '😀b'"],
  ["'a😀b😀c'.substring(4) == 'c'"],
  ["'a😀b'.substring(4)", { error: 'index out of range: 4' }],
  ["'😀😀'.replace('', '-') == '-😀-😀-'"],
  ["'😀😀'.replace('', '-', 2) == '-😀-😀'"],
  ["'😀😀'.split('') == ['😀', '😀']"],
  ["'😀bc'.size() == 3"],
  ["size('😀bc') == 3"],
  ["'a,b,c'.split(',', 2) == ['a', 'b,c']"],
  ["'a,b,c'.split('', 2) == ['a', ',b,c']"],
  ["'banana'.replace('a', 'o', 2) == 'bonona'"],
  ["'banana'.replace('a', 'o', -1) == 'bonono'"],
  ["'banana'.replace('a', 'o', 0) == 'banana'"],
  ["''.replace('', 'x') == 'x'"],
];

describe('the strings extension (cel-go stringTests)', () => {
  it.each(STRING_TESTS.map(([expr, outcome]) => ({ expr, outcome })))(
    '$expr',
    ({ expr, outcome }) => {
      const result = runExpression(expr);
      if (outcome === undefined) expect(result).toBe(true);
      else expect(result).toEqual({ error: expect.stringContaining(outcome.error) as unknown });
    },
  );
});

/**
 * `format`'s `%e` as the API server renders it: apiextensions-apiserver's TestValidationExpressions
 * expects `'%e'.format([3.14]) == '3.140000×10⁰⁰'` (golang.org/x/text's printer for en_US); the
 * other cases follow the same notation, a superscript exponent of two digits or more.
 */
const SCIENTIFIC: [string, { error: string }?][] = [
  ["'%e'.format([3.14]) == '3.140000×10⁰⁰'"],
  ["'%.2e'.format([-0.00123]) == '-1.23×10⁻⁰³'"],
  ["'%.6e'.format([1052.032911275]) == '1.052033×10⁰³'"],
  ["'%.0e'.format([2.5]) == '2×10⁰⁰'"],
  ["'%e'.format([1e100]) == '1.000000×10¹⁰⁰'"],
  ["'%d %e %s %%'.format([1, 0.0, 'x']) == '1 0.000000×10⁰⁰ x %'"],
  [
    "'%e'.format([1])",
    { error: 'invalid argument to function format: scientific clause can only be used on doubles' },
  ],
  [
    "'%e %d'.format([1.0])",
    { error: 'invalid argument to function format: too few arguments for format string' },
  ],
];

describe("format's %e clause, as the API server renders it", () => {
  it.each(SCIENTIFIC.map(([expr, outcome]) => ({ expr, outcome })))(
    '$expr',
    ({ expr, outcome }) => {
      const result = runExpression(expr);
      if (outcome === undefined) expect(result).toBe(true);
      else expect(result).toEqual({ error: expect.stringContaining(outcome.error) as unknown });
    },
  );
});

describe('string indexes in code points, as cel-go', () => {
  it.each(CODE_POINTS.map(([expr, outcome]) => ({ expr, outcome })))(
    '$expr',
    ({ expr, outcome }) => {
      expect(runExpression(expr)).toEqual(outcome ?? true);
    },
  );
});

describe('replace on a long string', () => {
  // 400k characters, 200k matches: copying the string at each match (the quadratic way) is
  // 40 billion character copies, far past the test's timeout; a linear pass is milliseconds.
  it('runs in linear time', () => {
    const text = 'ab'.repeat(200_000);
    const result = runExpression("self.replace('a', 'xy').size()", text);
    expect(result).toBe(600_000n);
  });

  it('is charged for what it reads and writes', () => {
    const text = 'ab'.repeat(200_000);
    expect(runExpression("self.replace('a', 'xy')", text, new CostBudget(1e7, 50_000))).toEqual({
      exceeded: 'rule',
    });
  });
});
