/**
 * The API server refuses a CRD whose `default` its own node's schema refuses (apiextensions'
 * `ValidateDefaults`: the default, as written, must validate against the node and lose nothing to
 * pruning): `properties[size].default: Invalid value: "big": must be of type integer`. Taken as
 * written, such a default would be filled into every document that leaves the field out, and
 * each would be blamed at a field its author never wrote; here the CRD is refused at its default.
 * As `ValidateDefaults` walks: `properties` and `items`, not `additionalProperties`; nothing under
 * an object's `metadata` (the API server judges those defaults as object metadata); a list's
 * repeated items are a stored object's problem, not the CRD's. (A default's CEL rules are checked
 * in `definition-schema.ts`.)
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import type { CompilesSchemas } from '../compiled-schema.js';
import { jsonPointer, parseJsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { embeddedResourceProblems } from './embedded-resources.js';
import { findUnknownFields } from './unknown-fields.js';

/**
 * The problems of each `default` in a CRD schema, at paths inside the schema, as the API server
 * of Kubernetes 1.`kubernetesMinor` (default the newest) finds them: a format a release added
 * (`k8s-short-name`, an `int32`'s range) is checked from that release on.
 */
export function findInvalidDefaults(
  schema: JsonSchema,
  compiler: CompilesSchemas,
  kubernetesMinor?: number,
): SchemaProblem[] {
  const wording = kubernetesMinor === undefined ? {} : { kubernetesMinor };
  const problems: SchemaProblem[] = [];
  const walk = (node: unknown, path: readonly (string | number)[], root: boolean): void => {
    if (!isPlainObject(node)) return;
    // `null` is the API server's to judge against `nullable`; it never reaches a document.
    if (node.default !== undefined && node.default !== null) {
      const at = jsonPointer([...path, 'default']);
      for (const problem of compiler.compile(node).validate?.(node.default, wording) ?? []) {
        if (problem.keyword === 'x-kubernetes-list-type') continue;
        problems.push({
          ...problem,
          path: `${at}${problem.path}`,
          message: `the default ${problem.message}`,
        });
      }
      const embedded = node['x-kubernetes-embedded-resource'] === true;
      for (const problem of embeddedResourceProblems(node.default, node, embedded)) {
        problems.push({
          ...problem,
          path: `${at}${problem.path}`,
          message: `in the default: ${problem.message}`,
        });
      }
      for (const problem of findUnknownFields(node.default, node, embedded)) {
        problems.push({
          ...problem,
          path: `${at}${problem.path}`,
          message: `the default holds a field its schema does not declare, which the API server would prune: ${JSON.stringify(parseJsonPointer(problem.path).at(-1))}`,
        });
      }
    }
    const objectRoot = root || node['x-kubernetes-embedded-resource'] === true;
    if (isPlainObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) {
        if (objectRoot && key === 'metadata') continue;
        walk(child, [...path, 'properties', key], false);
      }
    }
    walk(node.items, [...path, 'items'], false);
  };
  walk(schema, [], true);
  return problems;
}
