/**
 * chainsaw's `(expression)` keys in expected documents, as kro's e2e assert files write them
 * (`(conditions[?type == 'Ready'])`): evaluated over the object, a bounded subset of JMESPath,
 * and a key outside it is an error naming what is supported, never a silent pass.
 */
import { describe, expect, it } from 'vitest';
import { absentFields } from '../../src/testing/absent-fields.js';
import {
  evaluateExpressionKey,
  ExpressionKeyError,
  isExpressionKey,
} from '../../src/testing/chainsaw-expression.js';
import { matchesPartially, partialDiff } from '../../src/testing/partial-match.js';

const STATUS = {
  state: 'ACTIVE',
  conditions: [
    { type: 'InstanceManaged', status: 'True', observedGeneration: 1 },
    { type: 'Ready', status: 'True', reason: 'Ready', observedGeneration: 1 },
  ],
};

describe('chainsaw expression keys', () => {
  it('selects with a filter, and the value below matches what it selects', () => {
    const ready = { "(conditions[?type == 'Ready'])": [{ status: 'True', observedGeneration: 1 }] };
    expect(matchesPartially(STATUS, ready)).toBe(true);
    expect(
      matchesPartially(STATUS, { "(conditions[?type == 'Ready'])": [{ status: 'False' }] }),
    ).toBe(false);
    // The filter keeps one element: a list of two never matches it (arrays have equal lengths).
    expect(
      matchesPartially(STATUS, { '(conditions[?status == `"True"`])': [{ type: 'Ready' }] }),
    ).toBe(false);
    // No such condition: an empty list, which a list of one does not match.
    expect(matchesPartially({ state: 'x' }, ready)).toBe(false);
  });

  it('evaluates paths, projections, length, comparisons and boolean operators', () => {
    const pod = {
      spec: { replicas: 4, 'x-y': 'z', containers: [{ name: 'a' }, { name: 'b', image: 'i' }] },
    };
    expect(evaluateExpressionKey('(spec.containers[*].name)', pod)).toEqual(['a', 'b']);
    expect(evaluateExpressionKey('(spec.containers[?image].name)', pod)).toEqual(['b']);
    expect(evaluateExpressionKey('(spec.containers[-1].name)', pod)).toBe('b');
    expect(evaluateExpressionKey('(length(spec.containers))', pod)).toBe(2);
    expect(evaluateExpressionKey('(spec."x-y")', pod)).toBe('z');
    expect(evaluateExpressionKey('(spec.replicas > `3` && spec.replicas < `6`)', pod)).toBe(true);
    expect(evaluateExpressionKey('(!(spec.replicas == `4`) || spec."x-y" != \'z\')', pod)).toBe(
      false,
    );
    expect(evaluateExpressionKey('(spec.missing.deeper)', pod)).toBe(null);
    expect(matchesPartially(pod, { spec: { '(replicas >= `4`)': true } })).toBe(true);
  });

  it('refuses what it does not evaluate, naming the subset', () => {
    for (const key of [
      "(join('-', items))",
      '(items | [0])',
      '(items[0:2])',
      '($namespace)',
      '~.(spec.containers)',
    ]) {
      expect(isExpressionKey(key)).toBe(true);
      expect(() => evaluateExpressionKey(key, {}), key).toThrow(ExpressionKeyError);
    }
    expect(() => evaluateExpressionKey("(join('-', items))", {})).toThrow(
      /the chainsaw expression key "\(join\('-', items\)\)" is not supported: the function join\(\) .*supported: fields/,
    );
    expect(isExpressionKey('spec')).toBe(false);
  });

  it('is no absent field, and its diff shows what it selected', () => {
    const expected = { status: { "(conditions[?type == 'Ready'])": [{ status: 'False' }] } };
    expect(absentFields({ status: STATUS }, expected)).toBe('');
    expect(partialDiff({ status: STATUS }, expected)).toContain(`+    - status: "True"`);
  });
});
