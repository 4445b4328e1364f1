import { describe, expect, it } from 'vitest';
import {
  celEnvironment,
  celEnvironmentFor,
  DEFAULT_KUBERNETES_VERSION,
} from '../../../src/loaders/cel/cel-environment.js';
import { compileRules } from '../../../src/loaders/cel/rule-compiler.js';
import { runExpression } from './run-expression.js';

const compiles = (expr: string, version: string): boolean => {
  try {
    runExpression(expr, null, undefined, version);
    return true;
  } catch {
    return false;
  }
};

// The introduction versions of k8s.io/apiserver pkg/cel/environment/base.go.
describe('the CEL environment per Kubernetes version', () => {
  it.each([
    ["url('https://a').getHost() == 'a'", '1.23', '1.0'],
    ["quantity('1') == quantity('1')", '1.28', '1.27'],
    ['optional.of(1).hasValue()', '1.28', '1.27'],
    ["['a'].join() == 'a'", '1.29', '1.28'],
    ['sets.contains([1], [1])', '1.29', '1.28'],
    ['isCIDR("10.0.0.0/8")', '1.30', '1.29'],
    ["!format.dns1123Label().validate('a').hasValue()", '1.31', '1.30'],
    ['isSemver("1.0.0", true)', '1.33', '1.32'],
    ['[2, 1].sort() == [1, 2]', '1.34', '1.33'],
  ])('%s compiles for %s, not for %s', (expr, since, before) => {
    expect(compiles(expr, since)).toBe(true);
    if (before !== '1.0') expect(compiles(expr, before)).toBe(false);
  });

  it('defaults to the newest stable version', () => {
    expect(DEFAULT_KUBERNETES_VERSION).toBe('1.36');
    expect(celEnvironment()).toBe(celEnvironmentFor('1.36'));
    expect(celEnvironmentFor('v1.36')).toBe(celEnvironmentFor());
  });

  it('refuses what is not a Kubernetes minor version, saying what to give', () => {
    for (const version of ['1', '2.30', '1.30.1', 'latest', '']) {
      expect(() => celEnvironmentFor(version)).toThrow('give one such as 1.30');
    }
  });

  it('compiles a schema once per version', () => {
    const schema = { type: 'string', 'x-kubernetes-validations': [{ rule: 'isIP(self)' }] };
    expect(compileRules(schema, '1.29').problems).toHaveLength(1);
    expect(compileRules(schema, '1.30').problems).toHaveLength(0);
    expect(compileRules(schema, '1.30')).toBe(compileRules(schema, '1.30'));
  });
});
