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

  it("evaluates JMESPath's functions, pipes and projections of the node itself", () => {
    const metadata = {
      labels: { app: 'web', tier: 'front' },
      annotations: { note: 'a' },
      name: 'web-1',
    };
    const volumes = { volumes: [{ name: 'cgroup' }, { name: 'data' }] };
    expect(evaluateExpressionKey("(contains(keys(labels), 'tier'))", metadata)).toBe(true);
    expect(evaluateExpressionKey("(contains(values(labels), 'back'))", metadata)).toBe(false);
    expect(
      evaluateExpressionKey("(starts_with(name, 'web-') && ends_with(name, '1'))", metadata),
    ).toBe(true);
    expect(evaluateExpressionKey("(join(',', keys(labels)))", metadata)).toBe('app,tier');
    expect(evaluateExpressionKey("(contains(name, 'b-'))", metadata)).toBe(true);
    expect(evaluateExpressionKey("(to_number('3') > `2`)", metadata)).toBe(true);
    expect(evaluateExpressionKey('(type(labels))', metadata)).toBe('object');
    expect(evaluateExpressionKey('(to_string(`[1]`))', metadata)).toBe('[1]');
    expect(evaluateExpressionKey('(not_null(missing, name))', metadata)).toBe('web-1');
    expect(evaluateExpressionKey("(volumes[?name == 'cgroup'] | length(@))", volumes)).toBe(1);
    expect(evaluateExpressionKey("(volumes | [?name != 'cgroup'] | [0].name)", volumes)).toBe(
      'data',
    );
    expect(evaluateExpressionKey("(length(volumes[*].name) || contains(`[]`, 'x'))", volumes)).toBe(
      2,
    );
    // A pipe ends a projection: [0] of the names, not the first character of each.
    expect(evaluateExpressionKey('(volumes[*].name | [0])', volumes)).toBe('cgroup');
    // An argument of the wrong type: null, as JMESPath's error matches nothing.
    expect(evaluateExpressionKey('(keys(name))', metadata)).toBe(null);
  });

  it('refuses what it does not evaluate, naming the subset', () => {
    for (const key of [
      "(concat('-', name))",
      '(x_k8s_exists(@))',
      '(items[0:2])',
      '($namespace)',
      '($error == null)',
      '(length(a, b))',
      '({a: b})',
      '~.(spec.containers)',
    ]) {
      expect(isExpressionKey(key)).toBe(true);
      expect(() => evaluateExpressionKey(key, {}), key).toThrow(ExpressionKeyError);
    }
    expect(() => evaluateExpressionKey("(concat('-', name))", {})).toThrow(
      /the chainsaw expression key "\(concat\('-', name\)\)" is not supported: the function concat\(\) .*supported: fields/,
    );
    expect(() => evaluateExpressionKey('($error == null)', {})).toThrow(
      /is not supported: the binding \$error at column 2/,
    );
    expect(isExpressionKey('spec')).toBe(false);
  });

  it('tells an expression key in linear time, whatever its length', () => {
    // `^~.*\(.*\)$` backtracked quadratically: 200000 `(` took minutes.
    const started = performance.now();
    expect(isExpressionKey(`~${'('.repeat(200_000)}`)).toBe(false);
    expect(isExpressionKey(`~${'('.repeat(200_000)})`)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
    for (const [key, is] of [
      ['()', true],
      ['(', false],
      [')', false],
      ['~()', true],
      ['~(', false],
      ['~)', false],
      ['~a(b)c)', true],
      ['~(a\nb)', true],
      ['(a\nb)', true],
      ['x(a)', false],
      ['~x', false],
    ] as const) {
      expect(isExpressionKey(key), key).toBe(is);
    }
  });

  it('is no absent field, and its diff shows what it selected', () => {
    const expected = { status: { "(conditions[?type == 'Ready'])": [{ status: 'False' }] } };
    expect(absentFields({ status: STATUS }, expected)).toBe('');
    expect(partialDiff({ status: STATUS }, expected)).toContain(`+    - status: "True"`);
  });
});
