/**
 * Resources embedded in a custom resource (`x-kubernetes-embedded-resource: true`: a Crossplane
 * Composition's `base`, a ManifestWork's manifests, provider-kubernetes' `manifest`), checked as
 * the API server checks them (apiextensions' `objectmeta.Coerce` and `objectmeta.Validate`):
 *
 * - `apiVersion` and `kind` are required strings; the version parses as a group version, the
 *   kind, lower-cased, is a DNS-1035 label (`kind: Config Map` is refused);
 * - `metadata` decodes as `ObjectMeta` (`object-meta-types.ts`: no unknown field, each of its
 *   Go type) and passes `ValidateObjectMeta` with path-segment names (`object-meta.ts`).
 *
 * The walk follows the schema as the API server's does: `properties`, else
 * `additionalProperties`, and `items`. The document's root is checked as a resource elsewhere.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue, requiredValue } from './go-field-error.js';
import { dns1035LabelProblems } from './label-syntax.js';
import { embeddedObjectMetaProblems } from './object-meta.js';
import { objectMetaTypeProblems } from './object-meta-types.js';

/**
 * The problems of each resource embedded in `value`, at their paths; `self`: `value` is itself
 * an embedded resource (a default of an embedded node), else its root is left to other checks.
 */
export function embeddedResourceProblems(
  value: unknown,
  schema: JsonSchema,
  self = false,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  if (embedsResources(schema)) walk(value, schema, [], problems, !self);
  return problems;
}

const embedding = new WeakMap<JsonSchema, boolean>();

/** Whether a schema has an embedded resource anywhere (most have none: nothing to walk). */
function embedsResources(schema: JsonSchema): boolean {
  let found = embedding.get(schema);
  if (found === undefined) {
    const seen = new Set<unknown>();
    const search = (node: unknown): boolean => {
      if (!isPlainObject(node) || seen.has(node)) return false;
      seen.add(node);
      if (node['x-kubernetes-embedded-resource'] === true) return true;
      const properties = isPlainObject(node.properties) ? Object.values(node.properties) : [];
      return [...properties, node.additionalProperties, node.items].some(search);
    };
    found = search(schema);
    embedding.set(schema, found);
  }
  return found;
}

function walk(
  value: unknown,
  schema: JsonSchema,
  path: (string | number)[],
  problems: SchemaProblem[],
  root: boolean,
): void {
  if (Array.isArray(value)) {
    const items = schema.items;
    if (isPlainObject(items))
      value.forEach((item, i) => walk(item, items, [...path, i], problems, false));
    return;
  }
  if (!isPlainObject(value)) return;
  if (!root && schema['x-kubernetes-embedded-resource'] === true) {
    checkEmbedded(value, schema, path, problems);
  }
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  const additional = schema.additionalProperties;
  for (const [key, item] of Object.entries(value)) {
    const child = Object.prototype.hasOwnProperty.call(properties, key)
      ? properties[key]
      : additional;
    if (isPlainObject(child)) walk(item, child, [...path, key], problems, false);
  }
}

function checkEmbedded(
  value: Record<string, unknown>,
  schema: JsonSchema,
  path: (string | number)[],
  problems: SchemaProblem[],
): void {
  const add = (at: (string | number)[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer([...path, ...at]), part: 'value', keyword, message });
  };
  const declared = isPlainObject(schema.properties) ? schema.properties : {};
  /** Whether the schema types the field itself (its own check then says what is wrong). */
  const typed = (key: string): boolean => {
    const property = declared[key];
    return isPlainObject(property) && property.type !== undefined;
  };
  for (const key of ['apiVersion', 'kind'] as const) {
    if (!Object.prototype.hasOwnProperty.call(value, key)) {
      add(
        [key],
        'required',
        requiredValue(`an embedded resource (x-kubernetes-embedded-resource) names its ${key}`),
      );
      continue;
    }
    const field = value[key];
    if (typeof field !== 'string') {
      if (!typed(key)) add([key], 'wrong-type', invalidValue(field, 'must be a string'));
      continue;
    }
    if (field === '') {
      add([key], 'embedded-resource', invalidValue(field, 'must not be empty'));
    } else if (key === 'apiVersion' && field !== '/' && field.split('/').length > 2) {
      // `schema.ParseGroupVersion`: a version, or a group and a version.
      add(
        [key],
        'embedded-resource',
        invalidValue(field, `unexpected GroupVersion string: ${field}`),
      );
    } else if (key === 'kind') {
      const messages = dns1035LabelProblems(field.toLowerCase());
      if (messages.length > 0) {
        add(
          [key],
          'embedded-resource',
          invalidValue(
            field,
            `may have mixed case, but should otherwise match: ${messages.join(',')}`,
          ),
        );
      }
    }
  }
  if (!Object.prototype.hasOwnProperty.call(value, 'metadata')) return;
  const metadataSchema = declared.metadata;
  const typedFields = new Set<string>();
  if (isPlainObject(metadataSchema) && isPlainObject(metadataSchema.properties)) {
    for (const [key, property] of Object.entries(metadataSchema.properties)) {
      if (isPlainObject(property) && property.type !== undefined) typedFields.add(key);
    }
  }
  const at = [...path, 'metadata'];
  const typeProblems = objectMetaTypeProblems(value.metadata, {
    at,
    skip: typedFields,
    unknownKeys: true,
  });
  problems.push(...typeProblems);
  // As `Validate`, which decodes the metadata first: one that does not decode is that alone.
  if (typeProblems.every((problem) => problem.keyword === 'unknown-field')) {
    problems.push(...embeddedObjectMetaProblems(value.metadata, at));
  }
}
