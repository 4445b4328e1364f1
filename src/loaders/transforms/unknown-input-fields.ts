/**
 * The fields a transform's expressions read of its input that the input's type cannot have: a
 * misspelt `${self.spec.hots}` would only ever wait (no output, no finding), as kro refuses an
 * RGD expression that reads a field its schema lacks (`rgd-unknown-field`).
 */

import type { JsonSchema, ResourceDefinition } from '../../engine/resource/definition.js';
import { didYouMean } from '../did-you-mean.js';
import { isPlainObject } from '../manifest-document.js';

/** A field read that the input's schema cannot have. */
export interface UnknownInputField {
  /** The path read, `spec.hots`. */
  readonly path: string;
  /** What the schema has there, and the nearest of them. */
  readonly known: readonly string[];
  readonly nearest: string | undefined;
}

/**
 * The first `self.spec...` path of an expression that reads a field the input's type cannot
 * have: below an object schema that lists its properties and keeps no others (`additionalProperties:
 * false`, or a Kubernetes kind's, whose unknown fields the API server prunes). A method call
 * (`self.spec.name.startsWith(...)`) is not a field; `?.` optional fields are not followed.
 */
export function unknownInputField(
  input: ResourceDefinition,
  source: string,
): UnknownInputField | undefined {
  const closed = input.kubernetes !== undefined;
  for (const match of source.matchAll(/\bself((?:\s*\.\s*[A-Za-z_][A-Za-z0-9_]*)+)(\s*\()?/g)) {
    const keys = (match[1] ?? '')
      .split('.')
      .map((key) => key.trim())
      .slice(1);
    if (match[2] !== undefined) keys.pop();
    if (keys[0] !== 'spec') continue;
    const unknown = unknownBelow(input.schema, keys.slice(1), closed);
    if (unknown === undefined) continue;
    const { depth, known } = unknown;
    const key = keys[depth + 1] ?? '';
    return {
      path: keys.slice(0, depth + 2).join('.'),
      known,
      nearest: didYouMean(key, known),
    };
  }
  return undefined;
}

/** Where along `keys` the schema has no such property, and what it has there. */
function unknownBelow(
  schema: JsonSchema | undefined,
  keys: readonly string[],
  closedByDefault: boolean,
): { depth: number; known: string[] } | undefined {
  let node: unknown = schema;
  for (const [depth, key] of keys.entries()) {
    if (!isPlainObject(node) || !isPlainObject(node.properties)) return undefined;
    if (Object.prototype.hasOwnProperty.call(node.properties, key)) {
      node = node.properties[key];
      continue;
    }
    const open =
      node['x-kubernetes-preserve-unknown-fields'] === true ||
      (node.additionalProperties !== undefined && node.additionalProperties !== false) ||
      (!closedByDefault && node.additionalProperties === undefined);
    return open ? undefined : { depth, known: Object.keys(node.properties).sort() };
  }
  return undefined;
}
