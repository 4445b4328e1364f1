import type { ResourceDefinition } from '../engine/resource/definition.js';
import { deepEqual, isRecord } from '../engine/resource/plain-data.js';
import { withheldFieldsOf } from './shown-spec.js';

/** What a diff writes in place of a value it keeps back, as `kubectl diff` masks a Secret's. */
export const MASK = '***';

/**
 * Two versions of a document with the values of `fields` (maps of values: a Secret's `data`
 * and `stringData`) masked, as `kubectl diff` masks a Secret's: `***` where both have the same
 * value, `*** (before)` and `*** (after)` where it changed, so that a diff still says which key
 * changed without printing either value (into a CI log, a report shared from CI).
 */
export function maskChangedValues(
  before: unknown,
  after: unknown,
  fields: readonly string[],
): [unknown, unknown] {
  if (fields.length === 0 || !isRecord(before) || !isRecord(after)) return [before, after];
  const masked: [Record<string, unknown>, Record<string, unknown>] = [{ ...before }, { ...after }];
  for (const field of fields) {
    const a = before[field];
    const b = after[field];
    if (!isRecord(a) || !isRecord(b)) {
      // A whole field that is no map of values (or missing on one side): masked whole.
      if (a !== undefined) masked[0][field] = same(a, b) ? MASK : `${MASK} (before)`;
      if (b !== undefined) masked[1][field] = same(a, b) ? MASK : `${MASK} (after)`;
      continue;
    }
    const ma: Record<string, unknown> = {};
    const mb: Record<string, unknown> = {};
    for (const key of Object.keys(a)) ma[key] = same(a[key], b[key]) ? MASK : `${MASK} (before)`;
    for (const key of Object.keys(b)) mb[key] = same(a[key], b[key]) ? MASK : `${MASK} (after)`;
    masked[0][field] = ma;
    masked[1][field] = mb;
  }
  return masked;
}

/** The fields of a Kubernetes object's document that are not its content. */
const OBJECT_HEAD = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * The top-level fields of a resource's printed document (`toDocument`) whose values a diff of it
 * masks: a Secret's `data` and `stringData`; all of a sensitive type's content (`spec`, or a
 * Kubernetes-shaped object's fields but its head), which no output prints.
 */
export function maskedDocumentFields(
  definition: ResourceDefinition | undefined,
  document: unknown,
): readonly string[] {
  if (definition?.sensitivity !== 'sensitive') return withheldFieldsOf(definition);
  if (definition.kubernetes === undefined) return ['spec'];
  return isRecord(document) ? Object.keys(document).filter((key) => !OBJECT_HEAD.has(key)) : [];
}

/**
 * The fields of a resource's spec (cosi's `spec`, as the state holds it) whose values a diff of
 * `specs` masks: a Secret's `data` and `stringData`; every field of a sensitive type's spec on
 * either side.
 */
export function maskedSpecFields(
  definition: ResourceDefinition | undefined,
  ...specs: unknown[]
): readonly string[] {
  if (definition?.sensitivity !== 'sensitive') return withheldFieldsOf(definition);
  return [...new Set(specs.flatMap((spec) => (isRecord(spec) ? Object.keys(spec) : [])))];
}

/** Equal values (a value of a map may be a structure, a sensitive spec's field). */
function same(a: unknown, b: unknown): boolean {
  return a === b || deepEqual(a, b);
}
