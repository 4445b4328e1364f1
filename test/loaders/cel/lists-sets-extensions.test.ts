import { describe, expect, it } from 'vitest';
import { CostBudget } from '../../../src/loaders/cel/cost-budget.js';
import { runExpression } from './run-expression.js';

/** `[expression, outcome]`: the expression is true, or fails with `{ error }` (a part of it). */
type Case = [string, { error: string }?];

// Ported from cel-go ext/lists_test.go, TestLists (header: Copyright 2023 Google LLC; cel-go at
// 14f6746a), the library at version 3 as Kubernetes 1.34 enables it. Left out: the cases on
// protobuf messages (ExampleType). `["d", 3, 2, "c"].sort()` keeps its expected error.
const TEST_LISTS: Case[] = [
  ['lists.range(4) == [0,1,2,3]'],
  ['lists.range(0) == []'],
  ['[5,1,2,3].reverse() == [3,2,1,5]'],
  ['[].reverse() == []'],
  ['[1].reverse() == [1]'],
  [
    "['are', 'you', 'as', 'bored', 'as', 'I', 'am'].reverse() == ['am', 'I', 'as', 'bored', 'as', 'you', 'are']",
  ],
  ['[false, true, true].reverse().reverse() == [false, true, true]'],
  ['[1,2,3,4].slice(0, 4) == [1,2,3,4]'],
  ['[1,2,3,4].slice(0, 0) == []'],
  ['[1,2,3,4].slice(1, 1) == []'],
  ['[1,2,3,4].slice(4, 4) == []'],
  ['[1,2,3,4].slice(1, 3) == [2, 3]'],
  [
    '[1,2,3,4].slice(3, 0)',
    { error: 'cannot slice(3, 0), start index must be less than or equal to end index' },
  ],
  ['[1,2,3,4].slice(0, 10)', { error: 'cannot slice(0, 10), list is length 4' }],
  ['[1,2,3,4].slice(-5, 10)', { error: 'cannot slice(-5, 10), negative indexes not supported' }],
  ['[1,2,3,4].slice(-5, -3)', { error: 'cannot slice(-5, -3), negative indexes not supported' }],
  ['dyn([]).flatten() == []'],
  ['dyn([1,2,3,4]).flatten() == [1,2,3,4]'],
  ['[1,[2,[3,4]]].flatten() == [1,2,[3,4]]'],
  ['[1,2,[],[],[3,4]].flatten() == [1,2,3,4]'],
  ['[1,[2,[3,4]]].flatten(2) == [1,2,3,4]'],
  ['[1,[2,[3,[4]]]].flatten(-1) == [1,2,3,4]', { error: 'level must be non-negative' }],
  ['[].sort() == []'],
  ['[1].sort() == [1]'],
  ['[4, 3, 2, 1].sort() == [1, 2, 3, 4]'],
  ['["d", "a", "b", "c"].sort() == ["a", "b", "c", "d"]'],
  [
    '["d", 3, 2, "c"].sort() == ["a", "b", "c", "d"]',
    { error: 'list elements must have the same type' },
  ],
  ['[].sortBy(e, e) == []'],
  ['["a"].sortBy(e, e) == ["a"]'],
  ['[-3, 1, -5, -2, 4].sortBy(e, -(e * e)) == [-5, 4, -3, -2, 1]'],
  ['[-3, 1, -5, -2, 4].map(e, e * 2).sortBy(e, -(e * e)) == [-10, 8, -6, -4, 2]'],
  ['lists.range(3).sortBy(e, -e) == [2, 1, 0]'],
  ['["a", "c", "b", "first"].sortBy(e, e == "first" ? "" : e) == ["first", "a", "b", "c"]'],
  ['[].distinct() == []'],
  ['[1].distinct() == [1]'],
  ['[-2, 5, -2, 1, 1, 5, -2, 1].distinct() == [-2, 5, 1]'],
  ["['c', 'a', 'a', 'b', 'a', 'b', 'c', 'c'].distinct() == ['c', 'a', 'b']"],
  ['[1, 2.0, "c", 3, "c", 1].distinct() == [1, 2.0, "c", 3]'],
  ['[1, 1.0, 2].distinct() == [1, 2]'],
  ['[[1], [1], [2]].distinct() == [[1], [2]]'],
  // TestListsErrors
  ['dyn({}).flatten()', { error: 'overload' }],
  ['dyn({}).flatten(0)', { error: 'overload' }],
  ['[].flatten(-1)', { error: 'level must be non-negative' }],
  ["[].flatten(dyn('1'))", { error: 'overload' }],
];

// Ported from cel-go ext/sets_test.go, TestSets (header: Copyright 2023 Google LLC; cel-go at
// 14f6746a); `x` is `self`, bound to [5, 4, 3, 2, 1].
const TEST_SETS: Case[] = [
  ['sets.contains(self, [1, 2, 3])'],
  ['sets.contains(self, [1, 1, 1, 1, 1])'],
  ['sets.contains([], [])'],
  ['sets.contains([1], [])'],
  ['sets.contains([1], [1])'],
  ['sets.contains([1], [1, 1])'],
  ['sets.contains([1, 1], [1])'],
  ['sets.contains([2, 1], [1])'],
  ['sets.contains([1, 2, 3, 4], [2, 3])'],
  ['sets.contains([1], [1.0, 1])'],
  ['sets.contains([1, 2], [2u, 2.0])'],
  ['sets.contains([1, 2u], [2, 2.0])'],
  ['sets.contains([1, 2.0, 3u], [1.0, 2u, 3])'],
  ['sets.contains([[1], [2, 3]], [[2, 3.0]])'],
  ['!sets.contains([1], [2])'],
  ['!sets.contains([1], [1, 2])'],
  ['!sets.contains([1], ["1", 1])'],
  ['!sets.contains([1], [1.1, 1u])'],
  ['sets.equivalent([], [])'],
  ['sets.equivalent([1], [1])'],
  ['sets.equivalent([1], [1, 1])'],
  ['sets.equivalent([1, 1], [1])'],
  ['sets.equivalent([1], [1u, 1.0])'],
  ['sets.equivalent([1], [1u, 1.0])'],
  ['sets.equivalent([1, 2, 3], [3u, 2.0, 1])'],
  ['sets.equivalent([[1.0], [2, 3]], [[1], [2, 3.0]])'],
  ['!sets.equivalent([2, 1], [1])'],
  ['!sets.equivalent([1], [1, 2])'],
  ['!sets.equivalent([1, 2], [2u, 2, 2.0])'],
  ['!sets.equivalent([1, 2], [1u, 2, 2.3])'],
  ['sets.intersects([1], [1])'],
  ['sets.intersects([1], [1, 1])'],
  ['sets.intersects([1, 1], [1])'],
  ['sets.intersects([2, 1], [1])'],
  ['sets.intersects([1], [1, 2])'],
  ['sets.intersects([1], [1.0, 2])'],
  ['sets.intersects([1, 2], [2u, 2, 2.0])'],
  ['sets.intersects([1, 2], [1u, 2, 2.3])'],
  ['sets.intersects([[1], [2, 3]], [[1, 2], [2, 3.0]])'],
  ['!sets.intersects([], [])'],
  ['!sets.intersects([1], [])'],
  ['!sets.intersects([1], [2])'],
  ['!sets.intersects([1], ["1", 2])'],
  ['!sets.intersects([1], [1.1, 2u])'],
];

describe('the lists extension (cel-go TestLists, TestListsErrors)', () => {
  it.each(TEST_LISTS.map(([expr, outcome]) => ({ expr, outcome })))(
    '$expr',
    ({ expr, outcome }) => {
      const result = runExpression(expr);
      if (outcome === undefined) expect(result).toBe(true);
      else expect(result).toEqual({ error: expect.stringContaining(outcome.error) as unknown });
    },
  );

  it('sorts the items of a manifest by a field (sortBy on self)', () => {
    const self = [{ x: 4 }, { x: 3 }];
    expect(runExpression("self.sortBy(m, m['x']).map(m, m.x)", self)).toEqual([3n, 4n]);
  });

  it('refuses sortBy before Kubernetes 1.34', () => {
    expect(() => runExpression('[2, 1].sortBy(e, e)', null, undefined, '1.33')).toThrow(
      "undeclared reference to 'sortBy'",
    );
  });

  it('charges the comprehension sortBy expands to', () => {
    const self = Array.from({ length: 5000 }, (_, i) => i);
    expect(runExpression('self.sortBy(e, -e).size()', self, new CostBudget(1e7, 10_000))).toEqual({
      exceeded: 'rule',
    });
  });
});

describe('the sets extension (cel-go TestSets)', () => {
  it.each(TEST_SETS)('%s', (expr) => {
    expect(runExpression(expr, [5, 4, 3, 2, 1])).toBe(true);
  });

  it('is not in Kubernetes 1.28', () => {
    expect(() => runExpression('sets.contains([1], [1])', null, undefined, '1.28')).toThrow(
      "undeclared reference to 'sets'",
    );
  });
});
