import { describe, expect, it } from 'vitest';
import { compileExpression } from '../../../src/loaders/cel/compile-expression.js';

/**
 * The static cost of cel-go's extension functions in the API server's environment, ported from
 * cel-go's tests (github.com/google/cel-go `ext/sets_test.go` TestSets, `ext/lists_test.go`
 * TestListsCosts): each case's `estimatedCost` Max. A variable with a size hint is `self` on a
 * list schema with that `maxItems`. Cases mixing element types (`[1, 1.0]`) are left out: the
 * API server's environment refuses them (homogeneous aggregate literals), which is tested too.
 */

type Schema = Record<string, unknown>;

const INT = { type: 'integer' };
const ints = (maxItems: number): Schema => ({ type: 'array', items: INT, maxItems });
const strings = (maxItems: number): Schema => ({
  type: 'array',
  items: { type: 'string' },
  maxItems,
});

function cost(schema: Schema, rule: string): number | string {
  const compiled = compileExpression(rule, { node: schema, root: false }, undefined, 'bool');
  return 'error' in compiled ? compiled.error : compiled.estimatedCost;
}

describe('sets (ext/sets_test.go TestSets)', () => {
  it.each<[string, number]>([
    ['sets.contains([], [])', 21],
    ['sets.contains([1], [])', 21],
    ['sets.contains([1], [1])', 22],
    ['sets.contains([1], [1, 1])', 23],
    ['sets.contains([1, 1], [1])', 23],
    ['sets.contains([2, 1], [1])', 23],
    ['sets.contains([1, 2, 3, 4], [2, 3])', 29],
    ['!sets.contains([1], [2])', 23],
    ['!sets.contains([1], [1, 2])', 24],
    ['sets.equivalent([], [])', 21],
    ['sets.equivalent([1], [1])', 23],
    ['sets.equivalent([1], [1, 1])', 25],
    ['sets.equivalent([1, 1], [1])', 25],
    ['!sets.equivalent([2, 1], [1])', 26],
    ['!sets.equivalent([1], [1, 2])', 26],
    ['sets.intersects([1], [1])', 22],
    ['sets.intersects([1], [1, 1])', 23],
    ['sets.intersects([1, 1], [1])', 23],
    ['sets.intersects([2, 1], [1])', 23],
    ['sets.intersects([1], [1, 2])', 23],
    ['!sets.intersects([], [])', 22],
    ['!sets.intersects([1], [])', 22],
    ['!sets.intersects([1], [2])', 23],
  ])('%s costs %i', (rule, expected) => {
    expect(cost(INT, rule)).toBe(expected);
  });

  it('sets.contains(x, [1, 2, 3]) with x of at most 10 items costs 42', () => {
    expect(cost(ints(10), 'sets.contains(self, [1, 2, 3])')).toBe(42);
  });

  it('refuses what mixes element types, as the API server does', () => {
    expect(cost(INT, 'sets.contains([1], [1.0, 1])')).toBe(
      "expected type 'double' but found 'int'",
    );
    expect(cost(INT, "!sets.contains([1], ['1', 1])")).toBe(
      "expected type 'string' but found 'int'",
    );
  });
});

describe('lists (ext/lists_test.go TestListsCosts)', () => {
  it.each<[string, string, Schema, number]>([
    ['list_range', 'lists.range(4) == [0, 1, 2, 3]', INT, 26],
    // cel-go's `[[1, 2], 3]` mixes a list and an int: here `[3]`, one list allocation (10) more.
    ['list_flatten_depth_one', '[[1, 2], [3]].flatten(1) == [1, 2, 3]', INT, 54],
    ['list_flatten_depth_two', '[[1, 2], [3]].flatten(2) == [1, 2, 3]', INT, 56],
    ['list_flatten_depth_three', '[[1, 2], [3]].flatten(3) == [1, 2, 3]', INT, 58],
    ['list_distinct_worst_case', '[1, 2, 3].distinct() == [1, 2, 3]', INT, 50],
    ['list_distinct_best_case', '[1, 1, 1].distinct() == [1]', INT, 50],
    ['list_distinct_var', "self.distinct() == ['hello']", strings(3), 41],
    ['list_slice_var_list', 'self.slice(1, 3) == [2, 3]', ints(10), 25],
    ['list_slice', '[1, 2, 3].slice(1, 3) == [2, 3]', INT, 34],
    ['list_reverse', '[3, 2, 1].reverse() == [1, 2, 3]', INT, 35],
    ['list_var_reverse', 'self.reverse() == [1, 2, 3]', ints(5), 28],
    ['list_sort', '[2, 3, 1].sort() == [1, 2, 3]', INT, 50],
    ['list_sort_var', 'self.sort() == [1, 2, 3]', ints(5), 73],
    ['list_sort_var_string', "self.sort() == ['a', 'a', 'b', 'b', 'c', 'c']", strings(10), 233],
    ['list_sort_var_int_empty', 'self.sort() == []', ints(10), 222],
    // sortBy is a macro: cel-go estimates its expansion (a comprehension binding the list, a map
    // of the keys, the sort of the keys).
    ['list_sortBy', "[{'x':4}, {'x':3}].sortBy(m, m['x']) == [{'x':3}, {'x':4}]", INT, 211],
    [
      'list_sortBy_var',
      "self.sortBy(m, m['x']) == [{'x':3}, {'x':4}]",
      { type: 'array', items: { 'x-kubernetes-int-or-string': true }, maxItems: 5 },
      226,
    ],
    [
      'list_sortBy_var_string',
      "self.sortBy(m, m['x']) == [{'x': 'a'}, {'x': 'b'}, {'x': 'c'}]",
      {
        type: 'array',
        items: { type: 'object', additionalProperties: { type: 'string' } },
        maxItems: 3,
      },
      197,
    ],
  ])('%s: %s', (_name, rule, schema, expected) => {
    expect(cost(schema, rule)).toBe(expected);
  });
});

describe('the strings extension (no estimator in cel-go: its O(1) default)', () => {
  it("charAt costs 1, and comparing its result traverses the smaller operand ('abc'.charAt(1) == 'b': 2)", () => {
    expect(cost(INT, "'abc'.charAt(1) == 'b'")).toBe(2);
  });
});
