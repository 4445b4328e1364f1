import type { ResourceDefinition } from '../engine/resource/definition.js';

/** What a shared view writes in place of a value it keeps back. */
export const NOT_SHOWN = '(sensitive: not shown)';

/** A core Secret's fields whose values are its secrets (keys stay: they say what it holds). */
const SECRET_FIELDS: readonly string[] = ['data', 'stringData'];

/**
 * The spec fields of a type whose values a shared view (the report, the watch view) keeps back:
 * a Kubernetes Secret's `data` and `stringData`, the values every tool around Kubernetes masks
 * (Argo CD, `helm --hide-secret`, k9s). `cosi get` still prints them, as kubectl does.
 */
export function withheldFieldsOf(definition: ResourceDefinition | undefined): readonly string[] {
  const kind = definition?.kubernetes;
  return kind?.apiVersion === 'v1' && kind.kind === 'Secret' ? SECRET_FIELDS : [];
}

/** The spec with every value of `fields` (maps of values) replaced by {@link NOT_SHOWN}. */
export function withholdFields(spec: unknown, fields: readonly string[]): unknown {
  if (fields.length === 0 || typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    return spec;
  }
  const record = spec as Readonly<Record<string, unknown>>;
  if (!fields.some((field) => field in record)) return spec;
  const out: Record<string, unknown> = { ...record };
  for (const field of fields) {
    const value = record[field];
    if (value === undefined) continue;
    out[field] =
      typeof value === 'object' && value !== null && !Array.isArray(value)
        ? Object.fromEntries(Object.keys(value).map((key) => [key, NOT_SHOWN]))
        : NOT_SHOWN;
  }
  return out;
}

/**
 * What a shared view (the report, the watch view) shows of a resource's spec: nothing for a type
 * declared `sensitivity: sensitive` (`undefined`), a Secret's without its values, else all of it.
 */
export function shownSpec(definition: ResourceDefinition | undefined, spec: unknown): unknown {
  if (definition?.sensitivity === 'sensitive') return undefined;
  return withholdFields(spec, withheldFieldsOf(definition));
}
