/**
 * What the API server checks of a PersistentVolumeClaim's spec in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidatePersistentVolumeClaimSpec`): an access mode at least,
 * `ReadWriteOncePod` alone, a well-formed label selector, a storage class named as a DNS
 * subdomain, a data source of the core group a claim, and a storage request that is a quantity greater than zero (a claim
 * without one asks for nothing the provisioner can size). Each problem at its field, in the API
 * server's words. An ephemeral volume's claim template is checked the same way; a claim's
 * `dataSource` beside a `dataSourceRef` must name the same object (checked for a claim only: Go
 * prints the field's path as the value), and so must its `volumeAttributesClassName` be a DNS
 * subdomain, from 1.34 (the VolumeAttributesClass feature on by default).
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';
import { releaseAtLeast, type KubernetesRelease } from './kubernetes-release.js';
import { dns1123SubdomainProblems, labelSelectorProblems } from './label-syntax.js';
import { writtenQuantity } from './resource-quantity.js';

/** The spec problems of a built-in document of `group`/`kind` (a PersistentVolumeClaim's only). */
export function persistentVolumeClaimProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  release: KubernetesRelease,
): SchemaProblem[] {
  if (group !== '' || kind !== 'PersistentVolumeClaim' || !isPlainObject(document.spec)) return [];
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({ path: jsonPointer(['spec', ...path]), part: 'value', keyword, message });
  };
  claimSpecProblems(document.spec, add);
  dataSourceRefProblems(document.spec, add);
  // VolumeAttributesClass is on by default from 1.34 (GA); before, the field is dropped unread.
  const attributesClass = document.spec.volumeAttributesClassName;
  if (
    releaseAtLeast(release, '1.34') &&
    typeof attributesClass === 'string' &&
    attributesClass !== ''
  ) {
    for (const message of dns1123SubdomainProblems(attributesClass)) {
      add(['volumeAttributesClassName'], 'class-name', invalidValue(attributesClass, message));
    }
  }
  return problems;
}

type Add = (path: (string | number)[], keyword: string, message: string) => void;

/** `ValidatePersistentVolumeClaimSpec` of `spec`, each problem added at its path below it. */
export function claimSpecProblems(spec: Record<string, unknown>, add: Add): void {
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
  labelSelectorProblems(spec.selector, (path, keyword, message) =>
    add(['selector', ...path], keyword, message),
  );
  const className = spec.storageClassName;
  if (typeof className === 'string' && className !== '') {
    for (const message of dns1123SubdomainProblems(className)) {
      add(['storageClassName'], 'class-name', invalidValue(className, message));
    }
  }
  // `validateDataSource`: a source of the core group is a claim (a snapshot names its group).
  const source = spec.dataSource;
  if (isPlainObject(source) && (source.apiGroup ?? '') === '' && typeof source.kind === 'string') {
    if (source.kind !== 'PersistentVolumeClaim') {
      add(
        ['dataSource'],
        'data-source',
        invalidValue(
          source.kind,
          "must be 'PersistentVolumeClaim' when referencing the default apiGroup",
        ),
      );
    }
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
    return;
  }
  if (typeof storage !== 'string' && typeof storage !== 'number') return;
  const text = String(storage);
  // One that does not parse is the schema walk's (`structural-validator.ts`).
  const units = writtenQuantity(storage)?.units;
  if (units === undefined) return;
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
}

/**
 * A claim's `dataSource` beside its `dataSourceRef`: the same group (an unset one is not `""`),
 * kind and name (`isDataSourceEqualDataSourceRef`).
 */
function dataSourceRefProblems(spec: Record<string, unknown>, add: Add): void {
  const source = spec.dataSource;
  const ref = spec.dataSourceRef;
  if (!isPlainObject(source) || !isPlainObject(ref)) return;
  // A ref to another namespace is an alpha feature's (the field is dropped when it is off).
  if (typeof ref.namespace === 'string' && ref.namespace !== '') return;
  const group = (value: unknown): unknown => (value === null ? undefined : value);
  if (
    group(source.apiGroup) !== group(ref.apiGroup) ||
    source.kind !== ref.kind ||
    source.name !== ref.name
  ) {
    add([], 'data-source', 'Invalid value: spec.dataSource: must match dataSourceRef');
  }
}

/** The metadata fields a claim template may set: the rest is `Forbidden` in an ephemeral volume. */
const TEMPLATE_METADATA_FIELDS = new Set(['labels', 'annotations']);

/**
 * An ephemeral volume's claim template (`validateEphemeralVolumeSource`,
 * `ValidatePersistentVolumeClaimTemplate`): required; its metadata sets labels and annotations
 * alone (a field at Go's zero value, `creationTimestamp: null` as generators write it, counts as
 * unset) and its spec is a claim's.
 */
export function ephemeralVolumeProblems(source: Record<string, unknown>, add: Add): void {
  const template = source.volumeClaimTemplate;
  if (template === undefined || template === null) {
    add(['volumeClaimTemplate'], 'required', requiredValue());
    return;
  }
  if (!isPlainObject(template)) return;
  const metadata = template.metadata;
  if (isPlainObject(metadata)) {
    for (const [field, value] of Object.entries(metadata)) {
      if (TEMPLATE_METADATA_FIELDS.has(field) || isGoZero(value)) continue;
      add(
        ['volumeClaimTemplate', 'metadata', field],
        'forbidden',
        forbiddenValue('cannot be set for an ephemeral volume'),
      );
    }
  }
  const spec = isPlainObject(template.spec) ? template.spec : {};
  claimSpecProblems(spec, (path, keyword, message) =>
    add(['volumeClaimTemplate', 'spec', ...path], keyword, message),
  );
}

/** Whether a decoded metadata value is Go's zero value: null, an empty string, 0. */
function isGoZero(value: unknown): boolean {
  return value === null || value === '' || value === 0;
}
