/**
 * What the API server checks of a pod spec's volumes in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidateVolumes`, `ValidateVolumeMounts`): a volume has one source
 * (`volume-sources.ts`), its name is a DNS-1123 label, and a container mounts only volumes of the
 * pod (`Not found: "cache"`) at a relative sub-path without `..`, on a path no device has,
 * `Bidirectional` only when privileged; as in Go, a volume with a problem is not one a mount can name.
 * A volume named twice is a `Duplicate value` at its name, a path mounted twice in a container
 * `must be unique` at its `mountPath`, and a block device (`ValidateVolumeDevices`) names a
 * claim's or an ephemeral volume once, at one path. Each problem at its field, in the API
 * server's words (the structural check leaves these lists' repeats to this one:
 * `structural-validator.ts`).
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { MAX_LABEL_MESSAGE } from './container-checks.js';
import { DNS1123_LABEL, DNS1123_LABEL_MESSAGE } from './label-syntax.js';
import {
  duplicateValue,
  forbiddenValue,
  invalidValue,
  notFoundValue,
  requiredValue,
} from './go-field-error.js';
import { localDescendingPathProblems } from './local-descending-path.js';
import { CONTAINER_LISTS, podSpecOf } from './pod-spec-paths.js';
import { volumeSourceProblems } from './volume-sources.js';

/** The volume problems of a built-in document of `group`/`kind` (none without a pod spec). */
export function volumeProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const pod = podSpecOf(document, group, kind);
  if (!pod) return [];
  const { spec, problems, add } = pod;
  // The volumes a mount or a device may name (those without a problem, as Go keeps them), and
  // whether each is a claim's or an ephemeral one.
  const volumes = new Map<string, boolean>();
  if (Array.isArray(spec.volumes)) {
    spec.volumes.forEach((volume: unknown, i) => {
      if (!isPlainObject(volume)) return;
      let found = 0;
      const addHere = (path: (string | number)[], keyword: string, message: string): void => {
        found++;
        add(['volumes', i, ...path], keyword, message);
      };
      volumeSourceProblems(volume, addHere);
      const name = volume.name;
      if (typeof name !== 'string' || name === '') return;
      if (name.length > 63)
        addHere(['name'], 'dns-1123-label', invalidValue(name, MAX_LABEL_MESSAGE));
      if (!DNS1123_LABEL.test(name)) {
        addHere(['name'], 'dns-1123-label', invalidValue(name, DNS1123_LABEL_MESSAGE));
      }
      if (volumes.has(name)) addHere(['name'], 'duplicate', duplicateValue(name));
      if (found === 0) volumes.set(name, isClaimOrEphemeral(volume));
    });
  }
  // A StatefulSet's pods also get a volume per claim template (the API server leaves its template's
  // pod spec to the pods it makes, which have them).
  if (group === 'apps' && kind === 'StatefulSet') {
    const templates = isPlainObject(document.spec) ? document.spec.volumeClaimTemplates : undefined;
    for (const claim of Array.isArray(templates) ? templates : []) {
      const metadata = isPlainObject(claim) ? claim.metadata : undefined;
      if (isPlainObject(metadata) && typeof metadata.name === 'string') {
        volumes.set(metadata.name, true);
      }
    }
  }
  for (const list of CONTAINER_LISTS) {
    const containers = spec[list];
    if (!Array.isArray(containers)) continue;
    containers.forEach((container: unknown, i) => {
      if (!isPlainObject(container)) return;
      const mounts = Array.isArray(container.volumeMounts) ? container.volumeMounts : [];
      const devices = namesAndPaths(container.volumeDevices, 'devicePath');
      const securityContext = container.securityContext;
      const privileged = isPlainObject(securityContext) && securityContext.privileged === true;
      const mountPaths = new Set<string>();
      mounts.forEach((mount: unknown, j) => {
        if (!isPlainObject(mount)) return;
        const at = [list, i, 'volumeMounts', j];
        if (typeof mount.name === 'string' && !volumes.has(mount.name)) {
          add([...at, 'name'], 'volume', notFoundValue(mount.name));
        }
        const mountPath = mount.mountPath;
        if (typeof mountPath === 'string') {
          if (mountPaths.has(mountPath)) {
            add([...at, 'mountPath'], 'duplicate', invalidValue(mountPath, 'must be unique'));
          }
          mountPaths.add(mountPath);
        }
        mountProblems(mount, devices, privileged, (path, keyword, message) =>
          add([...at, ...path], keyword, message),
        );
      });
      // Go checks the devices after the mounts (`validateContainerCommon`).
      deviceProblems(
        container.volumeDevices,
        volumes,
        namesAndPaths(mounts, 'mountPath'),
        (path, k, m) => add([list, i, 'volumeDevices', ...path], k, m),
      );
    });
  }
  return problems;
}

/** Whether a volume is a claim's or an ephemeral one: what a block device may use. */
function isClaimOrEphemeral(volume: Record<string, unknown>): boolean {
  return isPlainObject(volume.persistentVolumeClaim) || isPlainObject(volume.ephemeral);
}

/**
 * `ValidateVolumeDevices` of a container's devices: each names a volume of the pod, a claim's or
 * an ephemeral one, once, at a path no other device has, without `..`; neither its name nor its
 * path is a mount's.
 */
function deviceProblems(
  devices: unknown,
  volumes: ReadonlyMap<string, boolean>,
  mounts: { names: Set<string>; paths: Set<string> },
  add: (path: (string | number)[], keyword: string, message: string) => void,
): void {
  if (!Array.isArray(devices)) return;
  const names = new Set<string>();
  const paths = new Set<string>();
  devices.forEach((device: unknown, i) => {
    if (!isPlainObject(device)) return;
    const { name, devicePath } = device;
    if (typeof name === 'string' && name !== '') {
      if (names.has(name)) add([i, 'name'], 'duplicate', invalidValue(name, 'must be unique'));
      const blockMode = volumes.get(name);
      if (blockMode === undefined) add([i, 'name'], 'volume', notFoundValue(name));
      else if (!blockMode) {
        add(
          [i, 'name'],
          'volume',
          invalidValue(
            name,
            'can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
          ),
        );
      }
      names.add(name);
    }
    if (typeof devicePath === 'string' && devicePath !== '') {
      if (paths.has(devicePath)) {
        add([i, 'devicePath'], 'duplicate', invalidValue(devicePath, 'must be unique'));
      }
      if (devicePath.split('/').includes('..')) {
        add(
          [i, 'devicePath'],
          'volume',
          invalidValue(devicePath, "can not contain backsteps ('..')"),
        );
      } else {
        paths.add(devicePath);
      }
    }
    if (typeof name === 'string' && mounts.names.has(name)) {
      add(
        [i, 'name'],
        'volume-mount',
        invalidValue(name, 'must not already exist in volumeMounts'),
      );
    }
    if (typeof devicePath === 'string' && mounts.paths.has(devicePath)) {
      add(
        [i, 'devicePath'],
        'volume-mount',
        invalidValue(devicePath, 'must not already exist as a path in volumeMounts'),
      );
    }
  });
}

/**
 * The names and paths of a container's `volumeMounts` (`mountPath`) or `volumeDevices`
 * (`devicePath`): what the other list must not repeat.
 */
function namesAndPaths(
  list: unknown,
  pathField: 'mountPath' | 'devicePath',
): { names: Set<string>; paths: Set<string> } {
  const names = new Set<string>();
  const paths = new Set<string>();
  for (const item of Array.isArray(list) ? list : []) {
    if (!isPlainObject(item)) continue;
    const at = item[pathField];
    if (typeof item.name === 'string') names.add(item.name);
    if (typeof at === 'string') paths.add(at);
  }
  return { names, paths };
}

/**
 * `ValidateVolumeMounts` of one mount, beyond the volume it names: a mount path, neither it nor
 * the name also a device's, relative sub-paths without `..` (`subPath` or `subPathExpr`, not
 * both), and `Bidirectional` propagation only in a privileged container.
 */
function mountProblems(
  mount: Record<string, unknown>,
  devices: { names: Set<string>; paths: Set<string> },
  privileged: boolean,
  add: (path: (string | number)[], keyword: string, message: string) => void,
): void {
  const { name, mountPath, subPath, subPathExpr, mountPropagation } = mount;
  if (mountPath === '') add(['mountPath'], 'required', requiredValue());
  if (typeof name === 'string' && devices.names.has(name)) {
    add(['name'], 'volume-mount', invalidValue(name, 'must not already exist in volumeDevices'));
  }
  if (typeof mountPath === 'string' && devices.paths.has(mountPath)) {
    add(
      ['mountPath'],
      'volume-mount',
      invalidValue(mountPath, 'must not already exist as a path in volumeDevices'),
    );
  }
  if (typeof subPath === 'string' && subPath !== '') {
    localDescendingPathProblems(subPath, (message) =>
      add(['subPath'], 'volume-mount', invalidValue(subPath, message)),
    );
  }
  if (typeof subPathExpr === 'string' && subPathExpr !== '') {
    if (typeof subPath === 'string' && subPath !== '') {
      add(
        ['subPathExpr'],
        'volume-mount',
        invalidValue(subPathExpr, 'subPathExpr and subPath are mutually exclusive'),
      );
    }
    localDescendingPathProblems(subPathExpr, (message) =>
      add(['subPathExpr'], 'volume-mount', invalidValue(subPathExpr, message)),
    );
  }
  if (mountPropagation === 'Bidirectional' && !privileged) {
    add(
      ['mountPropagation'],
      'volume-mount',
      forbiddenValue('Bidirectional mount propagation is available only to privileged containers'),
    );
  }
}
