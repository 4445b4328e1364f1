import { describe, expect, it } from 'vitest';
import { CostBudget } from '../../../src/loaders/cel/cost-budget.js';
import { runExpression } from './run-expression.js';

// Ported from cel-go ext/comprehensions_test.go, TestTwoVarComprehensions (header: Copyright
// 2024 Google LLC; cel-go at 14f6746a), Kubernetes 1.32's ext.TwoVarComprehensions. Left out:
// the cases that need cel.bind, the optional syntax (l[?i]), transformMapEntry, and
// strings' reverse() (not enabled in Kubernetes).
const TEST_TWO_VAR_COMPREHENSIONS: string[] = [
  '[1, 2, 3, 4].all(i, v, i < 5 && v > 0)',
  '[1, 2, 3, 4].all(i, v, i < v)',
  '[1, 2, 3, 4].all(i, v, i > v) == false',
  `['Hello', 'world'].transformList(i, v, "[%d]%s".format([i, v.lowerAscii()])) == ["[0]hello", "[1]world"]`,
  `['hello', 'world'].transformList(i, v, v.startsWith('greeting'), "[%d]%s".format([i, v])) == []`,
  '[1, 2, 3].transformList(indexVar, valueVar, (indexVar * valueVar) + valueVar) == [1, 4, 9]',
  '[1, 2, 3].transformList(indexVar, valueVar, indexVar % 2 == 0, (indexVar * valueVar) + valueVar) == [1, 9]',
  "['Hello', 'world'].transformMap(i, v, [v.lowerAscii()]) == {0: ['hello'], 1: ['world']}",
  "['world', 'Hello'].transformMap(i, v, [v.lowerAscii()]).transformList(k, v, v).flatten().sort() == ['hello', 'world']",
  '[1, 2, 3].transformMap(indexVar, valueVar, (indexVar * valueVar) + valueVar) == {0: 1, 1: 4, 2: 9}',
  '[1, 2, 3].transformMap(indexVar, valueVar, indexVar % 2 == 0, (indexVar * valueVar) + valueVar) == {0: 1, 2: 9}',
  "{'hello': 'world', 'hello!': 'world'}.all(k, v, k.startsWith('hello') && v == 'world')",
  "{'hello': 'world', 'hello!': 'worlds'}.all(k, v, k.startsWith('hello') && v.endsWith('world')) == false",
  "{'hello': 'world', 'hello!': 'worlds'}.exists(k, v, k.startsWith('hello') && v.endsWith('world'))",
  "{'hello': 'world', 'hello!': 'worlds'}.existsOne(k, v, k.startsWith('hello') && v.endsWith('world'))",
  "{'hello': 'world', 'hello!': 'worlds'}.exists_one(k, v, k.startsWith('hello') && v.endsWith('world'))",
  "{'hello': 'world', 'hello!': 'wow, world'}.exists_one(k, v, k.startsWith('hello') && v.endsWith('world')) == false",
  `{'Hello': 'world'}.transformList(k, v, "%s=%s".format([k.lowerAscii(), v])) == ["hello=world"]`,
  `dyn({'Hello': 'world'}).transformList(k, v, "%s=%s".format([k.lowerAscii(), v])) == ["hello=world"]`,
  `{'hello': 'world'}.transformList(k, v, k.startsWith('greeting'), "%s=%s".format([k, v])) == []`,
  "{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(k, _, k).sort() == ['farewell', 'greeting']",
  "{'greeting': 'hello', 'farewell': 'goodbye'}.transformList(_, v, v).sort() == ['goodbye', 'hello']",
  `{'hello': 'world', 'goodbye': 'cruel world'}.transformMap(k, v, "%s, %s!".format([k, v])) == {'hello': 'hello, world!', 'goodbye': 'goodbye, cruel world!'}`,
  `dyn({'hello': 'world', 'goodbye': 'cruel world'}).transformMap(k, v, "%s, %s!".format([k, v])) == {'hello': 'hello, world!', 'goodbye': 'goodbye, cruel world!'}`,
  `{'hello': 'world', 'goodbye': 'cruel world'}.transformMap(k, v, v.startsWith('world'), "%s, %s!".format([k, v])) == {'hello': 'hello, world!'}`,
];

describe('two-variable comprehensions (cel-go TestTwoVarComprehensions)', () => {
  it.each(TEST_TWO_VAR_COMPREHENSIONS)('%s', (expr) => {
    expect(runExpression(expr)).toBe(true);
  });
});

describe('two-variable comprehensions in rules', () => {
  it('read the keys and values of self', () => {
    const self = { a: 1, b: 2 };
    expect(runExpression('self.all(k, v, k.size() == 1 && v > 0)', self)).toBe(true);
  });

  it('nest, each with its own variables', () => {
    const rule = '[[1, 2], [3]].all(i, l, l.all(j, v, v > i + j))';
    expect(runExpression(rule)).toBe(true);
  });

  it('leave a rebound name alone in a nested macro', () => {
    expect(runExpression('[1, 2].all(i, v, [5].all(v, v == 5))')).toBe(true);
  });

  it('are charged per element like other comprehensions', () => {
    const self = Array.from({ length: 1000 }, (_, i) => i);
    const rule = 'self.all(i, a, self.all(j, b, i + j >= 0))';
    expect(runExpression(rule, self, new CostBudget(1e7, 100_000))).toEqual({ exceeded: 'rule' });
  });

  it('are not in Kubernetes 1.31', () => {
    expect(() => runExpression('[1].all(i, v, v > i)', null, undefined, '1.31')).toThrow(
      'undeclared reference',
    );
  });
});
