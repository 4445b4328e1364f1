/**
 * A schema error of a Kubernetes object as the API server words it (kube-openapi's messages as
 * apiextensions-apiserver's `kubeOpenAPIResultToFieldErrors` turns them into field errors), so
 * that `cosi check` says what `kubectl apply` would of a custom resource: `Invalid value:
 * "100us": spec.rules[0].timeouts.request in body should match '^([0-9]{1,5}(h|m|s|ms)){1,4}$'`,
 * `Unsupported value: "FooBar": supported values: "Exact", "PathPrefix"`, `Too long: may not be
 * more than 63 bytes`, `Too many: 17: must have at most 16 items`, `"spec.addresses[0]" must
 * validate one and only one schema (oneOf). Found none valid`, `Required value` (at the missing
 * field: {@link openApiErrorPath}), `Invalid value: "string": spec.rules[0] in body must be of
 * type object: "string"`. The keywords whose words are known, each with the value it names
 * printed as Go prints it; `undefined` for the others, which keep cosi's words.
 *
 * A field's `null` never meets the type check here, as at the API server: it removes a `null` a
 * field may not hold before it validates (`PruneNonNullableNullsWithoutDefaults`); a list's stays,
 * `must be of type object: "null"`.
 */

import type { ErrorObject } from 'ajv';
import { jsonPointer, parseJsonPointer } from '../json-pointer.js';
import { goFieldPath, goValue, tooManyValue, unsupportedValue } from './go-field-error.js';

/**
 * The API server's message for `error` of `document` (validated whole), if it has one, in the
 * words of Kubernetes 1.`kubernetesMinor` (default the newest).
 */
export function openApiErrorMessage(
  error: ErrorObject,
  document: unknown,
  kubernetesMinor = Number.POSITIVE_INFINITY,
): string | undefined {
  const params = error.params as Record<string, unknown>;
  const { path, value } = located(error.instancePath, document);
  const inBody = (shown: unknown, detail: string): string =>
    `Invalid value: ${goValue(shown)}: ${goFieldPath(path)} in body ${detail}`;
  const invalid = (detail: string): string | undefined =>
    isScalar(value) ? inBody(value, detail) : undefined;
  // kube-openapi names the type it found, quoted, and field.TypeInvalid shows it as the value.
  const typeInvalid = (expected: string): string | undefined => {
    const found = jsonTypeOf(value);
    return found === undefined
      ? undefined
      : inBody(found, `must be of type ${expected}: ${JSON.stringify(found)}`);
  };
  switch (error.keyword) {
    case 'required':
      return 'Required value';
    case 'type':
      return typeInvalid(Array.isArray(params.type) ? params.type.join(',') : String(params.type));
    case 'enum': {
      if (!isScalar(value) || !Array.isArray(params.allowedValues)) return undefined;
      const allowed = params.allowedValues.map((v: unknown) =>
        typeof v === 'string' ? v : JSON.stringify(v),
      );
      return unsupportedValue(value, allowed);
    }
    case 'pattern':
      return invalid(`should match '${String(params.pattern)}'`);
    case 'minLength':
      return invalid(`should be at least ${String(params.limit)} chars long`);
    case 'maxLength':
      return tooLong(Number(params.limit), kubernetesMinor);
    case 'minimum':
      return invalid(`should be greater than or equal to ${String(params.limit)}`);
    case 'exclusiveMinimum':
      return invalid(`should be greater than ${String(params.limit)}`);
    case 'maximum':
      return invalid(`should be less than or equal to ${String(params.limit)}`);
    case 'exclusiveMaximum':
      return invalid(`should be less than ${String(params.limit)}`);
    case 'multipleOf':
      return invalid(`should be a multiple of ${String(params.multipleOf)}`);
    case 'x-kubernetes-int-or-string':
      // The API server types such a field as both (`Type: integer,string`).
      return typeInvalid('integer,string');
    case 'minItems':
      return Array.isArray(value)
        ? inBody(value.length, `should have at least ${String(params.limit)} items`)
        : undefined;
    case 'minProperties':
      return isObject(value)
        ? inBody(
            Object.keys(value).length,
            `should have at least ${String(params.limit)} properties`,
          )
        : undefined;
    case 'maxItems':
      return Array.isArray(value) ? tooMany(value.length, Number(params.limit)) : undefined;
    case 'maxProperties':
      return isObject(value) ? tooMany(Object.keys(value).length, Number(params.limit)) : undefined;
    // Composite errors, which the API server reports at no field and names the node in.
    case 'oneOf': {
      const passing = Array.isArray(params.passingSchemas) ? params.passingSchemas.length : 0;
      const found = passing === 0 ? 'Found none valid' : `Found ${passing} valid alternatives`;
      return composite(path, `must validate one and only one schema (oneOf). ${found}`);
    }
    case 'anyOf':
      return composite(path, 'must validate at least one schema (anyOf)');
    case 'not':
      return composite(path, 'must not validate the schema (not)');
    case 'format':
      return typeof params.format === 'string'
        ? openApiFormatMessage(path, value, params.format)
        : undefined;
    default:
      return undefined;
  }
}

/**
 * `Too long` as the release's `field.TooLong` words it: by 1.31 `may not be longer than 63`
 * (`TooLongMaxLength`), in 1.32 and 1.33 `may not be more than 63 bytes` (`1 bytes` too), from
 * 1.34 `byte` for a limit of one.
 */
function tooLong(limit: number, kubernetesMinor: number): string {
  if (kubernetesMinor <= 31) return `Too long: may not be longer than ${limit}`;
  const unit = limit === 1 && kubernetesMinor >= 34 ? 'byte' : 'bytes';
  return `Too long: may not be more than ${limit} ${unit}`;
}

/**
 * Where the API server reports `error` when it is not at the value's own path: a missing required
 * field, at the field (`spec.hosts: Required value`). A JSON pointer, as `error.instancePath`.
 */
export function openApiErrorPath(error: ErrorObject): string | undefined {
  if (error.keyword !== 'required') return undefined;
  const missing = (error.params as Record<string, unknown>).missingProperty;
  return typeof missing === 'string' ? `${error.instancePath}${jsonPointer([missing])}` : undefined;
}

/** A string not of its `format`, as the API server words it. */
export function openApiFormatMessage(
  path: readonly (string | number)[],
  value: unknown,
  format: string,
): string | undefined {
  if (typeof value !== 'string') return undefined;
  return `Invalid value: ${goValue(value)}: ${goFieldPath(path)} in body must be of type ${format}: ${JSON.stringify(value)}`;
}

/** kube-openapi's composite error, which the API server reports as `<nil>: Invalid value: ""`. */
function composite(path: readonly (string | number)[], detail: string): string {
  return `Invalid value: "": ${JSON.stringify(goFieldPath(path))} ${detail}`;
}

/** `field.TooMany`, one item said as such. */
function tooMany(actual: number, max: number): string {
  return max === 1 ? `Too many: ${actual}: must have at most 1 item` : tooManyValue(actual, max);
}

/**
 * The value at a JSON pointer of `document`, and its path with list indexes as numbers (as Go
 * writes them, `rules[0]`), a map's keys as names even when they are digits.
 */
export function located(
  pointer: string,
  document: unknown,
): { path: (string | number)[]; value: unknown } {
  const path: (string | number)[] = [];
  let value = document;
  for (const segment of parseJsonPointer(pointer)) {
    if (Array.isArray(value)) {
      const index = Number(segment);
      path.push(index);
      value = value[index];
    } else {
      path.push(segment);
      value = isObject(value) && Object.hasOwn(value, segment) ? value[segment] : undefined;
    }
  }
  return { path, value };
}

/** The JSON type kube-openapi names a decoded value by (an integral number is an `integer`). */
function jsonTypeOf(value: unknown): string | undefined {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'string';
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (Array.isArray(value)) return 'array';
  if (isObject(value)) return 'object';
  return undefined;
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
