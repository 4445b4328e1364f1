/**
 * The API server refuses a CRD whose `default` its own node's schema refuses (apiextensions'
 * `ValidateDefaults`: the default, with the defaults below it applied, must validate and must
 * lose nothing to pruning): `properties[size].default: Invalid value: "big": must be of type
 * integer`. Taken as written, such a default would be filled into every document that leaves
 * the field out, and each would be blamed at a field its author never wrote; here the CRD is
 * refused at its default. (A default's CEL rules are checked in `definition-schema.ts`.)
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import type { CompilesSchemas } from '../compiled-schema.js';
import { jsonPointer, parseJsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { applyDefaults } from './defaulting.js';
import { findUnknownFields } from './unknown-fields.js';

/** The problems of each `default` in a CRD schema, at paths inside the schema. */
export function findInvalidDefaults(
  schema: JsonSchema,
  compiler: CompilesSchemas,
): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const walk = (node: unknown, path: readonly (string | number)[]): void => {
    if (!isPlainObject(node)) return;
    // `null` is the API server's to judge against `nullable`; it never reaches a document.
    if (node.default !== undefined && node.default !== null) {
      const at = jsonPointer([...path, 'default']);
      const value = applyDefaults(structuredClone(node.default), node);
      for (const problem of compiler.compile(node).validate?.(value) ?? []) {
        problems.push({
          ...problem,
          path: `${at}${problem.path}`,
          message: `the default ${problem.message}`,
        });
      }
      for (const problem of findUnknownFields(value, node)) {
        problems.push({
          ...problem,
          path: `${at}${problem.path}`,
          message: `the default holds a field its schema does not declare, which the API server would prune: ${JSON.stringify(parseJsonPointer(problem.path).at(-1))}`,
        });
      }
    }
    if (isPlainObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        walk(child, [...path, 'properties', key]);
      }
    }
    walk(node.items, [...path, 'items']);
    walk(node.additionalProperties, [...path, 'additionalProperties']);
  };
  walk(schema, []);
  return problems;
}
