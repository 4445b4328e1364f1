/**
 * Strings whose schema `format` gives them a CEL type, as the API server's `UnstructuredToVal`
 * types them (k8s.io/apiserver `pkg/cel/common/valuesunstructured.go`).
 */

import { describe, expect, it } from 'vitest';
import { evaluateRules } from '../../../src/loaders/cel/evaluate-rules.js';
import { parseDate, parseDateTime, parseDuration } from '../../../src/loaders/string-formats.js';

/** The codes of the violations of `rule`, put on a field `value` of type string and `format`. */
function check(format: string, rule: string, value: string): string[] {
  const schema = {
    type: 'object',
    properties: { value: { type: 'string', format } },
    'x-kubernetes-validations': [{ rule }],
  };
  return evaluateRules(schema, { value }).map((v) => v.code);
}

const SECOND = 1_000_000_000n;

describe('format: duration', () => {
  it('reads Go durations as time.ParseDuration does', () => {
    expect(parseDuration('1h30m')).toBe(5400n * SECOND);
    expect(parseDuration('300ms')).toBe(300_000_000n);
    expect(parseDuration('-1.5h')).toBe(-5400n * SECOND);
    expect(parseDuration('1.s')).toBe(SECOND);
    expect(parseDuration('2µs')).toBe(2000n);
    expect(parseDuration('0')).toBe(0n);
  });

  it('refuses a long run of digits with no unit in linear time', () => {
    // Each digit started a term that read the rest of the run: 55000 digits took 13 s.
    const started = performance.now();
    expect(parseDuration('1'.repeat(200_000))).toBeUndefined();
    expect(parseDuration('1 '.repeat(50_000))).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1000);
    expect(parseDuration('12 days 3 hours')).toBe((12n * 86_400n + 3n * 3600n) * SECOND);
  });

  it("reads kube-openapi's longer forms: a count and a unit named or prefixed", () => {
    expect(parseDuration('3 days')).toBe(3n * 86_400n * SECOND);
    expect(parseDuration('1w')).toBe(604_800n * SECOND);
    expect(parseDuration('2 hours 5 minutes')).toBe(7500n * SECOND);
  });

  it('refuses what neither reads', () => {
    for (const text of ['', '1', '.s', '1x', 'h', '3 fortnights', '9999999999999999999h']) {
      expect(parseDuration(text), text).toBeUndefined();
    }
  });

  it('is a CEL duration in a rule', () => {
    expect(check('duration', "self.value == duration('90m')", '1h30m')).toEqual([]);
    expect(check('duration', "self.value > duration('1h')", '30m')).toEqual(['cel-violation']);
    expect(check('duration', 'self.value.getMinutes() == 90', '1h30m')).toEqual([]);
  });

  it('is an evaluation error in a rule evaluated alone when it does not parse (a load refuses it first)', () => {
    expect(check('duration', "self.value > duration('1s')", 'soon')).toEqual([
      'cel-evaluation-error',
    ]);
  });
});

describe('format: date and date-time', () => {
  it('reads a date as midnight UTC, and refuses a day its month does not have', () => {
    expect(parseDate('2000-01-01')).toBe(946_684_800n);
    expect(parseDate('2024-02-29')).toBe(1_709_164_800n);
    expect(parseDate('2023-02-29')).toBeUndefined();
    expect(parseDate('2000-1-01')).toBeUndefined();
    expect(parseDate('2000-01-01T00:00:00Z')).toBeUndefined();
  });

  it('reads RFC 3339 date-times with their offset and fraction, and local times as UTC', () => {
    expect(parseDateTime('2000-01-01T01:00:00+01:00')).toEqual({ seconds: 946_684_800n, nanos: 0 });
    expect(parseDateTime('2000-01-01T00:00:00.5Z')).toEqual({
      seconds: 946_684_800n,
      nanos: 500_000_000,
    });
    expect(parseDateTime('2000-01-01T00:00:00')).toEqual({ seconds: 946_684_800n, nanos: 0 });
    expect(parseDateTime('2000-01-01T24:00:00Z')).toBeUndefined();
    expect(parseDateTime('2000-01-01')).toBeUndefined();
  });

  it('is a CEL timestamp in a rule', () => {
    expect(check('date', "self.value == timestamp('2000-01-01T00:00:00Z')", '2000-01-01')).toEqual(
      [],
    );
    expect(
      check(
        'date-time',
        "self.value < timestamp('2000-01-01T00:00:00Z')",
        '2000-01-01T00:30:00+01:00',
      ),
    ).toEqual([]);
    expect(check('date-time', 'self.value.getFullYear() == 1999', '2000-01-01T00:00:00Z')).toEqual([
      'cel-violation',
    ]);
  });

  it('is an evaluation error in a rule evaluated alone when it does not parse (a load refuses it first)', () => {
    expect(check('date', "self.value == timestamp('2000-01-01T00:00:00Z')", 'today')).toEqual([
      'cel-evaluation-error',
    ]);
  });
});

describe('format: byte', () => {
  it('is the bytes its base64 text decodes to', () => {
    expect(check('byte', "self.value == b'hello'", 'aGVsbG8=')).toEqual([]);
    expect(check('byte', 'size(self.value) == 5', 'aGVsbG8=')).toEqual([]);
  });

  it('is an evaluation error in a rule evaluated alone when it is not base64', () => {
    expect(check('byte', 'size(self.value) > 0', 'not base64!')).toEqual(['cel-evaluation-error']);
  });
});

describe('other formats', () => {
  it('stay strings', () => {
    expect(check('hostname', "self.value == 'example.com'", 'example.com')).toEqual([]);
    expect(check('int-or-string', "self.value == '1h'", '1h')).toEqual([]);
  });
});
