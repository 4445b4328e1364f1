/**
 * What the API server checks of a PersistentVolume's spec in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidatePersistentVolumeSpec`), beyond its OpenAPI schema:
 *
 * - an access mode at least, `ReadWriteOncePod` alone;
 * - a capacity of `storage` alone, a quantity greater than zero;
 * - exactly one volume source (`must specify a volume type`; each one after the first in Go's
 *   order is `may not specify more than 1 volume type`), the first one's own fields: a host or
 *   local path without `..`, an NFS server and absolute path, a CSI driver name and volume handle
 *   and its secret references;
 * - a local volume's node affinity, a node affinity's `required` terms (checked as a pod's
 *   required node selector is, `pod-affinity.ts`);
 * - no `Recycle` of a host path `/`; a storage class name that is a DNS-1123 subdomain.
 *
 * Each problem at its field, in the API server's words.
 */

import { posix } from 'node:path';
import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { forbiddenValue, invalidValue, requiredValue, unsupportedValue } from './go-field-error.js';
import { dns1123LabelProblems, dns1123SubdomainProblems, type Add } from './label-syntax.js';
import { nodeSelectorProblems } from './pod-affinity.js';
import { writtenQuantity } from './resource-quantity.js';

/** A PersistentVolume's sources, in the order `ValidatePersistentVolumeSpec` counts them. */
const PERSISTENT_VOLUME_SOURCES = [
  'hostPath',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'glusterfs',
  'flocker',
  'nfs',
  'rbd',
  'quobyte',
  'cephfs',
  'iscsi',
  'cinder',
  'fc',
  'flexVolume',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'scaleIO',
  'local',
  'storageos',
  'csi',
] as const;

const CSI_SECRET_REFERENCES = [
  'controllerPublishSecretRef',
  'controllerExpandSecretRef',
  'nodePublishSecretRef',
  'nodeExpandSecretRef',
] as const;

/** The spec problems of a built-in document of `group`/`kind` (a PersistentVolume's only). */
export function persistentVolumeProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== '' || kind !== 'PersistentVolume' || !isPlainObject(document.spec)) return [];
  const spec = document.spec;
  const problems: SchemaProblem[] = [];
  const add: Add = (path, keyword, message) => {
    problems.push({ path: jsonPointer(['spec', ...path]), part: 'value', keyword, message });
  };
  accessModeProblems(spec.accessModes, add);
  capacityProblems(spec.capacity, add);
  let nodeAffinity = false;
  if (isPlainObject(spec.nodeAffinity)) {
    nodeAffinity = true;
    const required = spec.nodeAffinity.required;
    if (isPlainObject(required)) {
      nodeSelectorProblems(required, (path, keyword, message) =>
        add(['nodeAffinity', 'required', ...path], keyword, message),
      );
    } else if (required === undefined || required === null) {
      add(
        ['nodeAffinity', 'required'],
        'required',
        requiredValue('must specify required node constraints'),
      );
    }
  }
  sourceProblems(spec, nodeAffinity, add);
  const hostPath = isPlainObject(spec.hostPath) ? spec.hostPath.path : undefined;
  if (
    typeof hostPath === 'string' &&
    hostPath !== '' &&
    posix.normalize(hostPath).replace(/(.)\/$/, '$1') === '/' &&
    spec.persistentVolumeReclaimPolicy === 'Recycle'
  ) {
    add(
      ['persistentVolumeReclaimPolicy'],
      'reclaim-policy',
      forbiddenValue("may not be 'recycle' for a hostPath mount of '/'"),
    );
  }
  const className = spec.storageClassName;
  if (typeof className === 'string' && className !== '') {
    for (const message of dns1123SubdomainProblems(className)) {
      add(['storageClassName'], 'storage-class', invalidValue(className, message));
    }
  }
  return problems;
}

/** An access mode at least, and `ReadWriteOncePod` only alone (the modes are the schema's). */
function accessModeProblems(modes: unknown, add: Add): void {
  const list = Array.isArray(modes) ? modes : [];
  if (list.length === 0) {
    add(['accessModes'], 'required', requiredValue());
  } else if (list.includes('ReadWriteOncePod') && list.some((m) => m !== 'ReadWriteOncePod')) {
    add(
      ['accessModes'],
      'access-modes',
      forbiddenValue('may not use ReadWriteOncePod with other access modes'),
    );
  }
}

/** A capacity of `storage` alone, each quantity valid and greater than zero. */
function capacityProblems(capacity: unknown, add: Add): void {
  const resources = isPlainObject(capacity) ? capacity : {};
  const names = Object.keys(resources);
  if (names.length === 0) add(['capacity'], 'required', requiredValue());
  if (!names.includes('storage') || names.length > 1) {
    add(['capacity'], 'capacity', unsupportedValue(resources, ['storage']));
  }
  for (const name of names) {
    const quantity = resources[name];
    if (typeof quantity !== 'string' && typeof quantity !== 'number') continue;
    const text = String(quantity);
    // One that does not parse is the schema walk's (`structural-validator.ts`).
    const units = writtenQuantity(quantity)?.units;
    if (units === undefined) continue;
    if (units <= 0n) {
      add(['capacity', name], 'quantity', invalidValue(text, 'must be greater than zero'));
    }
  }
}

/** Exactly one source; the checks of the first. */
function sourceProblems(spec: Record<string, unknown>, nodeAffinity: boolean, add: Add): void {
  let counted = 0;
  for (const source of PERSISTENT_VOLUME_SOURCES) {
    const value = spec[source];
    if (value === undefined || value === null) continue;
    // Go counts a flexVolume without asking whether another source came first.
    if (counted > 0 && source !== 'flexVolume') {
      add([source], 'volume-source', forbiddenValue('may not specify more than 1 volume type'));
      continue;
    }
    counted++;
    if (!isPlainObject(value)) continue;
    const at: Add = (path, keyword, message) => add([source, ...path], keyword, message);
    switch (source) {
      case 'hostPath':
        pathProblems(value.path, at);
        break;
      case 'local':
        pathProblems(value.path, at);
        if (!nodeAffinity) {
          add(['nodeAffinity'], 'required', requiredValue('Local volume requires node affinity'));
        }
        break;
      case 'nfs':
        nfsProblems(value, at);
        break;
      case 'csi':
        csiProblems(value, at);
        break;
      default:
        break;
    }
  }
  if (counted === 0) add([], 'volume-source', requiredValue('must specify a volume type'));
}

/** A host or local path: there, and no `..` in it (`validatePathNoBacksteps`). */
function pathProblems(path: unknown, add: Add): void {
  if (path === undefined || path === null || path === '') {
    add(['path'], 'required', requiredValue());
  } else if (typeof path === 'string' && path.split('/').includes('..')) {
    add(['path'], 'volume-source', invalidValue(path, "must not contain '..'"));
  }
}

function nfsProblems(nfs: Record<string, unknown>, add: Add): void {
  for (const field of ['server', 'path']) {
    if (nfs[field] === '') add([field], 'required', requiredValue());
  }
  const path = nfs.path;
  if (typeof path === 'string' && path !== '' && !path.startsWith('/')) {
    add(['path'], 'volume-source', invalidValue(path, 'must be an absolute path'));
  }
}

/** `validateCSIPersistentVolumeSource`: a driver name, a volume handle, whole secret references. */
function csiProblems(csi: Record<string, unknown>, add: Add): void {
  const driver = csi.driver;
  if (driver === '' || driver === undefined || driver === null) {
    add(['driver'], 'required', requiredValue());
  } else if (typeof driver === 'string') {
    if (driver.length > 63)
      add(['driver'], 'csi-driver', 'Too long: may not be more than 63 bytes');
    for (const message of dns1123SubdomainProblems(driver.toLowerCase())) {
      add(['driver'], 'csi-driver', invalidValue(driver, message));
    }
  }
  if (csi.volumeHandle === '' || csi.volumeHandle === undefined || csi.volumeHandle === null) {
    add(['volumeHandle'], 'required', requiredValue());
  }
  for (const reference of CSI_SECRET_REFERENCES) {
    const secret = csi[reference];
    if (!isPlainObject(secret)) continue;
    const { name, namespace } = secret;
    if (typeof name !== 'string' || name === '') {
      add([reference, 'name'], 'required', requiredValue());
    } else {
      for (const message of dns1123SubdomainProblems(name)) {
        add([reference, 'name'], 'secret-reference', invalidValue(name, message));
      }
    }
    if (typeof namespace !== 'string' || namespace === '') {
      add([reference, 'namespace'], 'required', requiredValue());
    } else {
      for (const message of dns1123LabelProblems(namespace)) {
        add([reference, 'namespace'], 'secret-reference', invalidValue(namespace, message));
      }
    }
  }
}
