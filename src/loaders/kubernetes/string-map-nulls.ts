/**
 * A `null` value in a built-in object's map of strings (a ConfigMap's or Secret's `data`,
 * `stringData`, `binaryData`, a pod's `nodeSelector`, a template's annotations) as the API
 * server stores it: the empty string. It decodes the object into Go types with
 * `encoding/json` (sigs.k8s.io/json), which drops a `null` struct field but stores a `null`
 * map element as the element's zero value, the key kept (`kubectl get cm -o yaml` then shows
 * `empty: ""`). A custom resource is different: the API server prunes a null it may not hold
 * from a map as from an object (`PruneNonNullableNullsWithoutDefaults`), which
 * `defaulting.ts` does; so this runs for built-in kinds only, before it. The header's labels and
 * annotations get the same reading where they are read (`readStringMap`).
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';

/**
 * Replaces, in place, each `null` element of a map whose values the schema types as strings
 * (`additionalProperties: {type: string}`, bytes included) with `""`, anywhere in a built-in
 * object; returns the value.
 */
export function zeroNullStringMapValues(value: unknown, schema: JsonSchema | undefined): unknown {
  if (schema === undefined) return value;
  if (Array.isArray(value)) {
    if (isPlainObject(schema.items)) {
      for (const item of value) zeroNullStringMapValues(item, schema.items);
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
      if (!declared && childSchema.type === 'string') value[key] = '';
      continue;
    }
    zeroNullStringMapValues(child, childSchema);
  }
  return value;
}
