/**
 * The Kubernetes `regex` library: `s.find(re)` (the first match, or `""`) and
 * `s.findAll(re)` / `s.findAll(re, limit)` (every match, at most `limit` when it is not negative).
 * Patterns run in RE2JS: linear time in the input, whatever the pattern.
 */

import { celMethod, CelScalar, listType, type CelFunc } from '@bufbuild/cel';
import { RE2JS } from 're2js';
import { charge, sizeCost } from '../cost-budget.js';

const compiled = new Map<string, RE2JS>();

/** The compiled pattern, kept: rules run once per document with the same patterns. */
export function compileRegex(pattern: string): RE2JS {
  let regex = compiled.get(pattern);
  if (regex === undefined) {
    regex = RE2JS.compile(pattern);
    if (compiled.size > 1000) compiled.clear();
    compiled.set(pattern, regex);
  }
  return regex;
}

function findAll(input: string, pattern: string, limit: bigint): string[] {
  charge(sizeCost(input.length));
  const matcher = compileRegex(pattern).matcher(input);
  const found: string[] = [];
  while ((limit < 0n || BigInt(found.length) < limit) && matcher.find()) {
    found.push(matcher.group() ?? '');
  }
  return found;
}

export const regexLibrary: readonly CelFunc[] = [
  celMethod('find', CelScalar.STRING, [CelScalar.STRING], CelScalar.STRING, function (pattern) {
    return findAll(this, pattern, 1n)[0] ?? '';
  }),
  celMethod(
    'findAll',
    CelScalar.STRING,
    [CelScalar.STRING],
    listType(CelScalar.STRING),
    function (pattern) {
      return findAll(this, pattern, -1n);
    },
  ),
  celMethod(
    'findAll',
    CelScalar.STRING,
    [CelScalar.STRING, CelScalar.INT],
    listType(CelScalar.STRING),
    function (pattern, limit) {
      return findAll(this, pattern, limit);
    },
  ),
];
