import { createTwoFilesPatch } from 'diff';
import { stringify } from 'yaml';
import { evaluateExpressionKey, isExpressionKey } from './chainsaw-expression.js';

/**
 * Whether `actual` holds everything `expected` says, as `toMatchObject` reads it: every key of an
 * expected object must be in the actual one and match (other keys are ignored), arrays match
 * element by element and must have the same length, anything else must be equal (`Object.is`).
 * A chainsaw expression key (`(conditions[?type == 'Ready'])`) matches its value against what
 * the expression selects from the object (see `chainsaw-expression.ts`); one outside the subset
 * cosi evaluates throws an `ExpressionKeyError`.
 */
export function matchesPartially(actual: unknown, expected: unknown): boolean {
  if (Array.isArray(expected)) {
    return (
      Array.isArray(actual) &&
      actual.length === expected.length &&
      expected.every((e, i) => matchesPartially(actual[i], e))
    );
  }
  if (isRecord(expected)) {
    if (!isRecord(actual) || Array.isArray(actual)) return false;
    return Object.keys(expected).every((key) =>
      isExpressionKey(key)
        ? matchesPartially(evaluateExpressionKey(key, actual), expected[key])
        : Object.hasOwn(actual, key) && matchesPartially(actual[key], expected[key]),
    );
  }
  return Object.is(actual, expected);
}

/**
 * `actual` cut down to the shape of `expected`: only the keys `expected` names, so that a diff
 * of the two shows what differs and not every field the expectation leaves out. An array whose
 * length differs, or a value of another kind, is kept whole, and so is an object that has none of
 * the keys `expected` names.
 */
export function pruneToShape(actual: unknown, expected: unknown): unknown {
  if (Array.isArray(expected) && Array.isArray(actual) && actual.length === expected.length) {
    return actual.map((a, i) => pruneToShape(a, expected[i]));
  }
  if (
    isRecord(expected) &&
    !Array.isArray(expected) &&
    isRecord(actual) &&
    !Array.isArray(actual)
  ) {
    const pruned: Record<string, unknown> = {};
    for (const key of Object.keys(expected)) {
      // An expression key shows what it selects, under the key, beside what was expected of it.
      if (isExpressionKey(key))
        pruned[key] = pruneToShape(evaluateExpressionKey(key, actual), expected[key]);
      else if (Object.hasOwn(actual, key)) pruned[key] = pruneToShape(actual[key], expected[key]);
    }
    // None of the keys expected is there (a misspelt field): what is there, rather than `{}`,
    // which reads as an empty object.
    if (Object.keys(pruned).length === 0 && Object.keys(actual).length > 0) return actual;
    return pruned;
  }
  return actual;
}

/**
 * A unified diff, in YAML, of what was expected and what is there (cut to the expectation's
 * shape): `-` lines are expected, `+` lines actual.
 */
export function partialDiff(actual: unknown, expected: unknown, label = 'resource'): string {
  return shapedDiff(pruneToShape(actual, expected), expected, label);
}

/**
 * {@link partialDiff} of an `actual` already cut to the expectation's shape (`pruneToShape`), so
 * that the caller can mask values of both sides first.
 */
export function shapedDiff(pruned: unknown, expected: unknown, label = 'resource'): string {
  const patch = createTwoFilesPatch(
    `${label} (expected)`,
    `${label} (actual)`,
    toYaml(expected),
    toYaml(pruned),
    undefined,
    undefined,
    { context: 3 },
  );
  return patch
    .split('\n')
    .filter((line) => !line.startsWith('Index:') && !/^=+$/.test(line))
    .join('\n')
    .trimEnd();
}

function toYaml(value: unknown): string {
  return value === undefined ? '' : stringify(value, { lineWidth: 0 });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
