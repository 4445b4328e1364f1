/**
 * The API server's rules for a CRD schema, beyond JSON Schema's: it must be *structural* (every
 * node says its `type`, unless it is `x-kubernetes-int-or-string` or keeps unknown fields), the
 * root is an object, and the keywords that make a schema non-structural or costly (`$ref`,
 * `patternProperties`, `uniqueItems: true`, ...) are refused.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-compiler.js';

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
]);

/** Every rule the schema breaks, at its node (paths inside the schema). */
export function findStructuralProblems(schema: JsonSchema): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  if (schema.type !== 'object') {
    problems.push(problem([], 'type', 'the root of a CRD schema must be type: object'));
  }
  walk(schema, [], true, problems);
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
): void {
  if (
    typed &&
    path.length > 0 &&
    schema.type === undefined &&
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
  if (schema.properties !== undefined && isPlainObject(schema.additionalProperties)) {
    problems.push(
      problem(
        [...path, 'additionalProperties'],
        'additionalProperties',
        'properties and additionalProperties cannot both be given in a CRD schema',
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
