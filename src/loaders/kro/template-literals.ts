/**
 * The literal part of an RGD's resource template, against the schema of the template's kind, as
 * kro's parser reads a template when it builds the RGD (`pkg/graph/parser/parser.go`
 * `parseResource`): each key must be a field of its object's schema ("schema not found for
 * field"), and each literal must be of its field's type ("expected integer type for path
 * spec.replicas, got string"): a string where a string (or anything) goes, a number where a
 * number does, an integer where an integer does, a boolean where a boolean does, a mapping where
 * an object, a list where an array. `null` fits everywhere.
 *
 * What an expression writes is not a literal: a standalone `${...}` is typed by its expression
 * (`expression-checks.ts`), a string template by the string it makes. Where a schema says
 * nothing (`x-kubernetes-preserve-unknown-fields`, a node without a type, an object without
 * properties such as a custom resource's `metadata`), nothing is said either; nor of a key that
 * holds `${`.
 */

import { didYouMean } from '../did-you-mean.js';
import { isPlainObject } from '../manifest-document.js';
import { isSchemaNode, type SchemaNode } from '../schema-node.js';
import type { FindingCode } from '../finding.js';

/** A literal of a template that its kind's schema refuses, at its path below the template. */
export interface LiteralProblem {
  readonly path: readonly (string | number)[];
  readonly code: FindingCode;
  readonly message: string;
  /** Whether the problem is the key itself (an unknown field), not its value. */
  readonly key?: true;
}

/** Fields of a resource (the template, an embedded resource) a schema need not declare. */
const RESOURCE_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

/**
 * The literals of `template` that `schema` (its kind's) refuses, in the order of the template.
 * `kind` names the kind in the messages (`Deployment (apps/v1)`).
 */
export function templateLiteralProblems(
  template: Readonly<Record<string, unknown>>,
  schema: SchemaNode,
  kind: string,
): LiteralProblem[] {
  const problems: LiteralProblem[] = [];
  walk(template, schema, [], true, kind, problems);
  return problems;
}

/** The OpenAPI types a value may have where `schema` is: `any` when it says nothing. */
function expectedTypes(schema: SchemaNode): readonly string[] | 'any' {
  if (schema['x-kubernetes-preserve-unknown-fields'] === true) return 'any';
  if (schema['x-kubernetes-int-or-string'] === true) return ['string', 'integer'];
  const types = typesOf(schema.type);
  for (const keyword of ['oneOf', 'anyOf'] as const) {
    const subs = schema[keyword];
    if (types.length > 0 || !Array.isArray(subs)) continue;
    for (const sub of subs) {
      if (!isSchemaNode(sub)) continue;
      if (sub.required !== undefined || sub.not !== undefined) types.push('object');
      types.push(...typesOf(sub.type));
    }
  }
  return types.length === 0 ? 'any' : types;
}

function typesOf(type: unknown): string[] {
  if (typeof type === 'string' && type !== '') return [type];
  return Array.isArray(type) ? type.filter((t): t is string => typeof t === 'string') : [];
}

/** The OpenAPI type of a literal, as kro names it in its message. */
function typeOfLiteral(value: unknown): string {
  if (typeof value === 'boolean') return 'boolean';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  if (typeof value === 'string') return 'string';
  if (Array.isArray(value)) return 'array';
  return 'object';
}

function fits(value: unknown, types: readonly string[]): boolean {
  const actual = typeOfLiteral(value);
  return types.some(
    (expected) => expected === actual || (expected === 'number' && actual === 'integer'),
  );
}

/** A path as kro writes it (`joinPathAndFieldName`): `spec.ports[0]`, `annotations["a.b/c"]`. */
export function dotted(path: readonly (string | number)[]): string {
  return path
    .map((part, i) =>
      typeof part === 'number'
        ? `[${part}]`
        : part === '' || part.includes('.')
          ? `[${JSON.stringify(part)}]`
          : i === 0
            ? part
            : `.${part}`,
    )
    .join('');
}

function walk(
  value: unknown,
  schema: SchemaNode,
  path: (string | number)[],
  resource: boolean,
  kind: string,
  problems: LiteralProblem[],
): void {
  if (value === null || value === undefined) return;
  const types = expectedTypes(schema);
  if (types === 'any') return;
  if (typeof value === 'string') {
    // An expression's value is typed by the expression; a string template is a string.
    if (value.includes('${')) return;
    if (!types.includes('string')) problems.push(mismatch(path, types, value, kind));
    return;
  }
  if (Array.isArray(value)) {
    if (!types.includes('array')) {
      problems.push(mismatch(path, types, value, kind));
      return;
    }
    if (!isSchemaNode(schema.items)) return;
    const items = schema.items;
    value.forEach((item, i) => walk(item, items, [...path, i], false, kind, problems));
    return;
  }
  if (!isPlainObject(value)) {
    if (!fits(value, types)) problems.push(mismatch(path, types, value, kind));
    return;
  }
  const additional = schema.additionalProperties;
  if (!types.includes('object') && additional !== true && !isSchemaNode(additional)) {
    problems.push(mismatch(path, types, value, kind));
    return;
  }
  const properties = isSchemaNode(schema.properties)
    ? (schema.properties as Record<string, unknown>)
    : {};
  const embedded = resource || schema['x-kubernetes-embedded-resource'] === true;
  if (Object.keys(properties).length === 0 && additional === undefined) {
    // An object the schema leaves open (a custom resource's metadata): nothing is said of it.
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('${')) continue;
    const declared = Object.prototype.hasOwnProperty.call(properties, key)
      ? properties[key]
      : additional;
    if (isSchemaNode(declared)) {
      walk(item, declared, [...path, key], false, kind, problems);
      continue;
    }
    if (declared === true || (embedded && RESOURCE_FIELDS.has(key))) continue;
    const guess = didYouMean(key, Object.keys(properties));
    const at = dotted([...path, key]);
    problems.push({
      path: [...path, key],
      code: 'rgd-unknown-field',
      key: true,
      message: `unknown field ${JSON.stringify(key)}${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}: ${kind} has no field ${at}, and kro refuses the RGD: schema not found for field ${key}`,
    });
  }
}

function mismatch(
  path: readonly (string | number)[],
  types: readonly string[],
  value: unknown,
  kind: string,
): LiteralProblem {
  const at = dotted(path);
  const expected = types.join(' or ');
  return {
    path,
    code: 'rgd-type-mismatch',
    message: `${at} of ${kind} is of type ${expected}, but the template writes ${isPlainObject(value) ? 'a mapping' : Array.isArray(value) ? 'a list' : `the ${typeOfLiteral(value)} ${JSON.stringify(value)}`}: kro refuses the RGD: expected ${expected} type for path ${at}, got ${typeOfLiteral(value)}`,
  };
}
