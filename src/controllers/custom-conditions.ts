/**
 * An RGD's custom status conditions (kro v0.9.x, `spec.schema.status.conditions`), evaluated
 * after each render as kro's instance controller does (`pkg/runtime/conditions.go`,
 * `pkg/controller/instance/status.go`):
 *
 * - the entries are evaluated in order, each giving a condition or a list of them, flattened;
 *   `schema` is the instance with `status.conditions` holding kro's four built-in conditions as
 *   this render computed them, so `runtime.condition(schema, 'ResourcesReady')` reads kro's
 *   value, not an author's condition of that type;
 * - an entry whose data is not there yet is skipped; one that fails, or gives something other
 *   than conditions the library made (a map of the same keys is not one), is dropped and the
 *   instance is in error; a type given twice is dropped
 *   (both) and the instance is in error;
 * - each condition gets `observedGeneration`, and `lastTransitionTime`: the previous one's while
 *   its status is unchanged, else now; `reason` and `message` are left out when empty;
 * - when an entry was skipped or dropped, the previous conditions of types not given stay.
 */

import type { GraphExpression } from './template-rendering.js';
import { isRecord } from '../engine/resource/plain-data.js';

type Condition = Record<string, unknown>;

/** What the entries gave: the instance's conditions, and why any entry was dropped. */
export interface CustomConditions {
  readonly conditions: Condition[];
  /** Each dropped entry or type (the instance is then in error). */
  readonly problems: string[];
}

const KEYS = ['type', 'status', 'reason', 'message'];

/**
 * The mark of a condition kro's `runtime` library made (its `kro.run.Condition`), on the JSON
 * object an evaluation gives for it: a map of the same four keys from anywhere else (a `dyn`
 * field of the instance's spec) is not one, and kro drops it ("must return a Condition or
 * list(Condition), got map").
 */
export const LIBRARY_CONDITION: unique symbol = Symbol('kro.run.Condition');

/** `fields` marked as a condition the library made ({@link LIBRARY_CONDITION}). */
export function libraryCondition(fields: Record<string, unknown>): Condition {
  Object.defineProperty(fields, LIBRARY_CONDITION, { value: true });
  return fields;
}

export function customConditions(
  entries: readonly GraphExpression[],
  scope: Readonly<Record<string, unknown>>,
  builtins: readonly Condition[],
  previous: unknown,
  stamp: { readonly generation: number; readonly now: string },
): CustomConditions {
  const schema = scope.schema as Record<string, unknown>;
  const conditionScope = {
    ...scope,
    schema: {
      ...schema,
      status: {
        conditions: builtins.map((c) => Object.fromEntries(KEYS.map((k) => [k, c[k] ?? '']))),
      },
    },
  };
  const problems: string[] = [];
  let incomplete = false;
  const given: Condition[] = [];
  for (const entry of entries) {
    const outcome = entry.evaluate(conditionScope);
    if ('missing' in outcome) {
      incomplete = true;
    } else if ('error' in outcome) {
      problems.push(`condition \${${entry.source}} (${entry.location}): ${outcome.error}`);
    } else {
      const values = Array.isArray(outcome.value) ? outcome.value : [outcome.value];
      if (values.every(isCondition)) given.push(...values);
      else {
        problems.push(
          `condition \${${entry.source}} (${entry.location}) must return runtime.newCondition(...) or a list of them, got ${Array.isArray(outcome.value) ? 'a list of other values' : isRecord(outcome.value) ? 'a map' : typeof outcome.value}`,
        );
      }
    }
  }
  const counts = new Map<unknown, number>();
  for (const c of given) counts.set(c.type, (counts.get(c.type) ?? 0) + 1);
  const duplicates = [...counts].filter(([, n]) => n > 1).map(([type]) => String(type));
  if (duplicates.length > 0) {
    problems.push(`duplicate condition type(s) ${duplicates.sort().join(', ')} dropped`);
  }
  const kept = given.filter((c) => counts.get(c.type) === 1);
  const before = Array.isArray(previous) ? previous.filter(isRecord) : [];
  const conditions = kept.map((c) => stamped(c, before, stamp));
  if (incomplete || problems.length > 0) {
    const have = new Set(conditions.map((c) => c.type));
    for (const p of before) if (!have.has(p.type)) conditions.push(p);
  }
  return { conditions, problems };
}

function stamped(
  c: Condition,
  previous: readonly Condition[],
  stamp: { readonly generation: number; readonly now: string },
): Condition {
  const before = previous.find((p) => p.type === c.type);
  const out: Condition = { type: c.type, status: c.status };
  if (c.reason !== '') out.reason = c.reason;
  if (c.message !== '') out.message = c.message;
  out.lastTransitionTime =
    before !== undefined && before.status === c.status && before.lastTransitionTime !== undefined
      ? before.lastTransitionTime
      : stamp.now;
  out.observedGeneration = stamp.generation;
  return out;
}

/** A value `runtime.newCondition` or `runtime.condition` makes: marked, the four keys strings. */
function isCondition(value: unknown): value is Condition {
  return (
    isRecord(value) &&
    (value as { [LIBRARY_CONDITION]?: boolean })[LIBRARY_CONDITION] === true &&
    KEYS.every((key) => typeof value[key] === 'string')
  );
}
