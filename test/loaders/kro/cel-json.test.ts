/**
 * What an RGD expression's value becomes in a template or status field, as kro converts it:
 * `GoNativeType` then `EnsureJSONSafe` (kro's `pkg/cel/conversion/conversions.go`, called by
 * `Expression.Eval` in `pkg/cel/expression.go`); `json.marshal` converts with `GoNativeType`
 * only (`pkg/cel/library/json.go`).
 */
import { describe, expect, it } from 'vitest';
import { goDuration } from '../../../src/loaders/kro/cel-json.js';
import { compileGraphExpression } from '../../../src/loaders/kro/graph-cel.js';

function evaluate(source: string): unknown {
  const compiled = compileGraphExpression(source);
  if ('error' in compiled) throw new Error(compiled.error);
  return compiled.evaluate({});
}

describe('the value an RGD expression renders', () => {
  it('writes a duration as metav1.Duration does (Go time.Duration.String)', () => {
    expect(evaluate('duration("1h30m")')).toEqual({ value: '1h30m0s' });
    expect(evaluate('duration("90s")')).toEqual({ value: '1m30s' });
    expect(evaluate('duration("-90m")')).toEqual({ value: '-1h30m0s' });
    expect(evaluate('[duration("1.5s"), duration("250ms")]')).toEqual({ value: ['1.5s', '250ms'] });
    expect([0n, 999n, 1_500n, 1_500_000n, 3_600_000_000_000n].map(goDuration)).toEqual([
      '0s',
      '999ns',
      '1.5µs',
      '1.5ms',
      '1h0m0s',
    ]);
  });

  it('writes a timestamp as metav1.Time does: RFC 3339 in UTC, whole seconds; the zero time null', () => {
    expect(evaluate('timestamp("2024-01-02T03:04:05.120+01:00")')).toEqual({
      value: '2024-01-02T02:04:05Z',
    });
    expect(evaluate('timestamp("0001-01-01T00:00:00Z")')).toEqual({ value: null });
  });

  it('refuses bytes in a template field, while json.marshal writes them in base64', () => {
    expect(evaluate('b"abc"')).toEqual({
      error:
        'bytes value cannot be used directly in a resource template or status field; encode it explicitly, e.g. base64.encode(...)',
    });
    expect(evaluate('json.marshal(b"abc")')).toEqual({ value: '"YWJj"' });
  });

  it('refuses a map whose keys are not strings', () => {
    expect(evaluate('{1: "a"}')).toEqual({ error: 'map key must be string, got int64' });
  });

  it("takes optional.of / optional.none as the optional library's functions, not a variable", () => {
    expect(evaluate('optional.of(2)')).toEqual({ value: 2 });
    expect(evaluate('optional.none().orValue("x")')).toEqual({ value: 'x' });
  });
});
