/**
 * The API server's rules for how a CRD schema node combines the `x-kubernetes-*` extensions that
 * change what a value is: `x-kubernetes-preserve-unknown-fields` is true or left out (false is
 * refused, not ignored); an int-or-string neither keeps unknown fields nor embeds a resource;
 * an embedded resource (`x-kubernetes-embedded-resource`) is an object with declared properties
 * (or unknown fields kept), and never a map. Follows apiextensions-apiserver's
 * `validateExtensions`, the embedded-resource part of `validateStructuralInvariants`, and the
 * `x-kubernetes-preserve-unknown-fields` check of `ValidateCustomResourceDefinitionOpenAPISchema`,
 * in their words.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';

const PRESERVE = 'x-kubernetes-preserve-unknown-fields';
const EMBEDDED = 'x-kubernetes-embedded-resource';
const INT_OR_STRING = 'x-kubernetes-int-or-string';

/**
 * `x-kubernetes-preserve-unknown-fields: false`, which the API server refuses wherever it is
 * written (under a junctor too): it is no way to turn pruning back on below a node that keeps
 * unknown fields.
 */
export function preserveFalseProblem(
  node: JsonSchema,
  path: readonly string[],
): SchemaProblem | undefined {
  if (node[PRESERVE] !== false) return undefined;
  return problem([...path, PRESERVE], PRESERVE, invalidValue(false, 'must be true or undefined'));
}

/**
 * The problems of a typed node's extensions (`path` is the node's, inside the schema). An
 * embedded resource's `type` is judged here; the caller's "every node needs a type" rule steps
 * aside for it, as the API server's does.
 */
export function extensionProblems(node: JsonSchema, path: readonly string[]): SchemaProblem[] {
  const problems: SchemaProblem[] = [];
  const embedded = node[EMBEDDED] === true;
  const preserve = node[PRESERVE] === true;
  if (node[INT_OR_STRING] === true) {
    const detail = 'must be false if x-kubernetes-int-or-string is true';
    if (preserve) problems.push(problem([...path, PRESERVE], PRESERVE, invalidValue(true, detail)));
    if (embedded) problems.push(problem([...path, EMBEDDED], EMBEDDED, invalidValue(true, detail)));
  }
  if (!embedded) return problems;
  const detail = 'must be object if x-kubernetes-embedded-resource is true';
  if (node.type === undefined) {
    problems.push(problem(path, 'type', requiredValue(detail)));
  } else if (node.type !== 'object') {
    problems.push(problem([...path, 'type'], 'type', invalidValue(node.type, detail)));
  }
  if (node.additionalProperties !== undefined) {
    problems.push(
      problem(
        [...path, 'additionalProperties'],
        'additionalProperties',
        forbiddenValue('must not be used if x-kubernetes-embedded-resource is set'),
      ),
    );
  }
  const declared = isPlainObject(node.properties) && Object.keys(node.properties).length > 0;
  if (!preserve && !declared) {
    problems.push(
      problem(
        node.properties === undefined ? path : [...path, 'properties'],
        'properties',
        requiredValue(
          'must not be empty if x-kubernetes-embedded-resource is true without x-kubernetes-preserve-unknown-fields',
        ),
      ),
    );
  }
  return problems;
}

function problem(path: readonly string[], keyword: string, message: string): SchemaProblem {
  return { path: jsonPointer(path), part: 'value', keyword, message };
}
