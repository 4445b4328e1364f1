/**
 * A CRD version's `selectableFields` (the fields `kubectl get --field-selector` may name), as the
 * API server checks them (apiextensions-apiserver `ValidateCustomResourceSelectableFields`): each
 * `jsonPath` is a `.a.b` path (no `['key']`) to a field the version's schema declares, outside
 * `metadata`, of type string, boolean or integer, named once; a version has at most 8. Each
 * problem at its field, in the API server's words.
 */

import type { JsonSchema } from '../../engine/resource/definition.js';
import { resolveFieldPath } from '../cel/field-path.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { CrdProblem } from './crd-conversion.js';
import { duplicateValue, invalidValue, tooManyValue } from './go-field-error.js';
import { decodedSchema } from './schema-decoding.js';

/** `MaxSelectableFields`. */
const MAX_SELECTABLE_FIELDS = 8;

const SELECTABLE_TYPES = new Set(['string', 'boolean', 'integer']);

/** The selectable field problems of each version of a CRD's `spec`. */
export function selectableFieldProblems(spec: Record<string, unknown>): CrdProblem[] {
  const problems: CrdProblem[] = [];
  const versions = Array.isArray(spec.versions) ? (spec.versions as unknown[]) : [];
  versions.forEach((version, i) => {
    if (!isPlainObject(version)) return;
    const fields = version.selectableFields;
    if (!Array.isArray(fields) || fields.length === 0) return;
    const at = ['spec', 'versions', i, 'selectableFields'];
    const schema = isPlainObject(version.schema) ? version.schema.openAPIV3Schema : undefined;
    if (!isPlainObject(schema)) {
      problems.push({
        pointer: jsonPointer(at),
        message: invalidValue(
          '',
          'may only be set when `version.schema.openAPIV3Schema` is not included',
        ),
      });
      return;
    }
    problems.push(...versionProblems(fields, decodedSchema(schema), at));
  });
  return problems;
}

function versionProblems(
  fields: readonly unknown[],
  schema: JsonSchema,
  at: readonly (string | number)[],
): CrdProblem[] {
  const problems: CrdProblem[] = [];
  const unique = new Set<string>();
  fields.forEach((field, j) => {
    const path = isPlainObject(field) ? field.jsonPath : undefined;
    if (typeof path !== 'string' || path === '') {
      const present = isPlainObject(field) && typeof path === 'string';
      problems.push({
        pointer: jsonPointer(present ? [...at, j, 'jsonPath'] : [...at, j]),
        message: 'Required value (jsonPath)',
      });
      return;
    }
    const add = (message: string): void => {
      problems.push({ pointer: jsonPointer([...at, j, 'jsonPath']), message });
    };
    const resolved = resolveFieldPath(path, schema, { arrayNotation: false });
    if ('error' in resolved) {
      add(invalidValue(path, `is an invalid path: ${resolved.error}`));
      return;
    }
    if (resolved.keys[0] === 'metadata')
      add(invalidValue(path, 'must not point to fields in metadata'));
    const type = resolved.node.type;
    if (typeof type !== 'string' || !SELECTABLE_TYPES.has(type)) {
      add(
        invalidValue(
          path,
          'must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
        ),
      );
    }
    // The path as Go's field.Path prints it: `.spec.a` and `.spec['a']` are one field.
    const key = resolved.keys.join('\u0000');
    if (unique.has(key)) add(duplicateValue(path));
    else unique.add(key);
  });
  if (unique.size > MAX_SELECTABLE_FIELDS) {
    problems.push({
      pointer: jsonPointer(at),
      message: tooManyValue(unique.size, MAX_SELECTABLE_FIELDS),
    });
  }
  return problems;
}
