import { didYouMean } from '../did-you-mean.js';

/** The kinds of events a predicate or handler has a function for. */
export const EVENT_KINDS = ['create', 'update', 'delete', 'generic'] as const;

/**
 * Checks the functions given to `predicateFuncs` or `handlerFuncs` as TypeScript would. A
 * config runs unchecked, and a key these do not take was ignored without a word: a port of
 * controller-runtime's `predicate.Funcs{UpdateFunc: ...}` as `{ UpdateFunc }` left the update
 * function missing, so the predicate passed every update (a handler ignored every event).
 *
 * @throws TypeError naming each key it does not take (with the one meant) or value that is no
 * function.
 */
export function checkEventFuncs(what: string, funcs: unknown): void {
  if (typeof funcs !== 'object' || funcs === null) {
    throw new TypeError(
      `${what} takes an object of functions { create, update, delete, generic }, got ${describeGiven(funcs)}`,
    );
  }
  const problems: string[] = [];
  for (const [key, value] of Object.entries(funcs)) {
    if (!(EVENT_KINDS as readonly string[]).includes(key)) {
      const near = nearKind(key);
      problems.push(
        `unknown key ${JSON.stringify(key)} (${near === undefined ? `it takes ${EVENT_KINDS.join(', ')}` : `did you mean ${near}?`})`,
      );
    } else if (value !== undefined && typeof value !== 'function') {
      problems.push(`${key} must be a function, got ${describeGiven(value)}`);
    }
  }
  if (problems.length > 0) throw new TypeError(`${what}: ${problems.join('; ')}`);
}

/** The kind a key names: controller-runtime's `UpdateFunc` is `update`, or a near misspelling. */
function nearKind(key: string): string | undefined {
  const bare = key.replace(/func$/i, '').toLowerCase();
  return EVENT_KINDS.find((kind) => kind === bare) ?? didYouMean(key, EVENT_KINDS);
}

/**
 * Checks the one function `newPredicateFuncs` or `enqueueRequestsFromMapFunc` takes, where the
 * config calls it: anything else (a label map meant for a selector, a forgotten argument) failed
 * every event of the watch later with "filter is not a function", retried for ever.
 *
 * @throws TypeError saying what was given instead.
 */
export function checkFunction(what: string, value: unknown): void {
  if (typeof value !== 'function') {
    throw new TypeError(`${what} takes a function, got ${describeGiven(value)}`);
  }
}

/** A value given where a function (or an object of them) was expected, as a message shows it. */
function describeGiven(value: unknown): string {
  if (typeof value === 'function') return 'a function';
  // `undefined` (and a symbol) have no JSON.
  if (value === undefined || typeof value === 'symbol') return String(value);
  try {
    return JSON.stringify(value);
  } catch {
    return `a value of type ${typeof value}`;
  }
}
