import { describe, expect, it } from 'vitest';
import { runExpression } from './run-expression.js';

/** What cel-go's `int`, `uint` and `double` of a string give (Go's `strconv`). */
describe("int, uint and double of a string, as cel-go's strconv reads it", () => {
  it.each([
    ['int("12")', 12n],
    ['int("+5")', 5n],
    ['int("-0")', 0n],
    ['int("012")', 12n],
    ['int("-9223372036854775808")', -(2n ** 63n)],
    ['uint("18446744073709551615") == 18446744073709551615u', true],
    ['double("1e3")', 1000],
    ['double("-.5")', -0.5],
    ['double("5.")', 5],
    ['double("0x1p-2")', 0.25],
    ['double("-0X1.8P1")', -3],
    ['double("Inf") > 1e308', true],
    ['double("-infinity") < -1e308', true],
    ['double("NaN") != double("NaN")', true],
    // Underscores between digits, as in a Go literal.
    ['double("1_000.5")', 1000.5],
    ['double("0x_1p0")', 1],
  ])('%s is %s', (expression, value) => {
    expect(runExpression(expression)).toEqual(value);
  });

  it.each([
    ['int(" 12")', 'strconv.ParseInt: parsing " 12": invalid syntax'],
    ['int("0x10")', 'strconv.ParseInt: parsing "0x10": invalid syntax'],
    ['int("")', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['int("1e3")', 'strconv.ParseInt: parsing "1e3": invalid syntax'],
    ['int("1_000")', 'strconv.ParseInt: parsing "1_000": invalid syntax'],
    [
      'int("9223372036854775808")',
      'strconv.ParseInt: parsing "9223372036854775808": value out of range',
    ],
    ['uint("+5")', 'strconv.ParseUint: parsing "+5": invalid syntax'],
    ['uint("-1")', 'strconv.ParseUint: parsing "-1": invalid syntax'],
    ['double("")', 'strconv.ParseFloat: parsing "": invalid syntax'],
    ['double(" 1.5")', 'strconv.ParseFloat: parsing " 1.5": invalid syntax'],
    ['double("0x10")', 'strconv.ParseFloat: parsing "0x10": invalid syntax'],
    ['double("1__0")', 'strconv.ParseFloat: parsing "1__0": invalid syntax'],
    ['double("1_")', 'strconv.ParseFloat: parsing "1_": invalid syntax'],
    ['double("1_.5")', 'strconv.ParseFloat: parsing "1_.5": invalid syntax'],
    ['double("+nan")', 'strconv.ParseFloat: parsing "+nan": invalid syntax'],
    ['double("1e400")', 'strconv.ParseFloat: parsing "1e400": value out of range'],
  ])('%s is an error: %s', (expression, message) => {
    expect(runExpression(expression)).toEqual({ error: message });
  });
});
