import { describe, expect, it } from 'vitest';
import { CostBudget } from '../../../src/loaders/cel/cost-budget.js';
import { evaluateRules } from '../../../src/loaders/cel/evaluate-rules.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { runExpression } from './run-expression.js';

const numbers = (n: number): number[] => Array.from({ length: n }, (_, i) => i);

describe('the CEL cost budget', () => {
  it('stops comprehensions nested over a large list at the per-rule limit', () => {
    const rule = 'self.all(a, self.all(b, self.all(c, a + b + c >= 0)))';
    expect(runExpression(rule, numbers(1000))).toEqual({ exceeded: 'rule' });
  });

  it('counts comprehensions over literal lists too', () => {
    const ten = '[0,1,2,3,4,5,6,7,8,9]';
    const rule = `${ten}.all(a, ${ten}.all(b, ${ten}.all(c, ${ten}.all(d, ${ten}.all(e, ${ten}.all(f, a >= 0))))))`;
    expect(runExpression(rule)).toEqual({ exceeded: 'rule' });
  });

  it('lets a rule within the limit run to its answer', () => {
    expect(runExpression('self.all(a, self.exists(b, b == a))', numbers(100))).toBe(true);
  });

  it('stops the rules of a document once they spend its budget together', () => {
    const rule = { rule: 'self.all(x, x >= 0)' };
    const schema = {
      type: 'array',
      items: { type: 'integer' },
      'x-kubernetes-validations': [rule, rule, rule, rule],
    };
    // Each evaluation costs 700 (100 elements, a loop body of 7 nodes): within the per-rule
    // limit; the third goes past the document's budget, and the fourth is not evaluated.
    const violations = evaluateRules(schema, numbers(100), { budget: new CostBudget(1800, 1000) });
    expect(violations.map((v) => v.code)).toEqual(['cel-cost-exceeded']);
    expect(violations[0]?.message).toContain('cost budget');
  });

  it('reports a hostile rule in a manifest as a finding at the node', () => {
    const text = `metadata: { type: rd, id: lists.cel.example.org }
spec:
  type: Lists.cel.example.org
  schema:
    type: object
    properties:
      items:
        type: array
        items: { type: integer }
        x-kubernetes-validations:
          - rule: self.all(a, self.all(b, self.all(c, a + b + c >= 0)))
---
metadata: { type: Lists.cel.example.org, id: big }
spec:
  items: [${numbers(500).join(', ')}]
`;
    const { findings } = loadManifests([{ path: 'lists.yaml', text }]);
    expect(findings.map((f) => [f.code, f.line, f.pointer])).toEqual([
      ['cel-cost-exceeded', 15, '/spec/items'],
    ]);
  });
});
