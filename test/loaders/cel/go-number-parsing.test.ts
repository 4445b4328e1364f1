import { describe, expect, it } from 'vitest';
import { runExpression } from './run-expression.js';

const INT_ERROR = "type conversion error from 'string' to 'int'";
const UINT_ERROR = "type conversion error from 'string' to 'uint'";
const DOUBLE_ERROR = "type conversion error from 'string' to 'double'";

/** What cel-go's `int`, `uint` and `double` of a string give (Go's `strconv`), in its words. */
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
    ['int(" 12")', INT_ERROR],
    ['int("0x10")', INT_ERROR],
    ['int("")', INT_ERROR],
    ['int("1e3")', INT_ERROR],
    ['int("1_000")', INT_ERROR],
    ['int("9223372036854775808")', INT_ERROR],
    ['uint("+5")', UINT_ERROR],
    ['uint("-1")', UINT_ERROR],
    ['double("")', DOUBLE_ERROR],
    ['double(" 1.5")', DOUBLE_ERROR],
    ['double("0x10")', DOUBLE_ERROR],
    ['double("1__0")', DOUBLE_ERROR],
    ['double("1_")', DOUBLE_ERROR],
    ['double("1_.5")', DOUBLE_ERROR],
    ['double("+nan")', DOUBLE_ERROR],
    ['double("1e400")', DOUBLE_ERROR],
  ])('%s is an error: %s', (expression, message) => {
    expect(runExpression(expression)).toEqual({ error: message });
  });
});

describe('double of a long string from a manifest', () => {
  it('reads a long run of digits that is no number in time linear in its length', () => {
    // `double(self.x)` reads a field of an untrusted manifest: as a backtracking regular
    // expression, 60,000 digits then a letter took about 6 s; read once, milliseconds.
    const digits = '1'.repeat(60_000);
    const started = performance.now();
    expect(runExpression('double(self)', `${digits}x`)).toEqual({ error: DOUBLE_ERROR });
    expect(runExpression('double(self)', `${digits}.${digits}e+`)).toEqual({ error: DOUBLE_ERROR });
    expect(runExpression('double(self) > 1e308', `${digits.slice(0, 400)}.5`)).toEqual({
      error: DOUBLE_ERROR,
    });
    expect(runExpression('double(self)', `-${digits.slice(0, 3)}.25E-1`)).toBe(-11.125);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
