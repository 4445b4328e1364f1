/**
 * The CEL types a rule's `self` has, made from its structural schema as the API server makes its
 * declared types (k8s.io/apiserver `pkg/cel/common/schemas.go` `SchemaDeclType`): an object with
 * `properties` is an object type with exactly those fields (`x-kubernetes-preserve-unknown-fields`
 * does not add any), `additionalProperties` a `map(string, V)`, `items` a `list(E)`,
 * `x-kubernetes-int-or-string` `dyn`, and a node without a type is not exposed at all (a field
 * of that schema is not a field of the object type). Each type carries the sizes the static cost
 * estimate reads (`maxElements`: the most elements, bytes or characters a value can have;
 * `minSize`: the fewest bytes it serialises to).
 */

import { isSchemaNode, type SchemaNode } from '../schema-node.js';
import { escapeFieldName, isReservedWord } from './property-escaping.js';

/** CEL's primitive types, named as cel-go formats them in its messages. */
export type PrimitiveKind =
  'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'null' | 'duration' | 'timestamp';

/** What the sizes of a declared type are, as `DeclType.MaxElements` and `MinSerializedSize`. */
interface Sized {
  readonly maxElements?: number;
  readonly minSize?: number;
}

/**
 * A CEL type as far as cosi can tell: `dyn` wherever it cannot (then nothing about it is ever
 * reported).
 */
export type CelType = Sized &
  (
    | { readonly kind: 'dyn' }
    | { readonly kind: PrimitiveKind }
    | { readonly kind: 'type' }
    | { readonly kind: 'list'; readonly elem: CelType }
    | { readonly kind: 'map'; readonly key: CelType; readonly value: CelType }
    | {
        readonly kind: 'object';
        readonly fields: ReadonlyMap<string, CelType>;
        /** A named object type's name, as cel-go formats it (`kro.run.Condition`). */
        readonly name?: string;
      }
    | { readonly kind: 'optional'; readonly value: CelType }
  );

export const DYN: CelType = { kind: 'dyn' };

/**
 * What kro's `runtime.newCondition` and `runtime.condition` return (custom status conditions,
 * `pkg/cel/library/runtime.go`): its object type `kro.run.Condition`, of four string fields, so
 * that `runtime.condition(schema, 'Ready').sttus` is an undefined field and `.status` a string.
 */
export const CONDITION_TYPE: CelType = {
  kind: 'object',
  name: 'kro.run.Condition',
  fields: new Map(['type', 'status', 'reason', 'message'].map((key) => [key, primitive('string')])),
};

/** A primitive type without sizes. */
export function primitive(kind: PrimitiveKind): CelType {
  return { kind };
}

/** The API server's largest request, from which unbounded sizes are estimated. */
export const MAX_REQUEST_SIZE_BYTES = 3 * 1024 * 1024;

const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;
/** `metadata.name`'s longest (a DNS-1123 subdomain). */
const NAME_MAX_LENGTH = 253;

/** A schema's integer keyword (`maxItems`, ...), negative ones as zero; undefined when absent. */
function limit(node: SchemaNode, keyword: string): number | undefined {
  const value = node[keyword];
  return typeof value === 'number' && Number.isFinite(value) ? Math.max(0, value) : undefined;
}

/**
 * The declared type of a schema node, or undefined when the API server does not expose it (no
 * `type` and not int-or-string, an array whose items are not exposed, ...). `resourceRoot`: the
 * node is a CRD's root or an `x-kubernetes-embedded-resource`, whose `apiVersion`, `kind` and
 * `metadata.name` / `metadata.generateName` rules may always read.
 */
export function schemaCelType(node: unknown, resourceRoot = false): CelType | undefined {
  return declType(node, resourceRoot, new Set());
}

/** Declared types by schema node (a pure function of the node), as a resource root or not. */
const declared = [new WeakMap<object, CelType | null>(), new WeakMap<object, CelType | null>()];

function declType(node: unknown, resourceRoot: boolean, seen: Set<object>): CelType | undefined {
  if (!isSchemaNode(node)) return undefined;
  if (seen.has(node)) return DYN;
  const memo = declared[resourceRoot ? 1 : 0] as WeakMap<object, CelType | null>;
  const known = memo.get(node);
  if (known !== undefined) return known ?? undefined;
  const type = makeDeclType(node, resourceRoot, seen);
  memo.set(node, type ?? null);
  return type;
}

function makeDeclType(
  node: SchemaNode,
  resourceRoot: boolean,
  seen: Set<object>,
): CelType | undefined {
  if (node['x-kubernetes-int-or-string'] === true) {
    const maxLength = limit(node, 'maxLength');
    return {
      kind: 'dyn',
      minSize: 1,
      maxElements: maxLength !== undefined ? maxLength * 4 : MAX_REQUEST_SIZE_BYTES - 2,
    };
  }
  seen.add(node);
  try {
    const schema = resourceRoot ? withTypeAndObjectMeta(node) : node;
    switch (schema.type) {
      case 'array': {
        if (!isSchemaNode(schema.items)) return undefined;
        const elem = declType(
          schema.items,
          schema.items['x-kubernetes-embedded-resource'] === true,
          seen,
        );
        if (elem === undefined) return undefined;
        const maxItems =
          limit(schema, 'maxItems') ??
          Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / ((elem.minSize ?? 1) + 1));
        return { kind: 'list', elem, maxElements: maxItems, minSize: 2 };
      }
      case 'object': {
        const additional = schema.additionalProperties;
        if (isSchemaNode(additional)) {
          const value = declType(
            additional,
            additional['x-kubernetes-embedded-resource'] === true,
            seen,
          );
          if (value === undefined) return undefined;
          const maxProperties =
            limit(schema, 'maxProperties') ??
            Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / ((value.minSize ?? 1) + 6));
          return {
            kind: 'map',
            // The API server's key type is its plain StringType, of no size.
            key: { kind: 'string', minSize: MIN_STRING_SIZE, maxElements: 0 },
            value,
            maxElements: maxProperties,
            minSize: 2,
          };
        }
        const fields = new Map<string, CelType>();
        const required = new Set(
          Array.isArray(schema.required) ? (schema.required as unknown[]).filter(isString) : [],
        );
        let minSize = 2;
        if (isSchemaNode(schema.properties)) {
          for (const [name, property] of Object.entries(schema.properties)) {
            if (!isSchemaNode(property)) continue;
            const type = declType(
              property,
              property['x-kubernetes-embedded-resource'] === true,
              seen,
            );
            if (type === undefined) continue;
            const escaped = escapeFieldName(name);
            if (escaped !== undefined) fields.set(escaped, type);
            if (required.has(name) && property.default === undefined) {
              minSize += name.length + (type.minSize ?? 1) + 4;
            }
          }
        }
        return { kind: 'object', fields, minSize, maxElements: 0 };
      }
      case 'string':
        return stringType(schema);
      case 'boolean':
        return { kind: 'bool', minSize: MIN_BOOL_SIZE, maxElements: 0 };
      case 'number':
        return { kind: 'double', minSize: MIN_NUMBER_SIZE, maxElements: 0 };
      case 'integer':
        return { kind: 'int', minSize: MIN_NUMBER_SIZE, maxElements: 0 };
      default:
        // The API server does not expose a node without a type (preserved unknown fields); a
        // type it would never see (no type nor preserved fields, a list of types: not a
        // structural schema, as a cosi definition's may be) is `dyn`, so nothing is refused.
        return schema.type === undefined && schema['x-kubernetes-preserve-unknown-fields'] === true
          ? undefined
          : DYN;
    }
  } finally {
    seen.delete(node);
  }
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** A string node's type: `bytes`, `duration` or `timestamp` by its format, else `string`. */
function stringType(node: SchemaNode): CelType {
  const maxLength = limit(node, 'maxLength');
  const unbounded = MAX_REQUEST_SIZE_BYTES - 2;
  switch (node.format) {
    case 'byte':
      return { kind: 'bytes', minSize: MIN_STRING_SIZE, maxElements: maxLength ?? unbounded };
    case 'duration':
      return {
        kind: 'duration',
        minSize: MIN_DURATION_SIZE_JSON,
        maxElements: MAX_DURATION_SIZE_JSON,
      };
    case 'date':
      return { kind: 'timestamp', minSize: JSON_DATE_SIZE, maxElements: JSON_DATE_SIZE };
    case 'date-time':
      return {
        kind: 'timestamp',
        minSize: MIN_DATETIME_SIZE_JSON,
        maxElements: MAX_DATETIME_SIZE_JSON,
      };
    default:
      break;
  }
  let maxElements = unbounded;
  if (maxLength !== undefined) maxElements = maxLength * 4;
  else if (Array.isArray(node.enum) && node.enum.length > 0) {
    maxElements = 0;
    for (const value of node.enum as unknown[]) {
      if (typeof value === 'string') maxElements = Math.max(maxElements, utf8Length(value));
    }
  }
  return { kind: 'string', minSize: MIN_STRING_SIZE, maxElements };
}

function utf8Length(value: string): number {
  return Buffer.byteLength(value, 'utf8');
}

/**
 * A resource root as the API server sees it (apiextensions `model.WithTypeAndObjectMeta`): as it
 * is when it declares string `apiVersion` and `kind` and a `metadata` with string `name` and
 * `generateName`; else with those, `metadata` having only `name` and `generateName` (at most 253
 * and 252 characters).
 */
function withTypeAndObjectMeta(node: SchemaNode): SchemaNode {
  const properties = isSchemaNode(node.properties) ? node.properties : {};
  const property = (schema: unknown, key: string): SchemaNode | undefined => {
    if (!isSchemaNode(schema) || !isSchemaNode(schema.properties)) return undefined;
    const value = (schema.properties as Record<string, unknown>)[key];
    return isSchemaNode(value) ? value : undefined;
  };
  const metadata = property(node, 'metadata');
  if (
    property(node, 'kind')?.type === 'string' &&
    property(node, 'apiVersion')?.type === 'string' &&
    metadata?.type === 'object' &&
    property(metadata, 'name')?.type === 'string' &&
    property(metadata, 'generateName')?.type === 'string'
  ) {
    return node;
  }
  const capped = (existing: SchemaNode | undefined, max: number): SchemaNode => {
    const maxLength = existing === undefined ? undefined : limit(existing, 'maxLength');
    return {
      type: 'string',
      maxLength: maxLength !== undefined && maxLength < max ? maxLength : max,
    };
  };
  return {
    ...node,
    properties: {
      ...properties,
      kind: { type: 'string' },
      apiVersion: { type: 'string' },
      metadata: {
        type: 'object',
        properties: {
          name: capped(property(metadata, 'name'), NAME_MAX_LENGTH),
          generateName: capped(property(metadata, 'generateName'), NAME_MAX_LENGTH - 1),
        },
      },
    },
  };
}

/**
 * The type of field `name` (as a rule writes it: `__namespace__`, `x__dash__y`, or a reserved
 * word as it is, which Kubernetes 1.32 and later accept) of an object type; undefined when the
 * object has no such field.
 */
export function fieldType(
  object: Extract<CelType, { kind: 'object' }>,
  name: string,
): CelType | undefined {
  return (
    object.fields.get(name) ?? (isReservedWord(name) ? object.fields.get(`__${name}__`) : undefined)
  );
}

/** A type as cel-go writes it in its messages (`int`, `list(string)`, `optional_type(int)`). */
export function formatCelType(type: CelType): string {
  switch (type.kind) {
    case 'list':
      return `list(${formatCelType(type.elem)})`;
    case 'map':
      return `map(${formatCelType(type.key)}, ${formatCelType(type.value)})`;
    case 'optional':
      return `optional_type(${formatCelType(type.value)})`;
    case 'object':
      return type.name ?? 'object';
    default:
      return type.kind;
  }
}

/** Whether a type is a primitive (a scalar, string or bytes, or null): known and not a container. */
export function isPrimitive(type: CelType): type is Sized & { readonly kind: PrimitiveKind } {
  switch (type.kind) {
    case 'bool':
    case 'int':
    case 'uint':
    case 'double':
    case 'string':
    case 'bytes':
    case 'null':
    case 'duration':
    case 'timestamp':
      return true;
    default:
      return false;
  }
}
