/**
 * A CRD version's scale subresource (`subresources.scale`), as the API server checks it:
 *
 * - in the CRD (apiextensions-apiserver `ValidateCustomResourceDefinitionSubresources`): the
 *   replica paths are simple JSON paths (`.spec.replicas`), the spec's under `.spec.`, the
 *   status's under `.status.`, a label selector's under either;
 * - in each custom resource (`customResourceValidator.ValidateScaleSpec` / `ValidateScaleStatus`,
 *   run on every create and update): the value at each path, when there is one, is an integer
 *   from 0 to 2^31-1 (`unstructured.NestedInt64`, whose accessor errors are said as Go says them).
 *
 * Each problem at its field, in the API server's words.
 */

import type { KubernetesKind } from '../../engine/resource/definition.js';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import type { CrdProblem } from './crd-conversion.js';
import { invalidValue } from './go-field-error.js';

type Scale = NonNullable<KubernetesKind['scale']>;

const MAX_INT32 = 2 ** 31 - 1;

/** The scale subresource problems of each version of a CRD's `spec`. */
export function crdScaleProblems(spec: Record<string, unknown>): CrdProblem[] {
  const problems: CrdProblem[] = [];
  const versions = Array.isArray(spec.versions) ? (spec.versions as unknown[]) : [];
  versions.forEach((version, i) => {
    if (!isPlainObject(version) || !isPlainObject(version.subresources)) return;
    const scale = version.subresources.scale;
    if (!isPlainObject(scale)) return;
    const at = ['spec', 'versions', i, 'subresources', 'scale'];
    const add = (key: string, message: string): void => {
      const present = scale[key] !== undefined && scale[key] !== null;
      problems.push({ pointer: jsonPointer(present ? [...at, key] : at), message });
    };
    for (const [key, under] of [
      ['specReplicasPath', ['.spec.']],
      ['statusReplicasPath', ['.status.']],
      ['labelSelectorPath', ['.spec.', '.status.']],
    ] as const) {
      const path = scale[key];
      const optional = key === 'labelSelectorPath';
      if (path === undefined || path === null || path === '') {
        if (!optional) add(key, `Required value (${key})`);
        continue;
      }
      if (typeof path !== 'string') {
        add(key, invalidValue(path, 'must be a string'));
        continue;
      }
      const problem = scalePathProblem(path, under);
      if (problem !== undefined) add(key, problem);
    }
  });
  return problems;
}

/** What is wrong with a scale path that must lie under one of `under` (Go's words). */
function scalePathProblem(path: string, under: readonly string[]): string | undefined {
  // validateSimpleJSONPath: only the leading dot is checked (any rest splits into a segment).
  if (!path.startsWith('.')) {
    return invalidValue(path, 'must be a simple json path starting with .');
  }
  if (under.some((prefix) => path.startsWith(prefix))) return undefined;
  const where = under.length === 1 ? under[0] : 'either .spec or .status';
  return invalidValue(path, `should be a json path under ${where?.replace(/\.$/, '')}`);
}

/** A version's scale paths, when the CRD writes valid ones (else the CRD is refused). */
export function scaleOf(version: Record<string, unknown>): Scale | undefined {
  const subresources = version.subresources;
  const scale = isPlainObject(subresources) ? subresources.scale : undefined;
  if (!isPlainObject(scale)) return undefined;
  const { specReplicasPath, statusReplicasPath } = scale;
  if (typeof specReplicasPath !== 'string' || typeof statusReplicasPath !== 'string') {
    return undefined;
  }
  if (
    scalePathProblem(specReplicasPath, ['.spec.']) !== undefined ||
    scalePathProblem(statusReplicasPath, ['.status.']) !== undefined
  ) {
    return undefined;
  }
  return { specReplicasPath, statusReplicasPath };
}

/**
 * The problems of a custom resource's replica counts (`document` after defaulting, without a
 * status the status subresource drops): each value at a scale path, when there is one.
 */
export function scaleReplicaProblems(
  document: Record<string, unknown>,
  scale: Scale | undefined,
): SchemaProblem[] {
  if (scale === undefined) return [];
  return [scale.specReplicasPath, scale.statusReplicasPath].flatMap((path) =>
    replicaProblem(document, path),
  );
}

function replicaProblem(document: Record<string, unknown>, path: string): SchemaProblem[] {
  // `strings.Split(strings.TrimPrefix(path, "."), ".")`, then `NestedInt64`.
  const fields = path.replace(/^\./, '').split('.');
  const problem = (at: readonly string[], value: unknown, detail: string): SchemaProblem[] => [
    {
      path: jsonPointer([...at]),
      part: 'value',
      keyword: 'scale-replicas',
      message: invalidValue(value, detail),
    },
  ];
  let value: unknown = document;
  for (const [i, field] of fields.entries()) {
    if (value === null || value === undefined) return [];
    if (!isPlainObject(value)) {
      const accessor = `.${fields.slice(0, i + 1).join('.')}`;
      return problem(
        fields.slice(0, i),
        0,
        accessorError(accessor, value, 'map[string]interface{}'),
      );
    }
    if (!Object.hasOwn(value, field)) return [];
    value = value[field];
  }
  if (!isGoInt64(value)) {
    return problem(fields, 0, accessorError(`.${fields.join('.')}`, value, 'int64'));
  }
  if (value < 0) return problem(fields, value, 'should be a non-negative integer');
  if (value > MAX_INT32) {
    return problem(fields, value, `should be less than or equal to ${MAX_INT32}`);
  }
  return [];
}

/** Whether the API server decodes `value` as an `int64` (a JSON number without a fraction). */
function isGoInt64(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 2 ** 63;
}

/** `NestedFieldNoCopy` / `NestedInt64`'s error: `%v accessor error: %v is of the type %T, expected %s`. */
function accessorError(path: string, value: unknown, expected: string): string {
  return `${path} accessor error: ${goPlain(value)} is of the type ${goType(value)}, expected ${expected}`;
}

/** A decoded JSON value as Go's `%v` prints it. */
function goPlain(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return `[${value.map(goPlain).join(' ')}]`;
  if (isPlainObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${key}:${goPlain(value[key])}`);
    return `map[${entries.join(' ')}]`;
  }
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A decoded JSON value's Go type, as `%T` prints it. */
function goType(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (Array.isArray(value)) return '[]interface {}';
  if (isPlainObject(value)) return 'map[string]interface {}';
  if (typeof value === 'number') return isGoInt64(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}
