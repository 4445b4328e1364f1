/**
 * What kro's graph build refuses of an RGD's custom status conditions
 * (`spec.schema.status.conditions`; kro v0.9.x `pkg/graph/conditions.go` and
 * `validateConditionOutputType`), each said of the entry it is about:
 *
 * - a literal `status` other than `True`, `False`, `Unknown`, or a literal `type` of `''`;
 * - the same literal `type` declared by two entries (one entry may repeat it: ternary branches);
 * - `runtime.condition(schema, 'X')` with a literal `X` that is not one of kro's four built-in
 *   types: a type an entry declares (custom conditions cannot reference each other), or else an
 *   unknown one (a computed `X`, and a lookup on a resource, are free);
 * - an entry whose value is neither a condition (`kro.run.Condition`, what the library's calls
 *   give: {@link CONDITION_TYPE}) nor a list of them (`dyn`, which cosi's checker gives what it
 *   cannot type, passes, as in kro, and is checked when rendered).
 */

import type { CelType } from '../cel/cel-types.js';
import { CONDITION_TYPE, formatCelType } from '../cel/cel-types.js';
import type { RuntimeCalls } from './runtime-calls.js';
import { BUILTIN_CONDITION_TYPES, CONDITION_STATUSES } from './condition-types.js';

/** One entry of `status.conditions`, compiled. */
export interface ConditionEntry<At> {
  readonly source: string;
  readonly at: At;
  readonly runtime: RuntimeCalls;
  /** The type of its value (`dyn` where unknown). */
  readonly type: CelType;
}

/** The problems of the entries, each at its entry's `at`. */
export function conditionProblems<At>(
  entries: readonly ConditionEntry<At>[],
): { at: At; message: string }[] {
  const problems: { at: At; message: string }[] = [];
  const declaredBy = new Map<string, number>();
  entries.forEach((entry, i) => {
    const mine = new Set<string>();
    for (const { type } of entry.runtime.conditions) if (type !== undefined) mine.add(type);
    for (const type of mine) {
      if (declaredBy.has(type)) {
        problems.push({
          at: entry.at,
          message: `\${${entry.source}}: condition type ${JSON.stringify(type)} is declared by more than one conditions entry (entry ${String(declaredBy.get(type))} declares it too), as kro refuses it`,
        });
      } else declaredBy.set(type, i);
    }
  });
  for (const entry of entries) {
    const problem = entryProblem(entry, declaredBy);
    if (problem !== undefined)
      problems.push({ at: entry.at, message: `\${${entry.source}}: ${problem}` });
  }
  return problems;
}

function entryProblem(
  entry: ConditionEntry<unknown>,
  declared: ReadonlyMap<string, number>,
): string | undefined {
  for (const { type, status } of entry.runtime.conditions) {
    if (status !== undefined && !CONDITION_STATUSES.has(status)) {
      return `runtime.newCondition: status must be one of True, False, Unknown (got ${JSON.stringify(status)})`;
    }
    if (type === '') return 'runtime.newCondition: type must not be empty';
  }
  for (const { type } of entry.runtime.schemaLookups) {
    if (type === undefined || BUILTIN_CONDITION_TYPES.has(type)) continue;
    if (declared.has(type)) {
      return `runtime.condition(schema, ${JSON.stringify(type)}): custom conditions cannot reference each other (schema reads kro's built-in conditions)`;
    }
    return `runtime.condition(schema, ${JSON.stringify(type)}): unknown condition type; only kro's built-in types (InstanceManaged, GraphResolved, ResourcesReady, Ready) can be read from schema`;
  }
  const type = entry.type.kind === 'list' ? entry.type.elem : entry.type;
  if (type.kind !== 'dyn' && type !== CONDITION_TYPE) {
    return `condition expressions must return runtime.newCondition(...) or a list of them, got ${formatCelType(entry.type)}`;
  }
  return undefined;
}
