/**
 * A `null` element of a built-in object's map (a ConfigMap's or Secret's `data`, a pod's
 * `nodeSelector`, a container's `resources.limits`, a ResourceQuota's `hard`) as the API server
 * stores it: the zero value of the map's element type. It decodes the object into Go types with
 * `encoding/json` (sigs.k8s.io/json), which drops a `null` struct field but stores a `null` map
 * element as a fresh zero element, the key kept: `""` for a string (`kubectl get cm -o yaml` then
 * shows `empty: ""`), and for a `resource.Quantity`, whose `UnmarshalJSON` takes `null` as zero,
 * `"0"` (`limits: {cpu: null}` is stored as `cpu: "0"`, and validated as that). A custom resource
 * is different: the API server prunes a null it may not hold from a map as from an object
 * (`PruneNonNullableNullsWithoutDefaults`), which `defaulting.ts` does; so this runs for built-in
 * kinds only, before it. The header's labels and annotations get the same reading where they are
 * read (`readStringMap`).
 *
 * Elements whose zero value is itself written `null` (a nil slice, a nil map, a zero
 * `metav1.Time`) or a struct (resource.k8s.io's device attributes and counters, whose zero value
 * has fields cosi's schema does not spell) are left as they are.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';

/**
 * Replaces, in place, each `null` element of a map whose elements the schema types as a
 * scalar (`additionalProperties: {type: string}`, bytes included, a quantity, a number, a
 * boolean, an int-or-string) with that type's zero value, anywhere in a built-in object;
 * returns the value.
 */
export function zeroNullMapElements(value: unknown, schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return value;
  if (Array.isArray(value)) {
    if (isPlainObject(schema.items)) {
      for (const item of value) zeroNullMapElements(item, schema.items);
    }
    return value;
  }
  if (!isPlainObject(value)) return value;
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const additional = isPlainObject(schema.additionalProperties)
    ? schema.additionalProperties
    : undefined;
  for (const [key, child] of Object.entries(value)) {
    const declared = Object.prototype.hasOwnProperty.call(properties, key);
    const childSchema = declared ? properties[key] : additional;
    if (!isPlainObject(childSchema)) continue;
    if (child === null) {
      const zero = declared ? undefined : zeroValueOf(childSchema);
      if (zero !== undefined) value[key] = zero;
      continue;
    }
    zeroNullMapElements(child, childSchema);
  }
  return value;
}

/** The JSON Go writes for the zero value of an element of this schema; undefined: left alone. */
function zeroValueOf(schema: JsonSchema): string | number | boolean | undefined {
  // `intstr.IntOrString` decodes `null` as the integer 0.
  if (schema['x-kubernetes-int-or-string'] === true) return 0;
  const type = schema.type;
  // A quantity (a string or a number, `builtin-schema.ts`): the zero quantity, written "0".
  if (Array.isArray(type))
    return type.includes('string') && type.includes('number') ? '0' : undefined;
  switch (type) {
    case 'string':
      return schema.format === 'date-time' ? undefined : '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}
