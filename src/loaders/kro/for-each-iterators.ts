/**
 * A resource's `forEach` (kro's collections): a list of `{ iterator: "${list}" }` dimensions,
 * each iterator named as an id is (and not one), at most kro's default number of them, each list
 * one standalone expression.
 */

import type { GraphExpression } from '../../controllers/resource-graph.js';
import { isPlainObject } from '../manifest-document.js';
import type { TypeCheckOf } from './expression-checks.js';
import { fail, type GraphCompilation } from './graph-compilation.js';
import { ID } from './resource-ids.js';
import { standaloneExpressions } from './standalone-expressions.js';
import { KRO_RESERVED_WORDS } from './template-constraints.js';

/** The dimensions a forEach may have: kro's default `--rgd-max-collection-dimension-size`. */
const MAX_FOREACH_DIMENSIONS = 10;

/** An iterator of a forEach: its name, its list's expression and that expression's type check. */
export interface ForEachIterator {
  readonly name: string;
  readonly expression: GraphExpression;
  readonly check: TypeCheckOf;
}

/** `forEach: [{ name: "${list}" }, ...]`: the iterators and their lists. */
export function compileForEach(
  c: GraphCompilation,
  forEach: unknown,
  at: (string | number)[],
  into: Set<string>,
): ForEachIterator[] | undefined {
  // kro builds a collection only of a non-empty forEach (builder.go: len(ForEach) > 0).
  if (forEach === undefined || forEach === null) return [];
  if (!Array.isArray(forEach)) {
    fail(c, 'rgd-bad-resource', at, 'forEach must be a list of { iterator: "${list}" } mappings');
    return undefined;
  }
  if (forEach.length > MAX_FOREACH_DIMENSIONS) {
    // kro's validateForEachDimensions (pkg/graph/validation.go).
    fail(
      c,
      'rgd-bad-resource',
      at,
      `forEach cannot have more than ${MAX_FOREACH_DIMENSIONS} dimensions, got ${forEach.length} (kro's default --rgd-max-collection-dimension-size)`,
    );
    return undefined;
  }
  const out: ForEachIterator[] = [];
  for (const [i, dimension] of forEach.entries()) {
    const entries = isPlainObject(dimension) ? Object.entries(dimension) : [];
    const [entry] = entries;
    if (entries.length !== 1 || entry === undefined || typeof entry[1] !== 'string') {
      fail(
        c,
        'rgd-bad-resource',
        [...at, i],
        'each forEach entry is one iterator: { name: "${list}" }',
      );
      return undefined;
    }
    const [name, text] = entry;
    if (!ID.test(name) || KRO_RESERVED_WORDS.has(name) || c.known.has(name)) {
      fail(
        c,
        'rgd-bad-resource',
        [...at, i],
        `the forEach iterator ${JSON.stringify(name)} must be a lowerCamelCase name that is not a resource id or reserved`,
      );
      return undefined;
    }
    if (out.some((d) => d.name === name)) {
      fail(
        c,
        'rgd-bad-resource',
        [...at, i],
        `duplicate forEach iterator name ${JSON.stringify(name)}`,
      );
      return undefined;
    }
    const [expression] =
      standaloneExpressions(c, { [name]: text }, [...at, i], new Set(), into, 'forEach') ?? [];
    const check = c.lastTypeCheck;
    if (expression === undefined || check === undefined) return undefined;
    out.push({ name, expression, check });
  }
  return out;
}

/** The names a forEach declares, well-formed or not. */
export function iteratorNames(forEach: unknown): string[] {
  if (!Array.isArray(forEach)) return [];
  return forEach.flatMap((d) => (isPlainObject(d) ? Object.keys(d) : []));
}
