/**
 * A type's documentation, field by field, as `kubectl explain` reads it from a schema: the
 * description, type, required-ness, enum, default and CEL rules of the field at a path, and the
 * fields below it.
 */
import type { JsonSchema, ResourceDefinition } from '../../engine/resource/definition.js';
import { didYouMean } from '../../loaders/did-you-mean.js';
import { definitionOf } from '../../loaders/kubernetes/builtin-schema.js';

/** A CEL rule of a field (`x-kubernetes-validations`). */
export interface FieldRule {
  readonly rule: string;
  readonly message?: string;
  /** The field a failure is reported at, relative to this one (`.replicas`). */
  readonly fieldPath?: string;
}

/** A field as the list of a parent's fields shows it. */
export interface FieldSummary {
  readonly name: string;
  /** kubectl's type name: `string`, `[]Object`, `map[string]string`, `IntOrString`... */
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
  readonly enum?: readonly unknown[];
}

/** A field as `cosi explain TYPE.PATH` shows it. */
export interface SchemaField extends FieldSummary {
  /** The path from the document's root; empty for the document itself. */
  readonly path: readonly string[];
  /** Set when the schema gives a default (which may be `null`). */
  readonly default?: { readonly value: unknown };
  readonly rules: readonly FieldRule[];
  /** The fields below it (of its items, for an array; of its values, for a map). */
  readonly fields: readonly FieldSummary[];
  /** The schema node itself, `$ref` followed. */
  readonly schema: JsonSchema;
}

/** A field and every field below it, for `--recursive`. */
export interface FieldTree extends FieldSummary {
  readonly fields: readonly FieldTree[];
}

/** Where a path left the schema: the segment no field has, and the fields there are. */
export interface MissingField {
  /** The path up to the missing segment (the parent that has no such field). */
  readonly parent: readonly string[];
  readonly name: string;
  /** The parent's type name (`string`, `Object`...). */
  readonly parentType: string;
  /** The parent's fields, sorted. */
  readonly known: readonly string[];
  readonly suggestion?: string;
}

/** What a path names: a field, or where the path left the schema. */
export type FieldLookup =
  | { readonly found: SchemaField; readonly missing?: undefined }
  | { readonly found?: undefined; readonly missing: MissingField };

/** The deepest `--recursive` tree: a bound for schemas that nest through many `$ref`s. */
const MAX_TREE_DEPTH = 32;

/** What a cosi manifest's `metadata` holds (see `readManifestHeader`). */
const COSI_METADATA: JsonSchema = {
  type: 'object',
  description:
    'Which resource the document is: its type, id and namespace, labels and annotations.',
  required: ['type', 'id'],
  properties: {
    type: { type: 'string', description: 'The resource type, or any alias of it.' },
    id: { type: 'string', description: 'The resource id: unique within its type and namespace.' },
    namespace: {
      type: 'string',
      description: "The namespace; the type's default namespace when omitted.",
    },
    labels: {
      type: 'object',
      description: 'String labels, selected by label queries (cosi get -l).',
      additionalProperties: { type: 'string' },
    },
    annotations: {
      type: 'object',
      description: 'String annotations, for tools and people.',
      additionalProperties: { type: 'string' },
    },
  },
};

/** What the API server says of every object's own fields, for a CRD schema that does not. */
const KUBERNETES_ROOT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  apiVersion:
    'APIVersion defines the versioned schema of this representation of an object: group/version, or the version alone for the core group.',
  kind: 'Kind is a string value representing the REST resource this object represents, in CamelCase.',
  metadata: "Standard object's metadata: name, namespace, labels, annotations...",
};

/** The fields of ObjectMeta that a manifest writes (the API server sets the others). */
const KUBERNETES_METADATA: JsonSchema = {
  required: ['name'],
  properties: {
    name: { type: 'string', description: 'The name, unique within its kind and namespace.' },
    namespace: {
      type: 'string',
      description: 'The namespace of a namespaced kind; a cluster-scoped kind has none.',
    },
    labels: {
      type: 'object',
      description: 'String labels, selected by label selectors.',
      additionalProperties: { type: 'string' },
    },
    annotations: {
      type: 'object',
      description: 'String annotations, for tools and people.',
      additionalProperties: { type: 'string' },
    },
  },
};

/**
 * The fields the API server publishes in every kind's schema, a CRD's too, in place of the
 * CRD's own: `apiVersion` and `kind` (TypeMeta's) and `metadata` (a `$ref` to ObjectMeta).
 */
export interface ObjectFields {
  readonly apiVersion: JsonSchema;
  readonly kind: JsonSchema;
  readonly metadata: JsonSchema;
}

/**
 * The schema of a whole document of the type: a Kubernetes-shaped type's own (it describes the
 * document, as a CRD's `openAPIV3Schema` does), with `objectFields` as the API server publishes
 * it; for a cosi type, `metadata` and `spec` with the spec's schema.
 */
export function documentSchema(
  definition: ResourceDefinition,
  objectFields?: ObjectFields,
): JsonSchema {
  if (definition.kubernetes !== undefined) {
    const schema = definition.schema ?? { type: 'object' };
    const properties = isObject(schema.properties) ? schema.properties : {};
    if (objectFields !== undefined) {
      return { ...schema, properties: { ...properties, ...objectFields } };
    }
    const filled = Object.fromEntries(
      Object.entries(KUBERNETES_ROOT_DESCRIPTIONS).map(([name, description]) => {
        const declared = properties[name];
        let node = isObject(declared)
          ? declared
          : { type: name === 'metadata' ? 'object' : 'string' };
        // A CRD's metadata is the API server's ObjectMeta, which its schema leaves out.
        if (name === 'metadata' && !isObject(node.properties)) {
          node = { ...node, ...KUBERNETES_METADATA };
        }
        return [name, typeof node.description === 'string' ? node : { ...node, description }];
      }),
    );
    return { ...schema, properties: { ...properties, ...filled } };
  }
  return {
    type: 'object',
    description: `${/^[AEIOU]/i.test(definition.displayType) ? 'An' : 'A'} ${definition.displayType}: a resource of type ${definition.type}.`,
    required: ['metadata'],
    properties: {
      metadata: COSI_METADATA,
      spec: definition.schema ?? { description: 'The type has no schema: any value is accepted.' },
    },
  };
}

/**
 * The field at `path` (names of properties from the document's root; an array's items and a
 * map's values are passed through, as kubectl does), or where the path left the schema.
 */
export function lookupField(
  definition: ResourceDefinition,
  path: readonly string[],
  objectFields?: ObjectFields,
): FieldLookup {
  const root = documentSchema(definition, objectFields);
  let node = resolve(root, root);
  let required = true;
  for (let i = 0; i < path.length; i++) {
    const name = path[i] as string;
    const parent = fieldsOf(root, node);
    const child = parent?.properties[name];
    if (parent === undefined || child === undefined) {
      const known = Object.keys(parent?.properties ?? {}).sort();
      const suggestion = didYouMean(name, known);
      return {
        missing: {
          parent: path.slice(0, i),
          name,
          parentType: typeName(root, node),
          known,
          ...(suggestion === undefined ? {} : { suggestion }),
        },
      };
    }
    required = parent.required.has(name);
    node = resolve(root, child);
  }
  const name = path.at(-1) ?? definition.kubernetes?.kind ?? definition.displayType;
  return { found: describeField(root, node, name, required, path) };
}

/**
 * The field tree below a field, for `--recursive`: names, types and required-ness; `maxDepth`
 * levels of it (kubectl's `--max-depth`: 1 is the field's own fields; 0 or none, every level).
 */
export function fieldTree(
  definition: ResourceDefinition,
  field: SchemaField,
  maxDepth = 0,
  objectFields?: ObjectFields,
): FieldTree[] {
  const root = documentSchema(definition, objectFields);
  return treeOf(root, field.schema, [field.schema], maxDepth);
}

function treeOf(
  root: JsonSchema,
  node: JsonSchema,
  stack: readonly JsonSchema[],
  maxDepth: number,
): FieldTree[] {
  const fields = fieldsOf(root, node);
  if (fields === undefined) return [];
  // The stack holds the field itself, then one node per level below it.
  const last = maxDepth > 0 && stack.length >= maxDepth;
  return Object.keys(fields.properties)
    .sort()
    .map((name) => {
      const raw = fields.properties[name] as JsonSchema;
      const child = resolve(root, raw);
      const summary = summarize(root, child, name, fields.required.has(name));
      // A schema that contains itself (through `$ref`) is shown once.
      const below =
        last || stack.includes(raw) || stack.length > MAX_TREE_DEPTH
          ? []
          : treeOf(root, child, [...stack, raw], maxDepth);
      return { ...summary, fields: below };
    });
}

function describeField(
  root: JsonSchema,
  node: JsonSchema,
  name: string,
  required: boolean,
  path: readonly string[],
): SchemaField {
  const rules = Array.isArray(node['x-kubernetes-validations'])
    ? (node['x-kubernetes-validations'] as unknown[]).filter(isObject).map(toRule)
    : [];
  const fields = fieldsOf(root, node);
  return {
    ...summarize(root, node, name, required),
    description: descriptionsOf(root, node).join('\n'),
    path,
    ...('default' in node ? { default: { value: node.default } } : {}),
    rules,
    fields: Object.keys(fields?.properties ?? {})
      .sort()
      .map((child) =>
        summarize(
          root,
          resolve(root, fields?.properties[child] as JsonSchema),
          child,
          fields?.required.has(child) === true,
        ),
      ),
    schema: node,
  };
}

/**
 * What kubectl prints under a field's DESCRIPTION: its own description, then its type's (a
 * built-in kind's named type: `Template describes the pods...` then `PodTemplateSpec describes
 * the data a pod should have...`), then those of its items (an array) and its values (a map).
 */
function descriptionsOf(root: JsonSchema, node: JsonSchema, depth = 0): string[] {
  const type = definitionOf(node)?.schema;
  const texts = [node.description, type === node ? undefined : type?.description].filter(
    (text): text is string => typeof text === 'string' && text.trim() !== '',
  );
  // Items of items of items... stop somewhere, whatever a $ref makes of them.
  if (depth >= 8) return texts.map((text) => text.trim());
  const below = [node.items, node.additionalProperties].flatMap((child) =>
    isObject(child) ? descriptionsOf(root, resolve(root, child), depth + 1) : [],
  );
  return [...texts.map((text) => text.trim()), ...below];
}

function summarize(
  root: JsonSchema,
  node: JsonSchema,
  name: string,
  required: boolean,
): FieldSummary {
  return {
    name,
    type: typeName(root, node),
    required,
    // Whole, as kubectl lists it: a CRD's first line often stops mid-sentence.
    description: typeof node.description === 'string' ? node.description.trim() : '',
    ...(Array.isArray(node.enum) ? { enum: node.enum as unknown[] } : {}),
  };
}

/**
 * kubectl's name of a schema's type: `string`, `[]Object`, `map[string]integer`, `IntOrString`;
 * a built-in kind's field of a named type by that name, as kubectl prints what a `$ref` names
 * (`PodTemplateSpec`, `[]Container`, `map[string]Quantity`), unless that type is a string
 * (`Time`: `string`).
 */
export function typeName(root: JsonSchema, node: JsonSchema): string {
  if (node['x-kubernetes-int-or-string'] === true) return 'IntOrString';
  const types = (Array.isArray(node.type) ? node.type : [node.type]).filter(
    (t): t is string => typeof t === 'string' && t !== 'null',
  );
  const type = types.length > 1 ? undefined : types[0];
  const definition = definitionOf(node)?.name;
  if (definition !== undefined && (type === undefined || type === 'object')) {
    return definition.slice(definition.lastIndexOf('.') + 1);
  }
  if (type === 'array') {
    return `[]${isObject(node.items) ? typeName(root, resolve(root, node.items)) : 'any'}`;
  }
  if (
    type === 'object' ||
    (type === undefined && (isObject(node.properties) || isObject(node.additionalProperties)))
  ) {
    if (!isObject(node.properties) && isObject(node.additionalProperties)) {
      return `map[string]${typeName(root, resolve(root, node.additionalProperties))}`;
    }
    return 'Object';
  }
  if (type !== undefined) return type;
  if (types.length > 1) return types.join('|');
  return node['x-kubernetes-preserve-unknown-fields'] === true ? 'Object' : 'any';
}

/**
 * The properties a node's fields are, and which are required: its own, or those of its items
 * (an array) or values (a map); `undefined` for a node that has none.
 */
function fieldsOf(
  root: JsonSchema,
  node: JsonSchema,
): { properties: Record<string, JsonSchema>; required: Set<string> } | undefined {
  if (isObject(node.properties)) {
    return {
      properties: node.properties as Record<string, JsonSchema>,
      required: new Set(Array.isArray(node.required) ? (node.required as string[]) : []),
    };
  }
  if (isObject(node.items)) return fieldsOf(root, resolve(root, node.items));
  if (isObject(node.additionalProperties)) {
    return fieldsOf(root, resolve(root, node.additionalProperties));
  }
  return undefined;
}

/**
 * A node with a local `$ref` followed (a few hops at most) and the properties of its `allOf`
 * parts merged in: what its fields are.
 */
function resolve(root: JsonSchema, node: JsonSchema, hops = 0): JsonSchema {
  if (typeof node.$ref === 'string' && node.$ref.startsWith('#') && hops < 16) {
    const target = followPointer(root, node.$ref.slice(1));
    if (target !== undefined) return resolve(root, { ...target, ...withoutRef(node) }, hops + 1);
  }
  if (!Array.isArray(node.allOf)) return node;
  const parts = (node.allOf as unknown[])
    .filter(isObject)
    .map((part) => resolve(root, part, hops + 1));
  const properties = Object.assign(
    {},
    ...parts.map((p) => (isObject(p.properties) ? p.properties : {})),
    isObject(node.properties) ? node.properties : {},
  ) as Record<string, unknown>;
  const required = [
    ...parts.flatMap((p) => (Array.isArray(p.required) ? (p.required as string[]) : [])),
    ...(Array.isArray(node.required) ? (node.required as string[]) : []),
  ];
  const type = node.type ?? parts.find((p) => p.type !== undefined)?.type;
  return {
    ...node,
    ...(type === undefined ? {} : { type }),
    ...(Object.keys(properties).length > 0 ? { properties } : {}),
    ...(required.length > 0 ? { required } : {}),
  };
}

function followPointer(root: JsonSchema, pointer: string): JsonSchema | undefined {
  let node: unknown = root;
  for (const raw of pointer.split('/').slice(1)) {
    const segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, segment)) return undefined;
    node = node[segment];
  }
  return isObject(node) ? node : undefined;
}

function withoutRef(node: JsonSchema): JsonSchema {
  const { $ref: _ref, ...rest } = node;
  return rest;
}

function toRule(value: Readonly<Record<string, unknown>>): FieldRule {
  return {
    rule: typeof value.rule === 'string' ? value.rule : '',
    ...(typeof value.message === 'string' ? { message: value.message } : {}),
    ...(typeof value.fieldPath === 'string' ? { fieldPath: value.fieldPath } : {}),
  };
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
