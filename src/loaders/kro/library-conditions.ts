/**
 * The conditions kro's `runtime` library made (`runtime-library.ts`), known by identity: a
 * condition is a CEL map of four string keys, and so may be a map from anywhere else (a `dyn`
 * field of the instance's spec), which kro refuses as a condition ("must return a Condition or
 * list(Condition), got map"). `cel-json.ts` renders the library's marked as conditions.
 */

const made = new WeakSet<object>();

/** Notes `value` (a CEL map) as a condition the library made, and gives it back. */
export function madeCondition<T extends object>(value: T): T {
  made.add(value);
  return value;
}

/** Whether a CEL value is a condition the library made (kro's `kro.run.Condition`). */
export function isLibraryCondition(value: unknown): boolean {
  return typeof value === 'object' && value !== null && made.has(value);
}
