import { describe, expect, it } from 'vitest';
import { runExpression } from './run-expression.js';

/** cel-go's conversions of times and its order of strings (Go's `time` and string compare). */
describe("timestamps, durations and string order, as cel-go's Go makes them", () => {
  it.each([
    ['string(timestamp("2024-01-01T00:00:00.5Z"))', '2024-01-01T00:00:00.5Z'],
    ['string(timestamp("2024-01-01T00:00:00Z"))', '2024-01-01T00:00:00Z'],
    ['string(timestamp("2024-01-01T02:00:00.000000123+02:00"))', '2024-01-01T00:00:00.000000123Z'],
    ['string(timestamp("2024-02-29T23:59:59Z"))', '2024-02-29T23:59:59Z'],
    ['string(duration("1.5s"))', '1.5s'],
    ['string(duration("90m"))', '5400s'],
    ['string(duration("-1ns"))', '-0.000000001s'],
    ['string(duration("0"))', '0s'],
    // A character past U+FFFF sorts after U+FFFF, as Go's byte order puts it.
    ['"\\uFFFF" < "😀"', true],
    ['"😀" > "\\uFFFF"', true],
    ['"a" < "b" && "ab" > "a" && "a" <= "a" && !("b" >= "c")', true],
  ])('%s is %s', (expression, value) => {
    expect(runExpression(expression)).toEqual(value);
  });

  it.each([
    ['timestamp("2024-02-30T00:00:00Z")', 'parsing time "2024-02-30T00:00:00Z": day out of range'],
    ['timestamp("2023-02-29T00:00:00Z")', 'parsing time "2023-02-29T00:00:00Z": day out of range'],
    ['timestamp("2024-01-01T24:00:00Z")', 'parsing time "2024-01-01T24:00:00Z": hour out of range'],
    [
      'timestamp("2024-01-01T00:00:60Z")',
      'parsing time "2024-01-01T00:00:60Z": second out of range',
    ],
    [
      'timestamp("2024-13-01T00:00:00Z")',
      'parsing time "2024-13-01T00:00:00Z": month out of range',
    ],
    ['timestamp("2024-01-01")', 'parsing time "2024-01-01": cannot parse as RFC 3339'],
    ['duration("")', 'time: invalid duration ""'],
  ])('%s is an error: %s', (expression, message) => {
    expect(runExpression(expression)).toEqual({ error: message });
  });
});
