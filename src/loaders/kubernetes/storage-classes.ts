/**
 * What the API server checks of a StorageClass in Go (k8s.io/kubernetes
 * `pkg/apis/storage/validation` `ValidateStorageClass`), beyond its OpenAPI schema: a
 * provisioner that is a qualified name in lower case (`kubernetes.io/aws-ebs`,
 * `ebs.csi.aws.com`); parameters with non-empty keys, 512 at most and 256 KiB in all; a reclaim
 * policy of `Delete` or `Retain` (a PersistentVolume's `Recycle` is not one); allowed topologies
 * whose expressions have values, none twice, label-name keys, no key twice in a term and no term
 * twice. A VolumeAttributesClass (`ValidateVolumeAttributesClass`) names its driver as a
 * provisioner and has one parameter at least. Each problem at its field, in the API server's
 * words.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { jsonPointer } from '../json-pointer.js';
import { duplicateValue, invalidValue, requiredValue, unsupportedValue } from './go-field-error.js';
import { labelNameProblems, qualifiedNameProblems, type Add } from './label-syntax.js';

const MAX_PARAMETERS = 512;
const MAX_PARAMETER_BYTES = 256 * 1024;
const RECLAIM_POLICIES = ['Delete', 'Retain'];

/** The problems of a built-in document of `group`/`kind` (a StorageClass's only). */
export function storageClassProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const isClass = kind === 'StorageClass' || kind === 'VolumeAttributesClass';
  if (group !== 'storage.k8s.io' || !isClass) return [];
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({ path: jsonPointer(path), part: 'value', keyword, message });
  };
  if (kind === 'VolumeAttributesClass') {
    // ValidateVolumeAttributesClass: its driver named as a provisioner, one parameter at least.
    provisionerProblems(document.driverName, 'driverName', add);
    parameterProblems(document.parameters, add);
    const parameters = document.parameters;
    if (!isPlainObject(parameters) || Object.keys(parameters).length === 0) {
      add(['parameters'], 'required', requiredValue('must contain at least one key/value pair'));
    }
    return problems;
  }
  provisionerProblems(document.provisioner, 'provisioner', add);
  parameterProblems(document.parameters, add);
  const policy = document.reclaimPolicy;
  if (typeof policy === 'string' && policy !== '' && !RECLAIM_POLICIES.includes(policy)) {
    add(['reclaimPolicy'], 'reclaim-policy', unsupportedValue(policy, RECLAIM_POLICIES));
  }
  if (Array.isArray(document.allowedTopologies)) {
    topologyProblems(document.allowedTopologies, (path, keyword, message) =>
      add(['allowedTopologies', ...path], keyword, message),
    );
  }
  return problems;
}

/** `validateProvisioner`: not empty, a qualified name once lower-cased. */
function provisionerProblems(provisioner: unknown, field: string, add: Add): void {
  if (provisioner === '') add([field], 'required', requiredValue());
  else if (typeof provisioner === 'string') {
    const lower = provisioner.toLowerCase();
    for (const message of qualifiedNameProblems(lower)) {
      add([field], 'provisioner', invalidValue(lower, message));
    }
  }
}

/** `validateParameters`: 512 at most, keys not empty, 256 KiB of keys and values in all. */
function parameterProblems(parameters: unknown, add: Add): void {
  if (!isPlainObject(parameters)) return;
  const entries = Object.entries(parameters);
  if (entries.length > MAX_PARAMETERS) {
    // Go's `field.TooLong` of the count, in its words.
    add(['parameters'], 'parameters', `Too long: may not be more than ${MAX_PARAMETERS} bytes`);
    return;
  }
  let bytes = 0;
  for (const [key, value] of entries) {
    if (key === '') add(['parameters'], 'parameters', invalidValue('', 'field can not be empty.'));
    bytes += Buffer.byteLength(key) + (typeof value === 'string' ? Buffer.byteLength(value) : 0);
  }
  if (bytes > MAX_PARAMETER_BYTES) {
    add(
      ['parameters'],
      'parameters',
      `Too long: may not be more than ${MAX_PARAMETER_BYTES} bytes`,
    );
  }
}

/**
 * `validateAllowedTopologies` and `ValidateTopologySelectorTerm`. Go compares each term's
 * expressions (keys to sets of values) with the terms before it, and also with as many empty
 * entries as there are terms (its list is made that long before it is appended to), so a term
 * without expressions is always a duplicate.
 */
function topologyProblems(terms: readonly unknown[], add: Add): void {
  const seen = new Set<string>();
  terms.forEach((term: unknown, i) => {
    const expressions = isPlainObject(term) ? term.matchLabelExpressions : undefined;
    const byKey = new Map<string, Set<string>>();
    if (Array.isArray(expressions)) {
      expressions.forEach((expression: unknown, j) => {
        if (!isPlainObject(expression)) return;
        const at = ['matchLabelExpressions', j];
        const values = Array.isArray(expression.values) ? expression.values : [];
        if (values.length === 0) add([i, ...at, 'values'], 'required', requiredValue());
        const set = new Set<string>();
        values.forEach((value: unknown, k) => {
          if (typeof value !== 'string') return;
          if (set.has(value)) add([i, ...at, 'values', k], 'duplicate', duplicateValue(value));
          set.add(value);
        });
        const key = typeof expression.key === 'string' ? expression.key : '';
        labelNameProblems(key, [i, ...at, 'key'], add);
        if (byKey.has(key)) add([i, ...at, 'key'], 'duplicate', duplicateValue(key));
        byKey.set(key, set);
      });
    }
    const canonical = JSON.stringify(
      [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, v]) => [k, [...v].sort()]),
    );
    if (byKey.size === 0 || seen.has(canonical)) {
      add([i, 'matchLabelExpressions'], 'duplicate', duplicateValue(''));
    }
    seen.add(canonical);
  });
}
