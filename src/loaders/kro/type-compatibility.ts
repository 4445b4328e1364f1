/**
 * Whether a value of one CEL type may be written where an RGD template expects another, decided
 * as kro decides it when it builds an RGD (`validateExpressionType` in kro's
 * `pkg/graph/builder.go`): cel-go's nominal `IsAssignableType`, then kro's structural
 * `AreTypesStructurallyCompatible` (`pkg/cel/compatibility.go`). The expected type is the CEL
 * type of the field's schema (`integer` is `int`, `number` `double`, a `date-time` string a
 * `timestamp`, `x-kubernetes-int-or-string` `dyn`, ...). So:
 *
 * - `dyn` on either side fits (an int-or-string field, a field of an open object, `json.unmarshal`);
 * - an optional fits as its value;
 * - a list fits a list whose element type its own fits; a map a map likewise (keys and values);
 * - a map fits an object when its keys are strings and its values fit every field; an object a
 *   map when each of its fields fits the map's values; an object an object when each of its
 *   fields is one of the expected object's, of a type that fits;
 * - anything else that is not a map or an object fits an object field (kro's fallback: it finds
 *   no fields to compare; the rendered resource is then checked against its kind's schema);
 * - other types fit only their own kind: an `int` does not fit a `number` (`double`) field, nor a
 *   `bool` a `string` field.
 */

import { formatCelType, type CelType } from '../cel/cel-types.js';

/** Why a value of `output` cannot be written where `expected` is, or undefined when it can. */
export function typeMismatch(output: CelType, expected: CelType): string | undefined {
  if (expected.kind === 'dyn' || output.kind === 'dyn') return undefined;
  if (output.kind === 'optional') return typeMismatch(output.value, expected);
  switch (expected.kind) {
    case 'object':
      if (output.kind === 'map') return mapIntoObject(output, expected);
      if (output.kind === 'object') return objectIntoObject(output, expected);
      return undefined;
    case 'map':
      if (output.kind === 'object') return objectIntoMap(output, expected);
      if (output.kind !== 'map') return kindMismatch(output, expected);
      return (
        within('map key', typeMismatch(output.key, expected.key)) ??
        within('map value', typeMismatch(output.value, expected.value))
      );
    case 'list':
      if (output.kind !== 'list') return kindMismatch(output, expected);
      return within('list element', typeMismatch(output.elem, expected.elem));
    default:
      return output.kind === expected.kind ? undefined : kindMismatch(output, expected);
  }
}

type Of<K extends CelType['kind']> = Extract<CelType, { kind: K }>;

function kindMismatch(output: CelType, expected: CelType): string {
  return `type kind mismatch: got ${formatCelType(output)}, expected ${formatCelType(expected)}`;
}

function within(what: string, problem: string | undefined): string | undefined {
  return problem === undefined ? undefined : `${what} type incompatible: ${problem}`;
}

function mapIntoObject(output: Of<'map'>, expected: Of<'object'>): string | undefined {
  if (expected.fields.size === 0) return undefined;
  if (output.key.kind !== 'string') return 'map keys must be strings to assign to an object';
  for (const [name, type] of expected.fields) {
    const problem = typeMismatch(output.value, type);
    if (problem !== undefined) {
      return `map value incompatible with field ${JSON.stringify(name)}: ${problem}`;
    }
  }
  return undefined;
}

function objectIntoMap(output: Of<'object'>, expected: Of<'map'>): string | undefined {
  if (output.fields.size === 0) return undefined;
  if (expected.key.kind !== 'string')
    return 'an object is written to a map whose keys are not strings';
  for (const [name, type] of output.fields) {
    const problem = typeMismatch(type, expected.value);
    if (problem !== undefined) {
      return `field ${JSON.stringify(name)} incompatible with the map's values: ${problem}`;
    }
  }
  return undefined;
}

/** The output's fields are a subset of the expected object's, each of a type that fits. */
function objectIntoObject(output: Of<'object'>, expected: Of<'object'>): string | undefined {
  for (const [name, type] of output.fields) {
    const field = expected.fields.get(name);
    if (field === undefined) {
      return `field ${JSON.stringify(name)} exists in the value but not in the expected type`;
    }
    const problem = typeMismatch(type, field);
    if (problem !== undefined) return `field ${JSON.stringify(name)}: ${problem}`;
  }
  return undefined;
}
