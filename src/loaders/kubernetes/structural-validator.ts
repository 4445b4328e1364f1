/**
 * Checks a value against a built-in kind's structural schema by walking the two together: no
 * compile step, so a kind costs nothing until a document of it is checked, and a check costs in
 * proportion to the document. The schemas are Kubernetes' own (`builtin-schema.ts`), which use
 * only `type`, `format`, `enum`, `required`, `properties`, `additionalProperties`, `items` and
 * the `x-kubernetes-*` list and int-or-string keywords; findings read as the schema compiler's
 * (ajv's) do for the same keywords.
 *
 * As the API server decodes a built-in object: `null` is accepted anywhere (it decodes to the
 * field's zero value, as in `creationTimestamp: null`), an `int32` must fit 32 bits, a `byte`
 * string must be base64 (in Go's words where it is not: `go-base64.ts`), a `date-time` RFC 3339
 * and a quantity (a node with {@link QUANTITY_MARK}) must parse (`resource.ParseQuantity`, in its
 * words: `quantities must match the regular expression ...`). The per-kind checks that read a
 * quantity's value leave one that does not parse to this walk.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-compiler.js';
import { duplicateItem, KUBERNETES_KEYWORD_MESSAGES } from './structural-schema.js';
import { base64Error } from './go-base64.js';
import { goRequiredMessage } from './go-required-field.js';
import { QUANTITY_MARK } from './builtin-schema.js';
import { parseResourceQuantity, quantityError } from './resource-quantity.js';

/** A pod's container lists, whose items' names the Go checks refuse to repeat. */
const CONTAINER_LIST_NAMES = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/**
 * What the API server does with a repeated item of the list at `path`, which its markers make a
 * `map` or `set`: for most lists of built-in kinds it refuses it; a container's `ports` and
 * `env` and a pod's `imagePullSecrets` and `hostAliases` it takes with a warning
 * (`pkg/api/pod/warnings.go`); a repeated container, volume, mount path or device is the Go
 * check's (`validateContainers`, `ValidateVolumes`, `ValidateVolumeMounts`,
 * `ValidateVolumeDevices`: `container-checks.ts`, `pod-volumes.ts`), at the field it repeats; so is
 * a repeated webhook or match condition name (`webhook-configurations.ts`, `match-conditions.ts`).
 */
function repeatedItemRule(path: readonly string[]): 'refuses' | 'warns' | 'go-reports' {
  const list = path.at(-1) ?? '';
  if (CONTAINER_LIST_NAMES.has(list)) return 'go-reports';
  if (list === 'matchConditions') return 'go-reports';
  if (list === 'webhooks' && path.length === 1) return 'go-reports';
  if (list === 'volumes' && path.at(-2) === 'spec') return 'go-reports';
  const inContainer = CONTAINER_LIST_NAMES.has(path.at(-3) ?? '');
  if (inContainer && (list === 'volumeMounts' || list === 'volumeDevices')) return 'go-reports';
  if (inContainer && (list === 'ports' || list === 'env')) return 'warns';
  if (list === 'imagePullSecrets' || list === 'hostAliases') return 'warns';
  return 'refuses';
}

/** The problems of `value` against `schema`, at paths inside `value`. */
export function validateStructural(value: unknown, schema: JsonSchema): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  check(value, schema, [], problems);
  return problems;
}

const INT32 = 2 ** 31;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function check(value: unknown, schema: JsonSchema, path: string[], out: SchemaProblem[]): void {
  if (value === null) return;
  const problem = (keyword: string, message: string): void => {
    out.push({ path: jsonPointer(path), part: 'value', keyword, message });
  };
  if (schema['x-kubernetes-int-or-string'] === true) {
    if (typeof value !== 'string' && !(typeof value === 'number' && Number.isInteger(value))) {
      problem(
        'x-kubernetes-int-or-string',
        KUBERNETES_KEYWORD_MESSAGES['x-kubernetes-int-or-string'] ?? '',
      );
    }
    return;
  }
  const type = schema.type;
  if (type !== undefined && !hasType(value, type)) {
    const expected = Array.isArray(type) ? type.join(',') : typeof type === 'string' ? type : '';
    problem('type', `must be ${expected}`);
    return;
  }
  const allowed = schema.enum;
  if (Array.isArray(allowed) && !allowed.includes(value)) {
    // The API server's words (`field.NotSupported`), as its Go validation of the set gives them.
    problem(
      'enum',
      `Unsupported value: ${JSON.stringify(value)}: supported values: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`,
    );
  }
  const format = schema.format;
  if (typeof format === 'string') checkFormat(value, format, problem);
  if (schema[QUANTITY_MARK] === true) checkQuantity(value, problem);
  if (Array.isArray(value)) {
    const items = schema.items;
    if (isPlainObject(items)) {
      for (let i = 0; i < value.length; i++) check(value[i], items, [...path, String(i)], out);
    }
    const listType = schema['x-kubernetes-list-type'];
    if (listType === 'set' || listType === 'map') {
      const keys = schema['x-kubernetes-list-map-keys'];
      const repeat = duplicateItem(
        value,
        listType === 'map' && Array.isArray(keys) ? (keys as string[]) : undefined,
      );
      const kept = repeatedItemRule(path);
      if (repeat !== undefined && kept !== 'go-reports') {
        out.push({
          path: jsonPointer([...path, String(repeat.index)]),
          part: 'value',
          keyword: 'x-kubernetes-list-type',
          message:
            kept === 'warns'
              ? `${repeat.message}: the API server takes it with a warning (only server-side apply refuses it), and a later item may hide the earlier`
              : repeat.message,
          ...(kept === 'warns' ? { warning: true as const } : {}),
        });
      }
    }
    return;
  }
  if (!isPlainObject(value)) return;
  const required = schema.required;
  if (Array.isArray(required)) {
    for (const key of required as string[]) {
      if (value[key] !== undefined) continue;
      // The API server's Go validation reports it at the field (`field.Required`).
      out.push({
        path: jsonPointer(path),
        part: 'value',
        keyword: 'required',
        message: `must have required property '${key}'`,
        apiServerMessage: goRequiredMessage(path, key),
        apiServerPath: jsonPointer([...path, key]),
      });
    }
  }
  const properties = isPlainObject(schema.properties) ? schema.properties : undefined;
  const additional = isPlainObject(schema.additionalProperties)
    ? schema.additionalProperties
    : undefined;
  for (const key of Object.keys(value)) {
    const declared =
      properties !== undefined && Object.prototype.hasOwnProperty.call(properties, key)
        ? properties[key]
        : additional;
    if (isPlainObject(declared)) check(value[key], declared, [...path, key], out);
  }
}

function hasType(value: unknown, type: unknown): boolean {
  if (Array.isArray(type)) return type.some((t) => hasType(value, t));
  switch (type) {
    case 'object':
      return isPlainObject(value);
    case 'array':
      return Array.isArray(value);
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}

function checkQuantity(value: unknown, problem: (keyword: string, message: string) => void): void {
  if (typeof value !== 'string' && typeof value !== 'number') return;
  const text = String(value);
  try {
    parseResourceQuantity(text);
  } catch {
    problem('quantity', quantityError(text));
  }
}

function checkFormat(
  value: unknown,
  format: string,
  problem: (keyword: string, message: string) => void,
): void {
  if (format === 'int32' && typeof value === 'number' && (value < -INT32 || value >= INT32)) {
    problem('format', 'must be a 32-bit integer (int32)');
  } else if (format === 'byte' && typeof value === 'string') {
    const error = base64Error(value);
    if (error !== undefined) problem('format', `${error} (the field is bytes, written in base64)`);
  } else if (format === 'date-time' && typeof value === 'string' && !DATE_TIME.test(value)) {
    problem('format', 'must be an RFC 3339 date-time, as 2024-01-02T15:04:05Z');
  }
}
