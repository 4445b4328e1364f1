/**
 * The API server's rules for a CRD schema, beyond JSON Schema's: it must be *structural* (every
 * node says its `type`, unless it is `x-kubernetes-int-or-string` or keeps unknown fields), the
 * root is an object, and the keywords that make a schema non-structural or costly (`$ref`,
 * `patternProperties`, `uniqueItems: true`, ...) are refused. The rules for the extensions
 * (`structural-extensions.ts`) and for `apiVersion`, `kind` and `metadata`
 * (`structural-resource-meta.ts`) are checked at each typed node of the same walk.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-compiler.js';
import { extensionProblems, preserveFalseProblem } from './structural-extensions.js';
import { resourceMetaProblems, type ResourceLevel } from './structural-resource-meta.js';
import { completenessProblems } from './structural-completeness.js';

/** Keywords a CRD schema may not use. */
const FORBIDDEN = new Set([
  '$ref',
  '$schema',
  '$id',
  'id',
  'definitions',
  'dependencies',
  'patternProperties',
  'additionalItems',
]);

/** Keywords holding subschemas that only validate (no `type` needed there). */
const JUNCTORS = new Set(['allOf', 'anyOf', 'oneOf', 'not']);

/**
 * What a schema under a junctor may not say (`validateNestedValueValidation`): it only
 * validates, the structural part around it types and defaults. By keyword: the API server's words.
 */
const NOT_IN_JUNCTORS: ReadonlyMap<string, (value: unknown) => string | undefined> = new Map<
  string,
  (value: unknown) => string | undefined
>([
  ['type', (value) => (value === undefined || value === '' ? undefined : 'must be empty')],
  ['additionalProperties', (value) => (value === undefined ? undefined : 'must be undefined')],
  ['default', (value) => (value === undefined || value === null ? undefined : 'must be undefined')],
  ['title', (value) => (typeof value === 'string' && value !== '' ? 'must be empty' : undefined)],
  [
    'description',
    (value) => (typeof value === 'string' && value !== '' ? 'must be empty' : undefined),
  ],
  ['nullable', (value) => (value === true ? 'must be false' : undefined)],
  [
    'x-kubernetes-preserve-unknown-fields',
    (value) => (value === true ? 'must be false' : undefined),
  ],
  ['x-kubernetes-embedded-resource', (value) => (value === true ? 'must be false' : undefined)],
  ['x-kubernetes-int-or-string', (value) => (value === true ? 'must be false' : undefined)],
  [
    'x-kubernetes-list-map-keys',
    (value) => (Array.isArray(value) && value.length > 0 ? 'must be empty' : undefined),
  ],
  ['x-kubernetes-list-type', (value) => (value === undefined ? undefined : 'must be undefined')],
  ['x-kubernetes-map-type', (value) => (value === undefined ? undefined : 'must be undefined')],
]);

/** How {@link findStructuralProblems} reads a schema. */
export interface StructuralCheckOptions {
  /**
   * Whether the schema is a whole resource's (a CRD version's `openAPIV3Schema`), whose
   * `apiVersion`, `kind` and `metadata` the API server owns; false for a schema of one field (a
   * kro ResourceGraphDefinition's `spec`). True unless said.
   */
  readonly resourceRoot?: boolean;
}

/** Every rule the schema breaks, at its node (paths inside the schema). */
export function findStructuralProblems(
  schema: JsonSchema,
  options: StructuralCheckOptions = {},
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const resourceRoot = options.resourceRoot ?? true;
  if (schema.type !== 'object') {
    problems.push(problem([], 'type', 'the root of a CRD schema must be type: object'));
  }
  if (resourceRoot && schema.additionalProperties !== undefined) {
    problems.push(
      problem(
        ['additionalProperties'],
        'additionalProperties',
        'Forbidden: must not be used at the root',
      ),
    );
  }
  walk(schema, [], true, problems, false, resourceRoot ? 'root' : 'field');
  // A resource root's junctors name only declared properties (a kro spec's are nested in its CRD).
  if (resourceRoot) problems.push(...completenessProblems(schema));
  return problems;
}

/**
 * `anyOf: [{type: integer}, {type: string}]`, exactly: what generators write beside
 * `x-kubernetes-int-or-string` (a quantity, a port), which the API server lets stand there
 * (`isIntOrStringAnyOfPattern`), alone or as the first `allOf`'s `anyOf`.
 */
function isIntOrStringAnyOf(value: unknown): boolean {
  if (!Array.isArray(value) || value.length !== 2) return false;
  return ['integer', 'string'].every((type, i) => {
    const branch: unknown = value[i];
    return isPlainObject(branch) && Object.keys(branch).length === 1 && branch.type === type;
  });
}

function walk(
  schema: JsonSchema,
  path: string[],
  typed: boolean,
  problems: SchemaProblem[],
  skipAnyOf = false,
  level: ResourceLevel = 'field',
): void {
  const embedded = schema['x-kubernetes-embedded-resource'] === true;
  if (
    typed &&
    path.length > 0 &&
    schema.type === undefined &&
    !embedded &&
    schema['x-kubernetes-int-or-string'] !== true &&
    schema['x-kubernetes-preserve-unknown-fields'] !== true
  ) {
    problems.push(
      problem(
        path,
        'type',
        'not structural: every property needs a type (or x-kubernetes-int-or-string, or x-kubernetes-preserve-unknown-fields)',
      ),
    );
  }
  if (!typed) {
    for (const [key, rule] of NOT_IN_JUNCTORS) {
      const broken = rule(schema[key]);
      if (broken !== undefined) {
        problems.push(problem([...path, key], key, `Forbidden: ${broken} to be structural`));
      }
    }
  }
  if (typed && schema.type === 'array' && schema.items === undefined) {
    // An array's items must be typed like any field (`items: Required value`).
    problems.push(problem(path, 'items', 'items: Required value: must be specified'));
  }
  const preserveFalse = preserveFalseProblem(schema, path);
  if (preserveFalse !== undefined) problems.push(preserveFalse);
  if (typed) {
    problems.push(...extensionProblems(schema, path));
    problems.push(
      ...resourceMetaProblems(schema, path, level === 'root' || !embedded ? level : 'embedded'),
    );
  } else if (isPlainObject(schema.properties) && 'metadata' in schema.properties) {
    // A junctor reasoning about metadata could restrict it in ways the API server does not
    // want, wherever it is.
    problems.push(
      problem(
        [...path, 'properties', 'metadata'],
        'metadata',
        'Forbidden: must not be specified in a nested context',
      ),
    );
  }
  // additionalProperties: false beside properties is refused too (Go tests `!Allows ||
  // Schema != nil`); true, or properties: {}, is no contradiction.
  const hasProperties =
    isPlainObject(schema.properties) && Object.keys(schema.properties).length > 0;
  const additional = schema.additionalProperties;
  if (hasProperties && (additional === false || isPlainObject(additional))) {
    problems.push(
      problem(
        [...path, 'additionalProperties'],
        'additionalProperties',
        'Forbidden: additionalProperties and properties are mutual exclusive',
      ),
    );
  }
  for (const [key, child] of Object.entries(schema)) {
    const at = [...path, key];
    if (FORBIDDEN.has(key)) {
      problems.push({ ...problem(at, key, `${key} is not allowed in a CRD schema`), part: 'key' });
    } else if (key === 'uniqueItems' && child === true) {
      problems.push(
        problem(
          at,
          key,
          'uniqueItems cannot be true in a CRD schema: use x-kubernetes-list-type: set',
        ),
      );
    } else if (key === 'properties' && isPlainObject(child)) {
      for (const [name, sub] of Object.entries(child)) {
        if (isPlainObject(sub)) walk(sub, [...at, name], typed, problems);
      }
    } else if ((key === 'items' || key === 'additionalProperties') && isPlainObject(child)) {
      walk(child, at, typed, problems);
    } else if (JUNCTORS.has(key)) {
      const intOrString = schema['x-kubernetes-int-or-string'] === true;
      if (key === 'anyOf' && (skipAnyOf || (intOrString && isIntOrStringAnyOf(child)))) continue;
      const subs = Array.isArray(child) ? child : [child];
      subs.forEach((sub, i) => {
        if (!isPlainObject(sub)) return;
        // The first allOf's int-or-string anyOf is let stand too.
        const skip = intOrString && key === 'allOf' && i === 0 && isIntOrStringAnyOf(sub.anyOf);
        walk(sub, Array.isArray(child) ? [...at, String(i)] : at, false, problems, skip);
      });
    }
  }
}

function problem(path: string[], keyword: string, message: string): SchemaProblem {
  return { path: jsonPointer(path), part: 'value', keyword, message };
}
