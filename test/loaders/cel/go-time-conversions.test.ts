import { describe, expect, it } from 'vitest';
import { runExpression } from './run-expression.js';

const TIMESTAMP_ERROR = "type conversion error from 'string' to 'google.protobuf.Timestamp'";
const DURATION_ERROR = "type conversion error from 'string' to 'google.protobuf.Duration'";

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
    // The micro sign and the Greek letter mu, as Go's time.ParseDuration takes both.
    ['duration("1\u00b5s") == duration("1us") && duration("1\u03bcs") == duration("1us")', true],
    // A character past U+FFFF sorts after U+FFFF, as Go's byte order puts it.
    ['"\\uFFFF" < "😀"', true],
    ['"😀" > "\\uFFFF"', true],
    ['"a" < "b" && "ab" > "a" && "a" <= "a" && !("b" >= "c")', true],
  ])('%s is %s', (expression, value) => {
    expect(runExpression(expression)).toEqual(value);
  });

  it.each([
    // Go's time.Parse refuses these (a day, an hour, a second, a month out of range; no time).
    ['timestamp("2024-02-30T00:00:00Z")', TIMESTAMP_ERROR],
    ['timestamp("2023-02-29T00:00:00Z")', TIMESTAMP_ERROR],
    ['timestamp("2024-01-01T24:00:00Z")', TIMESTAMP_ERROR],
    ['timestamp("2024-01-01T00:00:60Z")', TIMESTAMP_ERROR],
    ['timestamp("2024-13-01T00:00:00Z")', TIMESTAMP_ERROR],
    ['timestamp("2024-01-01")', TIMESTAMP_ERROR],
    ['duration("")', DURATION_ERROR],
    ['duration("1d")', DURATION_ERROR],
    ['duration("1.5")', DURATION_ERROR],
  ])('%s is an error: %s', (expression, message) => {
    expect(runExpression(expression)).toEqual({ error: message });
  });
});
