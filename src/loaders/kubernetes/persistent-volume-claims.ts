/**
 * What the API server checks of a PersistentVolumeClaim's spec in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidatePersistentVolumeClaimSpec`): an access mode at least,
 * `ReadWriteOncePod` alone, and a storage request that is a quantity greater than zero (a claim
 * without one asks for nothing the provisioner can size). Each problem at its field, in the API
 * server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';
import { parseResourceQuantity, quantityError } from './resource-quantity.js';

/** The spec problems of a built-in document of `group`/`kind` (a PersistentVolumeClaim's only). */
export function persistentVolumeClaimProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== '' || kind !== 'PersistentVolumeClaim' || !isPlainObject(document.spec)) return [];
  const spec = document.spec;
  const problems: SchemaProblem[] = [];
  const add = (path: string[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer(['spec', ...path]), part: 'value', keyword, message });
  };
  const modes = Array.isArray(spec.accessModes) ? spec.accessModes : [];
  if (modes.length === 0) {
    add(['accessModes'], 'required', requiredValue('at least 1 access mode is required'));
  } else if (
    modes.includes('ReadWriteOncePod') &&
    modes.some((mode) => mode !== 'ReadWriteOncePod')
  ) {
    add(
      ['accessModes'],
      'access-modes',
      forbiddenValue('may not use ReadWriteOncePod with other access modes'),
    );
  }
  const resources = isPlainObject(spec.resources) ? spec.resources : undefined;
  const requests = isPlainObject(resources?.requests) ? resources.requests : undefined;
  const storage = requests?.storage;
  if (storage === undefined || storage === null) {
    // Go's `spec.resources[storage]`: at the requests, or what holds them.
    const at =
      requests !== undefined
        ? ['resources', 'requests']
        : resources !== undefined
          ? ['resources']
          : [];
    add(at, 'required', `${requiredValue()}: a storage request (resources.requests.storage)`);
    return problems;
  }
  if (typeof storage !== 'string' && typeof storage !== 'number') return problems;
  const text = String(storage);
  let units: bigint;
  try {
    units = parseResourceQuantity(text).units;
  } catch {
    add(['resources', 'requests', 'storage'], 'quantity', quantityError(text));
    return problems;
  }
  if (units <= 0n) {
    add(
      ['resources', 'requests', 'storage'],
      'quantity',
      invalidValue(
        text,
        units < 0n ? 'must be greater than or equal to 0' : 'must be greater than zero',
      ),
    );
  }
  return problems;
}
