import { isSafeError, readSafely } from './thrown-value.js';

/** How deep a chain of causes is followed: a cycle or a runaway chain ends here. */
const MAX_DEPTH = 32;

/**
 * The first error in `error`'s chain that `matches`: the error itself, then what it wraps, depth
 * first, as Go's `errors.Is` walks `Unwrap`. JavaScript wraps with `new Error(message, { cause })`
 * (Go's `fmt.Errorf("...: %w", err)`) and joins with `AggregateError` (Go's `errors.Join`), so
 * both are followed. Only readable `Error`s are looked into, never through a getter or Proxy trap
 * that could throw, and each error once.
 *
 * @example
 * findInChain(new Error('reconciling web', { cause: terminalError(e) }), isTerminalItself);
 */
export function findInChain(
  error: unknown,
  matches: (error: unknown) => boolean,
): Error | undefined {
  const seen = new Set<unknown>();
  const visit = (value: unknown, depth: number): Error | undefined => {
    if (depth > MAX_DEPTH || seen.has(value) || !isSafeError(value)) return undefined;
    seen.add(value);
    if (matches(value)) return value;
    const found = visit(readSafely(value, 'cause'), depth + 1);
    if (found) return found;
    const joined = readSafely(value, 'errors');
    if (!Array.isArray(joined)) return undefined;
    for (const inner of joined as unknown[]) {
      const match = visit(inner, depth + 1);
      if (match) return match;
    }
    return undefined;
  };
  return visit(error, 0);
}
