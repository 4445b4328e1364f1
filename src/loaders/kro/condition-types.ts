/**
 * What a condition of kro's custom status conditions is (v0.9.x, `pkg/cel/library/runtime.go`,
 * `api/v1alpha1/conditions.go`), apart from the CEL library that makes them (`runtime-library.ts`),
 * so that the load's checks read it without loading CEL.
 */

/** The keys of a condition, in kro's order. */
export const CONDITION_KEYS = ['type', 'status', 'reason', 'message'] as const;

/** A condition's `status` values (metav1.ConditionStatus). */
export const CONDITION_STATUSES: ReadonlySet<string> = new Set(['True', 'False', 'Unknown']);

/** kro's built-in instance conditions: the only types `runtime.condition(schema, X)` may read. */
export const BUILTIN_CONDITION_TYPES: ReadonlySet<string> = new Set([
  'InstanceManaged',
  'GraphResolved',
  'ResourcesReady',
  'Ready',
]);

/** A condition as the library makes it (the wire's without the times and the generation). */
export type RuntimeCondition = Record<(typeof CONDITION_KEYS)[number], string>;
