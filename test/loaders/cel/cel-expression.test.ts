import { describe, expect, it } from 'vitest';
import { celEnvironmentFor } from '../../../src/loaders/cel/cel-environment.js';
import { parseExpression } from '../../../src/loaders/cel/cel-expression.js';
import { compileRules } from '../../../src/loaders/cel/rule-compiler.js';
import { runExpression } from './run-expression.js';

/** Parses are kept by their source: each caller still gets an expression of its own. */
describe('parseExpression', () => {
  const env = celEnvironmentFor();

  it('gives each parse of one source its own copy, equal to the first', () => {
    const first = parseExpression('self.a.exists(x, x > 1)', env);
    const second = parseExpression('self.a.exists(x, x > 1)', env);
    expect(second).not.toBe(first);
    expect(second).toEqual(first);
    // What follows a parse rewrites it in place: a copy changed leaves the next one whole.
    first.expr.exprKind = { case: undefined, value: undefined };
    expect(parseExpression('self.a.exists(x, x > 1)', env)).toEqual(second);
  });

  it('throws the same syntax error for a source each time', () => {
    expect(() => parseExpression('self.a +', env)).toThrow('<input>:1:8: found +');
    expect(() => parseExpression('self.a +', env)).toThrow('<input>:1:8: found +');
  });

  it('compiles and evaluates a repeated rule each time, macros and the optional syntax rewritten per copy', () => {
    const schema = {
      type: 'object',
      properties: {
        items: { type: 'array', items: { type: 'integer' } },
        name: { type: 'string' },
      },
    };
    const rule = "self.items.all(i, i > 0) && self.?name.orValue('x') != ''";
    // Gateway API's routes: the same rule in each served version's schema.
    for (let version = 0; version < 3; version++) {
      const compiled = compileRules({ ...schema, 'x-kubernetes-validations': [{ rule }] });
      expect(compiled.problems).toEqual([]);
    }
    for (let run = 0; run < 3; run++) {
      expect(runExpression(rule, { items: [1, 2], name: 'a' })).toBe(true);
      expect(runExpression(rule, { items: [1, -2] })).toBe(false);
    }
  });
});
