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

  describe('charges functions by the size of what they read', () => {
    // 100 strings of 100k characters: each call reads 100k, one pass over the list 10M.
    const long = Array.from({ length: 100 }, () => 'a'.repeat(100_000));
    it.each([
      ["self.all(s, s.contains('b') == false)", 'contains'],
      ["self.all(s, !s.startsWith('b') && !s.endsWith('b'))", 'startsWith and endsWith'],
      ['self.all(s, s.size() > 0)', 'size() of a string'],
      ["self.all(s, s.matches('^a+$'))", 'matches'],
      ["self.all(s, s + 'b' != '')", 'string concatenation'],
      ["self.all(s, s < 'b')", 'string comparison'],
      ["self.all(s, s.indexOf('b') == -1)", 'the strings extension'],
    ])('%s (%s)', (rule) => {
      expect(runExpression(rule, long)).toEqual({ exceeded: 'rule' });
    });

    it('charges `in` by the size of the list', () => {
      // 1000 elements, each `in` a list of 1000: 1000 * 101 units, past a limit of 100k.
      const rule = 'self.all(x, x in self)';
      const budget = new CostBudget(1e7, 100_000);
      expect(runExpression(rule, numbers(1000), budget)).toEqual({ exceeded: 'rule' });
    });

    it('lets the same calls on short strings run', () => {
      const short = Array.from({ length: 100 }, () => 'a'.repeat(100));
      expect(runExpression("self.all(s, s.contains('a') && s.size() == 100)", short)).toBe(true);
    });
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
        maxItems: 100 # within the static estimate's budget (9,050,502 of 10,000,000)
        x-kubernetes-validations:
          - rule: self.all(a, self.all(b, self.all(c, a + b + c >= 0)))
---
metadata: { type: Lists.cel.example.org, id: big }
spec:
  items: [${numbers(100).join(', ')}]
`;
    const { findings } = loadManifests([{ path: 'lists.yaml', text }]);
    expect(findings.map((f) => [f.code, f.line, f.pointer])).toEqual([
      ['cel-cost-exceeded', 16, '/spec/items'],
    ]);
  });
});
