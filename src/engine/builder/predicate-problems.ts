import { describeThrown } from '../thrown-value.js';
import { EVENT_KINDS } from './event-funcs.js';

/**
 * Why `value` is no predicate, or `undefined` when it is one (an object with a function for
 * each kind of event). A plain function, the usual slip, is told how to become one.
 */
export function predicateProblem(value: unknown): string | undefined {
  if (typeof value === 'function') {
    return 'a function, not a predicate: make one with newPredicateFuncs(filter) or predicateFuncs({ update: ... })';
  }
  if (typeof value !== 'object' || value === null)
    return `${describeThrown(value)}, not a predicate`;
  const missing = EVENT_KINDS.filter(
    (kind) => typeof (value as Record<string, unknown>)[kind] !== 'function',
  );
  return missing.length === 0
    ? undefined
    : `an object without the functions ${missing.join(', ')}, not a predicate (predicateFuncs fills in the missing ones)`;
}

/**
 * Why the `predicates` option of `for`, `owns` or `watches` cannot be used, or `undefined`.
 * Without this check a single predicate given for the list (`{ predicates: generationChanged }`,
 * controller-runtime's variadic `WithPredicates(p)`) or a plain function failed every event of
 * the watch with "is not iterable" or "p.create is not a function", and nothing reconciled.
 */
export function predicatesProblem(predicates: unknown): string | undefined {
  if (predicates === undefined) return undefined;
  if (!Array.isArray(predicates)) {
    return predicateProblem(predicates) === undefined
      ? 'predicates must be a list: write [predicate]'
      : `predicates must be a list of predicates, got ${describeValue(predicates)}`;
  }
  for (const [index, predicate] of (predicates as unknown[]).entries()) {
    const problem = predicateProblem(predicate);
    if (problem !== undefined) return `predicates[${index}] is ${problem}`;
  }
  return undefined;
}

function describeValue(value: unknown): string {
  return typeof value === 'function' ? 'a function' : describeThrown(value);
}
