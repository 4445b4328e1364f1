/**
 * A built-in kind's schema, as cosi checks Kubernetes-shaped documents: the structural schema the
 * API server would publish in OpenAPI v3, made from the release's OpenAPI v2 definitions.
 *
 * - `$ref`s are replaced by the definition they name, each definition converted once and shared
 *   by every place that uses it (the schema is a graph, not a tree: a Pod's `Container` is one
 *   object under `containers`, `initContainers` and `ephemeralContainers`).
 * - What v2 cannot say is said as v3 says it: `IntOrString` is `x-kubernetes-int-or-string`, a
 *   `Quantity` is a string or a number; `RawExtension`, `JSON`, `FieldsV1` and `Patch` hold
 *   any value (`x-kubernetes-preserve-unknown-fields`). A `Quantity` also carries
 *   {@link QUANTITY_MARK}, so that the walk parses it wherever it is (the API server decodes every
 *   one with `resource.ParseQuantity`, before it validates anything).
 * - Only keywords that check or document values are kept: the `x-kubernetes-patch-*`,
 *   `-group-version-kind` and `-unions` annotations are for clients, not validation.
 * - The one recursive definition (`JSONSchemaProps`, inside a CRD) stops at its first repeat,
 *   where any value goes: CRDs themselves are read by `crd-definitions.ts`, not by this schema.
 * - Each node made from a definition keeps its name beside it ({@link definitionOf}), as the
 *   `$ref` said it: `kubectl explain` prints a field of a named type by that name
 *   (`<PodTemplateSpec>`, `<[]Container>`).
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import type { ClosedSet } from './builtin-closed-sets.js';

/** The mark of a `resource.Quantity` node: its value must parse as a quantity. */
export const QUANTITY_MARK = 'x-cosi-quantity';

/** Definitions whose v2 form says less than the API server accepts. */
const SPECIAL: Readonly<Record<string, JsonSchema>> = {
  'io.k8s.apimachinery.pkg.util.intstr.IntOrString': { 'x-kubernetes-int-or-string': true },
  'io.k8s.apimachinery.pkg.api.resource.Quantity': {
    type: ['string', 'number'],
    [QUANTITY_MARK]: true,
  },
  'io.k8s.apimachinery.pkg.runtime.RawExtension': {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1': {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  'io.k8s.apimachinery.pkg.apis.meta.v1.Patch': {
    type: 'object',
    'x-kubernetes-preserve-unknown-fields': true,
  },
  'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.JSON': {
    'x-kubernetes-preserve-unknown-fields': true,
  },
};

/** The keywords a converted node keeps, beside `properties`, `items` and `additionalProperties`. */
const KEPT = new Set([
  'type',
  'format',
  'description',
  'required',
  'enum',
  'default',
  'nullable',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'minItems',
  'maxItems',
  'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-map-type',
  'x-kubernetes-int-or-string',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
]);

const REF_PREFIX = '#/definitions/';

/** The definition each converted node was made from (also a field's copy with its own description). */
const definitions = new WeakMap<JsonSchema, BuiltinDefinition>();

/** An OpenAPI definition a built-in schema node was made from. */
export interface BuiltinDefinition {
  /** Its name: `io.k8s.api.core.v1.Container`. */
  readonly name: string;
  /** Its own converted node, with the type's description (a field's copy has the field's). */
  readonly schema: JsonSchema;
}

/**
 * The OpenAPI definition a built-in schema node was made from, or `undefined` for a node no
 * `$ref` named (a field of a primitive type, a CRD's schema).
 */
export function definitionOf(schema: JsonSchema): BuiltinDefinition | undefined {
  return definitions.get(schema);
}

/** A converted node, remembered as made from the definition `name` (whose own node is `own`). */
function named(schema: JsonSchema, name: string, own: JsonSchema = schema): JsonSchema {
  definitions.set(schema, { name, schema: own });
  return schema;
}

/** Converts the definitions of one release; each definition once, whatever asks for it. */
export class BuiltinSchemas {
  readonly #converted = new Map<string, JsonSchema>();
  readonly #converting = new Set<string>();

  /**
   * `closedSets`: sets to add to fields that have none, by `definition/field` (a release whose
   * OpenAPI has no enums: see `builtin-closed-sets.ts`). `requiredFields`: the fields each
   * definition may require, by definition (a release whose `required` lists name fields its
   * validation does not require: see `builtin-required-fields.ts`).
   */
  constructor(
    readonly definitions: Readonly<Record<string, JsonSchema>>,
    readonly closedSets: ReadonlyMap<string, ClosedSet> = new Map(),
    readonly requiredFields: ReadonlyMap<string, ReadonlySet<string>> = new Map(),
  ) {}

  /** The structural schema of a definition (of a kind: the whole document). */
  schemaOf(name: string): JsonSchema {
    const done = this.#converted.get(name);
    if (done !== undefined) return done;
    if (this.#converting.has(name)) {
      return named({ 'x-kubernetes-preserve-unknown-fields': true }, name);
    }
    const definition = this.definitions[name];
    if (definition === undefined) throw new Error(`no OpenAPI definition ${name}`);
    this.#converting.add(name);
    const special = SPECIAL[name];
    const converted = Object.freeze(
      special === undefined
        ? this.#node(definition, name)
        : withDescription(special, definition.description),
    );
    this.#converting.delete(name);
    this.#converted.set(name, converted);
    return named(converted, name);
  }

  #node(node: JsonSchema, definition?: string): JsonSchema {
    const ref = node.$ref;
    if (typeof ref === 'string' && ref.startsWith(REF_PREFIX)) {
      const name = ref.slice(REF_PREFIX.length);
      const target = this.schemaOf(name);
      // A field's own description says more than its type's.
      return typeof node.description === 'string'
        ? named(withDescription(target, node.description), name, target)
        : target;
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (KEPT.has(key)) out[key] = value;
    }
    const requirable = definition === undefined ? undefined : this.requiredFields.get(definition);
    if (requirable !== undefined && Array.isArray(out.required)) {
      out.required = (out.required as string[]).filter((field) => requirable.has(field));
    }
    if (isSchema(node.items)) out.items = this.#node(node.items);
    if (isSchema(node.additionalProperties)) {
      out.additionalProperties = this.#node(node.additionalProperties);
    }
    if (isSchema(node.properties)) {
      const properties: Record<string, JsonSchema> = {};
      for (const [key, value] of Object.entries(node.properties)) {
        if (!isSchema(value)) continue;
        const field = definition === undefined ? undefined : `${definition}/${key}`;
        const closed = field === undefined ? undefined : this.closedSets.get(field);
        const narrowed = field === undefined ? undefined : GO_NARROWED_SETS.get(field);
        const withSet = closed === undefined ? value : withClosedSet(value, closed);
        properties[key] = this.#node(
          narrowed === undefined ? withSet : withNarrowedSet(withSet, narrowed),
        );
      }
      out.properties = properties;
    }
    return Object.freeze(out);
  }
}

/**
 * Sets the published OpenAPI states wider than the API server's Go validation takes them: the
 * `+enum` type's zero value is in the published set, and Go refuses it (`ipFamilies: [""]`:
 * `supported values: "IPv4", "IPv6"`, from `validateServiceIPFamily`).
 */
const GO_NARROWED_SETS: ReadonlyMap<string, ClosedSet> = new Map([
  ['io.k8s.api.core.v1.ServiceSpec/ipFamilies', { itemsEnum: ['IPv4', 'IPv6'] }],
]);

/** A field's schema with its set narrowed, where it has one. */
function withNarrowedSet(schema: JsonSchema, narrowed: ClosedSet): JsonSchema {
  if (
    narrowed.itemsEnum !== undefined &&
    isSchema(schema.items) &&
    schema.items.enum !== undefined
  ) {
    return { ...schema, items: { ...schema.items, enum: narrowed.itemsEnum } };
  }
  if (narrowed.enum !== undefined && schema.enum !== undefined) {
    return { ...schema, enum: narrowed.enum };
  }
  return schema;
}

/** A field's schema with its closed set, unless it has one. */
function withClosedSet(schema: JsonSchema, closed: ClosedSet): JsonSchema {
  if (closed.enum !== undefined && schema.enum === undefined)
    return { ...schema, enum: closed.enum };
  if (closed.itemsEnum !== undefined && isSchema(schema.items) && schema.items.enum === undefined) {
    return { ...schema, items: { ...schema.items, enum: closed.itemsEnum } };
  }
  return schema;
}

function withDescription(schema: JsonSchema, description: unknown): JsonSchema {
  return typeof description === 'string' ? Object.freeze({ ...schema, description }) : schema;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
