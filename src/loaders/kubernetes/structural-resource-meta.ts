/**
 * What a CRD schema may say of an object's `apiVersion`, `kind` and `metadata`, at the root and
 * in an embedded resource (`x-kubernetes-embedded-resource`): the API server owns these fields
 * (it decodes `metadata` as `ObjectMeta` and prunes it by its own rules), so a schema may only
 * type them, and at the root only restrict `metadata.name` and `metadata.generateName`. Follows
 * apiextensions-apiserver's `validateStructuralInvariants` (its `checkMetadata` part) and
 * `validateStructuralMetadataInvariants`, in their words. Without this, a hand-written CRD that
 * documents its metadata (a `description`, `labels`, `required: [name]`) was taken, where the
 * cluster refuses it whole, and its resources were checked against the refused schema.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue, invalidValue } from './go-field-error.js';

/** Where a schema node is, as the API server's structural checks tell the levels apart. */
export type ResourceLevel = 'root' | 'embedded' | 'field';

/**
 * The keywords the API server's `Structural` schema keeps of a node, besides `type`,
 * `properties` and `default` (which the metadata rule treats on their own): any of these with a
 * value other than its zero makes a root `metadata` say more than its name.
 */
const STRUCTURAL_KEYWORDS = [
  'items',
  'additionalProperties',
  'title',
  'description',
  'nullable',
  'externalDocs',
  'example',
  'format',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'allOf',
  'oneOf',
  'anyOf',
  'not',
  'x-kubernetes-preserve-unknown-fields',
  'x-kubernetes-embedded-resource',
  'x-kubernetes-int-or-string',
  'x-kubernetes-list-map-keys',
  'x-kubernetes-list-type',
  'x-kubernetes-map-type',
  'x-kubernetes-validations',
];

/** The metadata fields a root schema may restrict (`ObjectMeta`'s name and generateName). */
const NAME_FIELDS = new Set(['name', 'generateName']);

/**
 * The problems of a typed node's `apiVersion`, `kind` and `metadata` properties, at paths inside
 * the schema (`path` is the node's). Only the root and embedded resources are checked: a field
 * called `metadata` deeper down is the CRD's own.
 */
export function resourceMetaProblems(
  node: JsonSchema,
  path: readonly string[],
  level: ResourceLevel,
): SchemaProblem[] {
  if (level === 'field' || !isPlainObject(node.properties)) return [];
  const problems: SchemaProblem[] = [];
  const at = [...path, 'properties'];
  for (const name of ['kind', 'apiVersion']) {
    const field = node.properties[name];
    if (isPlainObject(field) && field.type !== 'string') {
      problems.push(typeProblem([...at, name], field, 'must be string'));
    }
  }
  const metadata = node.properties.metadata;
  if (!isPlainObject(metadata)) return problems;
  if (metadata.type !== 'object') {
    problems.push(typeProblem([...at, 'metadata'], metadata, 'must be object'));
  }
  if (level === 'root' && saysMoreThanItsName(metadata)) {
    problems.push({
      path: jsonPointer([...at, 'metadata']),
      part: 'value',
      keyword: 'metadata',
      message: forbiddenValue(
        'must not specify anything other than name and generateName, but metadata is implicitly specified',
      ),
    });
  }
  return problems;
}

/**
 * `Invalid value: "integer": must be string` at a node's `type` (at the node when it has none,
 * where Go prints the empty string).
 */
function typeProblem(path: string[], node: JsonSchema, detail: string): SchemaProblem {
  const type = typeof node.type === 'string' ? node.type : '';
  return {
    path: jsonPointer(node.type === undefined ? path : [...path, 'type']),
    part: 'value',
    keyword: 'type',
    message: invalidValue(type, detail),
  };
}

/**
 * Whether a root `metadata` schema holds anything but its type, its default (judged by the
 * defaulting rules) and properties for `name` / `generateName` (whose schemas are free): the
 * API server drops those and compares what is left with the empty schema. A keyword at its
 * zero value (`description: ""`, `nullable: false`, an empty list) is no difference; a number
 * is, even 0 (Go keeps those as pointers).
 */
function saysMoreThanItsName(metadata: JsonSchema): boolean {
  const properties = metadata.properties;
  if (isPlainObject(properties) && Object.keys(properties).some((key) => !NAME_FIELDS.has(key))) {
    return true;
  }
  return STRUCTURAL_KEYWORDS.some((keyword) => !isZeroValue(metadata[keyword]));
}

function isZeroValue(value: unknown): boolean {
  return (
    value === undefined ||
    value === null ||
    value === false ||
    value === '' ||
    (Array.isArray(value) && value.length === 0)
  );
}
