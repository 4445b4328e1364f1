/**
 * The Kubernetes extensions of OpenAPI v3 schemas (the `x-kubernetes-*` keywords of a CRD's
 * `openAPIV3Schema`), taught to ajv with the API server's meaning, so that any definition's schema
 * (a CRD's, or a cosi `ResourceDefinitions.meta.cosi.dev` one) may use them. `nullable` is ajv's
 * own (OpenAPI's): `type: string, nullable: true` also accepts null.
 */

import type { Ajv, ErrorObject, KeywordDefinition } from 'ajv';
import type { JsonSchema } from '../../engine/resource/definition.js';
import { shorten } from '../shorten.js';
import { canonicalJson } from '../unique-items.js';

/**
 * The keyword `toAjvSchema` writes beside a `format` under a combinator (`allOf`, `anyOf`,
 * `oneOf`, `not`; draft-07's `if` / `then` / `else`). ajv leaves formats alone (the schema
 * compiler checks those of a value's fields after ajv, `checked-formats.ts`), but a branch must
 * fail on its format for the combinator to choose as the API server does: `oneOf: [{format:
 * ipv4}, {format: ipv6}]` holds an address of either kind. The schema compiler defines it.
 */
export const COMBINATOR_FORMAT = 'x-cosi-combinator-format';

/** Whether a value is an integer or a string, as `x-kubernetes-int-or-string` requires. */
function isIntOrString(value: unknown): boolean {
  return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
}

/**
 * A list item that repeats an earlier one, by value (`set`) or by its key fields (`map`): the
 * problem of an `x-kubernetes-list-type` list, at the repeat (the API server's `Duplicate value`
 * at `spec.steps[2]`); undefined when the items are unique. Items are compared as the API server
 * compares them (`validateListSet`, by their `json.Marshal`, which sorts an object's keys): an
 * object written again with its keys in another order is the same item.
 */
export function duplicateItem(
  items: readonly unknown[],
  keys?: readonly string[],
): { readonly index: number; readonly message: string } | undefined {
  const seen = new Set<string>();
  for (const [index, item] of items.entries()) {
    const fields =
      keys === undefined
        ? undefined
        : Object.fromEntries(
            keys.map((k) => [k, (item as Record<string, unknown> | null)?.[k] ?? null]),
          );
    const key = canonicalJson(fields === undefined ? item : keys?.map((k) => fields[k]));
    if (seen.has(key)) {
      const shown =
        fields === undefined
          ? item
          : Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null));
      const value = shorten(JSON.stringify(shown));
      const by = keys === undefined ? 'set' : `map, keyed by ${keys.join(', ')}`;
      return { index, message: `Duplicate value: ${value} (x-kubernetes-list-type: ${by})` };
    }
    seen.add(key);
  }
  return undefined;
}

/**
 * The keywords: those that check values, and the annotations ajv must accept but ignore
 * (`x-kubernetes-validations` holds CEL rules, evaluated after the schema passes, elsewhere).
 */
const KUBERNETES_KEYWORDS: readonly KeywordDefinition[] = [
  {
    // An integer or a string (a port, a percentage): usually without `type`.
    keyword: 'x-kubernetes-int-or-string',
    schemaType: 'boolean',
    errors: false,
    validate: (enabled: boolean, data: unknown, parentSchema?: Record<string, unknown>) =>
      !enabled || isIntOrString(data) || (data === null && parentSchema?.nullable === true),
  },
  {
    // `set`: items unique by value; `map`: unique by `x-kubernetes-list-map-keys`.
    keyword: 'x-kubernetes-list-type',
    schemaType: 'string',
    errors: true,
    validate: function listType(
      this: unknown,
      type: string,
      data: unknown,
      parentSchema?: Record<string, unknown>,
      context?: { readonly instancePath: string },
    ) {
      if (!Array.isArray(data) || (type !== 'set' && type !== 'map')) return true;
      const keys = parentSchema?.['x-kubernetes-list-map-keys'];
      const repeat = duplicateItem(
        data,
        type === 'map' && Array.isArray(keys) ? (keys as string[]) : undefined,
      );
      if (repeat === undefined) return true;
      // At the repeated item, as the API server reports it.
      (listType as { errors?: Partial<ErrorObject>[] }).errors = [
        {
          keyword: 'x-kubernetes-list-type',
          instancePath: `${context?.instancePath ?? ''}/${repeat.index}`,
          message: repeat.message,
          params: {},
        },
      ];
      return false;
    },
  },
  // Unknown fields kept: the structural pass (`kubernetes-fields.ts`) reads it.
  { keyword: 'x-kubernetes-preserve-unknown-fields', schemaType: 'boolean' },
  // `apiVersion`, `kind` and `metadata` allowed in this object: read by the same pass.
  { keyword: 'x-kubernetes-embedded-resource', schemaType: 'boolean' },
  { keyword: 'x-kubernetes-list-map-keys', schemaType: 'array' },
  { keyword: 'x-kubernetes-map-type', schemaType: 'string' },
  // CEL rules: an annotation here; evaluated by the CEL pass after the schema passes.
  { keyword: 'x-kubernetes-validations', schemaType: 'array' },
  // OpenAPI v3's annotations that a CRD's JSONSchemaProps has and draft-07 has not.
  { keyword: 'example' },
  { keyword: 'externalDocs', schemaType: 'object' },
];

/** What a value that fails one of the checking keywords breaks, for findings. */
export const KUBERNETES_KEYWORD_MESSAGES: Readonly<Record<string, string>> = {
  'x-kubernetes-int-or-string': 'must be an integer or a string',
  'x-kubernetes-list-type': 'must not hold the same item twice (x-kubernetes-list-type)',
};

/** Adds the `x-kubernetes-*` keywords to an ajv instance. */
export function addKubernetesKeywords(ajv: Ajv): void {
  for (const definition of KUBERNETES_KEYWORDS) ajv.addKeyword(definition);
}

/**
 * The schema as ajv can compile it. Two things a CRD's schema (OpenAPI v3.0) may write differ
 * from draft-07: `nullable` without `type`, which a structural schema allows beside
 * `x-kubernetes-int-or-string` (typed here as integer or string, so that ajv's `nullable` adds
 * null) or where any value goes (there `nullable` changes nothing, so it is left out); and the
 * boolean `exclusiveMinimum` / `exclusiveMaximum` of OpenAPI v3.0, which make `minimum` /
 * `maximum` exclusive (rewritten as draft-07's numbers). A checked `format` under a combinator
 * gets {@link COMBINATOR_FORMAT} beside it. The schema itself when it has no such node; a copy
 * otherwise, the same shape (a keyword added, none moved), so that paths into it are paths into
 * the schema.
 */
export function toAjvSchema(schema: JsonSchema): JsonSchema {
  return needsRewrite(schema, ROOT) ? (rewrite(schema, ROOT) as JsonSchema) : schema;
}

/** Keywords whose subschemas choose whether a value passes rather than check its fields. */
const COMBINATORS = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']);
/** Keywords whose value maps names to subschemas: a field named `not` is no combinator. */
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);

/** Where a value sits: in a schema (under a combinator or not), or in a map of named schemas. */
interface Place {
  readonly combined: boolean;
  readonly names: boolean;
}

const ROOT: Place = { combined: false, names: false };

/** The place of the value under `key` of a value at `place`. */
function placeUnder(key: string, place: Place): Place {
  if (place.names) return { combined: place.combined, names: false };
  return {
    combined: place.combined || COMBINATORS.has(key),
    names: SCHEMA_MAPS.has(key),
  };
}

/** Whether a schema node (not a map of names) under a combinator has a format to copy. */
function needsFormatCopy(node: Record<string, unknown>, place: Place): boolean {
  return (
    place.combined &&
    !place.names &&
    typeof node.format === 'string' &&
    node[COMBINATOR_FORMAT] === undefined
  );
}

function needsRewrite(value: unknown, place: Place): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => needsRewrite(item, place));
  const node = value as Record<string, unknown>;
  if (!place.names) {
    if (node.nullable === true && node.type === undefined) return true;
    if (typeof node.exclusiveMinimum === 'boolean' || typeof node.exclusiveMaximum === 'boolean') {
      return true;
    }
    if (needsFormatCopy(node, place)) return true;
  }
  return Object.entries(node).some(
    ([key, child]) =>
      (place.names || !DATA_KEYWORDS.has(key)) && needsRewrite(child, placeUnder(key, place)),
  );
}

function rewrite(value: unknown, place: Place): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map((item) => rewrite(item, place));
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    out[key] =
      !place.names && DATA_KEYWORDS.has(key) ? child : rewrite(child, placeUnder(key, place));
  }
  if (place.names) return out;
  if (needsFormatCopy(out, place)) out[COMBINATOR_FORMAT] = out.format;
  if (out.nullable === true && out.type === undefined) {
    if (out['x-kubernetes-int-or-string'] === true) out.type = ['integer', 'string'];
    else delete out.nullable;
  }
  // `exclusiveMinimum: true` with `minimum: 0` is draft-07's `exclusiveMinimum: 0`.
  if (typeof out.exclusiveMinimum === 'boolean') {
    const { exclusiveMinimum, minimum, ...rest } = out;
    return exclusiveMinimum && typeof minimum === 'number'
      ? { ...rewriteMaximum(rest), exclusiveMinimum: minimum }
      : { ...rewriteMaximum(rest), ...(minimum === undefined ? {} : { minimum }) };
  }
  return rewriteMaximum(out);
}

function rewriteMaximum(out: Record<string, unknown>): Record<string, unknown> {
  if (typeof out.exclusiveMaximum !== 'boolean') return out;
  const { exclusiveMaximum, maximum, ...rest } = out;
  return exclusiveMaximum && typeof maximum === 'number'
    ? { ...rest, exclusiveMaximum: maximum }
    : { ...rest, ...(maximum === undefined ? {} : { maximum }) };
}

/** Keywords whose value is data: a `nullable` key in them is no keyword. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example']);
