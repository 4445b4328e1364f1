import { describeThrown } from '../thrown-value.js';
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
      `${what} takes an object of functions { create, update, delete, generic }, got ${describeThrown(funcs)}`,
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
      problems.push(`${key} must be a function, got ${describeThrown(value)}`);
    }
  }
  if (problems.length > 0) throw new TypeError(`${what}: ${problems.join('; ')}`);
}

/** The kind a key names: controller-runtime's `UpdateFunc` is `update`, or a near misspelling. */
function nearKind(key: string): string | undefined {
  const bare = key.replace(/func$/i, '').toLowerCase();
  return EVENT_KINDS.find((kind) => kind === bare) ?? didYouMean(key, EVENT_KINDS);
}
