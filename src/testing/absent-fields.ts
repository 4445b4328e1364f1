import { isExpressionKey } from './chainsaw-expression.js';

/**
 * The fields an expectation names that the object does not have at all, with those it has, as
 * a clause for an assertion message (`: it has no "totl" (its fields: order, total)`), or `''`.
 * A diff shows only the fields an expectation names, so without it a misspelt field, or a
 * Kubernetes-shaped expectation (`kind`, `metadata.name`) of a cosi resource, would show the
 * actual object as `{}`. Nested objects are looked into: `spec has no "totl" (...)`.
 */
export function absentFields(actual: unknown, expected: unknown): string {
  const clauses: string[] = [];
  collect(actual, expected, '', clauses);
  return clauses.length === 0 ? '' : `: ${clauses.join('; ')}`;
}

function collect(actual: unknown, expected: unknown, at: string, clauses: string[]): void {
  if (!isPlainRecord(actual) || !isPlainRecord(expected)) return;
  // A chainsaw expression key (`(conditions[?type == 'Ready'])`) is evaluated, never a field.
  const absent = Object.keys(expected).filter(
    (key) => !isExpressionKey(key) && !Object.hasOwn(actual, key),
  );
  if (absent.length > 0) {
    const has = Object.keys(actual);
    clauses.push(
      `${at === '' ? 'it' : at} has no ${absent.map((k) => JSON.stringify(k)).join(', ')} (its fields: ${has.length === 0 ? 'none' : has.join(', ')})`,
    );
  }
  for (const [key, value] of Object.entries(expected)) {
    if (!isExpressionKey(key) && Object.hasOwn(actual, key))
      collect(actual[key], value, at === '' ? key : `${at}.${key}`, clauses);
  }
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
