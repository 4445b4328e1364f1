/**
 * What the API server checks of a pod volume's source in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validateVolumeSource` and the per-source functions it calls): a
 * volume has one source. The sources are counted in Go's order; each one after the first is
 * `Forbidden: may not specify more than 1 volume type` at its field, and only the first is
 * checked further: a Secret's `secretName`, a ConfigMap's `name`, a claim's `claimName`, a host
 * or NFS path are required, an NFS path is absolute, file modes are 0-0777, the items of a
 * Secret, a ConfigMap or a downward API volume (projected ones too) have a key and a path that is
 * relative, without `..` and not starting with it (`validateKeyToPath`,
 * `validateDownwardAPIVolumeFile`), a host path has no `..`, a CSI volume a driver, an EBS
 * volume a volume ID, an Azure file a secret and share name, an iSCSI volume a target portal and
 * an IQN, EUI or NAA name and a LUN of 0-255, a Fibre Channel volume target WWNs (with a LUN) or
 * WWIDs, a projected
 * service account token lives 10 minutes to 2^32 seconds, and an ephemeral volume's claim
 * template is a claim's spec with labels and annotations alone.
 *
 * A volume without a source is no error: the API server defaults it to an `emptyDir`
 * (`SetDefaults_Volume`) before validating, so Go's `must specify a volume type` is never
 * reached from a manifest.
 */

import { isPlainObject } from '../manifest-document.js';
import {
  forbiddenValue,
  invalidStringList,
  invalidValue,
  requiredValue,
} from './go-field-error.js';
import { localNonReservedPathProblems } from './local-descending-path.js';
import { objectFieldSelectorProblems, VOLUME_FIELD_PATHS } from './object-field-selector.js';
import { ephemeralVolumeProblems } from './persistent-volume-claims.js';
import { resourceFieldSelectorProblems } from './resource-field-selector.js';

/** A volume's sources, in the order `validateVolumeSource` counts them (their JSON names). */
export const VOLUME_SOURCES = [
  'emptyDir',
  'hostPath',
  'gitRepo',
  'gcePersistentDisk',
  'awsElasticBlockStore',
  'secret',
  'nfs',
  'iscsi',
  'glusterfs',
  'flocker',
  'persistentVolumeClaim',
  'rbd',
  'cinder',
  'cephfs',
  'quobyte',
  'downwardAPI',
  'fc',
  'flexVolume',
  'configMap',
  'azureFile',
  'vsphereVolume',
  'photonPersistentDisk',
  'portworxVolume',
  'azureDisk',
  'storageos',
  'projected',
  'scaleIO',
  'csi',
  'ephemeral',
  'image',
] as const;

const LUN_RANGE = 'must be between 0 and 255, inclusive';
/** The iSCSI name forms Go accepts (`iscsiInitiatorIqnRegex`, `...EuiRegex`, `...NaaRegex`). */
const ISCSI_NAMES: readonly (readonly [string, RegExp])[] = [
  ['iqn', /iqn\.\d{4}-\d{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\s]+)$/],
  ['eui', /^eui.[A-Za-z0-9]{16}$/],
  ['naa', /^naa.[A-Za-z0-9]{32}$/],
];
const FILE_MODE_MESSAGE = 'must be a number between 0 and 0777 (octal), both inclusive';

type Add = (path: (string | number)[], keyword: string, message: string) => void;

/** Reports the problems of one volume's source, at paths below the volume. */
export function volumeSourceProblems(volume: Record<string, unknown>, add: Add): void {
  let counted = 0;
  for (const source of VOLUME_SOURCES) {
    const value = volume[source];
    // A source written as null is Go's nil pointer: not there.
    if (value === undefined || value === null) continue;
    if (counted > 0) {
      // Go names `downwardAPI` `downwarAPI` and `cephfs` `cephFS` in this path; the finding
      // points at the field as written.
      add([source], 'volume-source', forbiddenValue('may not specify more than 1 volume type'));
      continue;
    }
    counted++;
    if (isPlainObject(value))
      sourceProblems(source, value, (path, k, m) => add([source, ...path], k, m));
  }
}

/** The checks of the first source, as far as the OpenAPI does not make them already. */
function sourceProblems(source: string, value: Record<string, unknown>, add: Add): void {
  const required = (field: string, absentToo: boolean): void => {
    const written = value[field];
    if (written === '' || (absentToo && (written === undefined || written === null))) {
      add([field], 'required', requiredValue());
    }
  };
  switch (source) {
    case 'hostPath': {
      required('path', false);
      // validatePathNoBacksteps: one error, however many `..` there are.
      const path = value.path;
      if (typeof path === 'string' && path.split('/').includes('..')) {
        add(['path'], 'volume-path', invalidValue(path, "must not contain '..'"));
      }
      return;
    }
    case 'csi':
      required('driver', false);
      return;
    case 'awsElasticBlockStore':
      required('volumeID', false);
      return;
    case 'azureFile':
      required('secretName', false);
      required('shareName', false);
      return;
    case 'iscsi':
      required('targetPortal', false);
      required('iqn', false);
      iscsiProblems(value, add);
      return;
    case 'fc':
      fibreChannelProblems(value, add);
      return;
    case 'secret':
      required('secretName', true);
      fileModes(value, add);
      keyToPathItems(value.items, (path, k, m) => add(['items', ...path], k, m));
      return;
    case 'configMap':
      required('name', true);
      fileModes(value, add);
      keyToPathItems(value.items, (path, k, m) => add(['items', ...path], k, m));
      return;
    case 'persistentVolumeClaim':
      required('claimName', false);
      return;
    case 'nfs': {
      required('server', false);
      required('path', false);
      const path = value.path;
      if (typeof path === 'string' && !path.startsWith('/')) {
        add(['path'], 'volume-source', invalidValue(path, 'must be an absolute path'));
      }
      return;
    }
    case 'downwardAPI':
      fileModes(value, add);
      downwardApiFiles(value.items, (path, k, m) => add(['items', ...path], k, m));
      return;
    case 'ephemeral':
      ephemeralVolumeProblems(value, add);
      return;
    case 'projected':
      fileModes(value, add);
      projectedDownwardApiFiles(value.sources, (path, k, m) => add(['sources', ...path], k, m));
      projectedKeyToPathItems(value.sources, (path, k, m) => add(['sources', ...path], k, m));
      serviceAccountTokenProblems(value.sources, (path, k, m) => add(['sources', ...path], k, m));
      return;
    default:
      return;
  }
}

/** `validateISCSIVolumeSource`: an IQN, EUI or NAA name of the right form, a LUN of 0-255. */
function iscsiProblems(value: Record<string, unknown>, add: Add): void {
  const { iqn, lun } = value;
  if (typeof iqn === 'string' && iqn !== '') {
    const form = ISCSI_NAMES.find(([prefix]) => iqn.startsWith(prefix));
    if (form === undefined || !form[1].test(iqn)) {
      add(
        ['iqn'],
        'volume-source',
        invalidValue(iqn, 'must be valid format starting with iqn, eui, or naa'),
      );
    }
  }
  if (typeof lun === 'number' && (lun < 0 || lun > 255)) {
    add(['lun'], 'volume-source', invalidValue(lun, LUN_RANGE));
  }
}

/** `validateFCVolumeSource`: target WWNs (with a LUN of 0-255) or WWIDs, not both. */
function fibreChannelProblems(value: Record<string, unknown>, add: Add): void {
  const count = (list: unknown): number => (Array.isArray(list) ? list.length : 0);
  const targets = count(value.targetWWNs);
  const ids = count(value.wwids);
  if (targets === 0 && ids === 0) {
    add(
      ['targetWWNs'],
      'required',
      requiredValue('must specify either targetWWNs or wwids, but not both'),
    );
  }
  if (targets > 0 && ids > 0) {
    add(
      ['targetWWNs'],
      'volume-source',
      invalidStringList(
        (value.targetWWNs as unknown[]).map(String),
        'targetWWNs and wwids can not be specified simultaneously',
      ),
    );
  }
  if (targets === 0) return;
  const lun = value.lun;
  if (lun === undefined || lun === null) {
    add(['lun'], 'required', requiredValue('lun is required if targetWWNs is specified'));
  } else if (typeof lun === 'number' && (lun < 0 || lun > 255)) {
    add(['lun'], 'volume-source', invalidValue(lun, LUN_RANGE));
  }
}

/** The downward API files of a projected volume's `downwardAPI` sources (`validateProjectedSources`). */
function projectedDownwardApiFiles(sources: unknown, add: Add): void {
  if (!Array.isArray(sources)) return;
  sources.forEach((source: unknown, i) => {
    const downwardApi = isPlainObject(source) ? source.downwardAPI : undefined;
    if (!isPlainObject(downwardApi)) return;
    downwardApiFiles(downwardApi.items, (path, k, m) =>
      add([i, 'downwardAPI', 'items', ...path], k, m),
    );
  });
}

/** The items of a projected volume's `configMap` and `secret` sources (`validateProjectionSources`). */
function projectedKeyToPathItems(sources: unknown, add: Add): void {
  if (!Array.isArray(sources)) return;
  sources.forEach((source: unknown, i) => {
    if (!isPlainObject(source)) return;
    for (const kind of ['configMap', 'secret']) {
      const projection = source[kind];
      if (!isPlainObject(projection)) continue;
      keyToPathItems(projection.items, (path, k, m) => add([i, kind, 'items', ...path], k, m));
    }
  });
}

/**
 * `validateKeyToPath`, as far as the OpenAPI does not check it (it requires both fields): a key
 * and a path not empty, the path a local one (`itemPathProblems`). The mode is `fileModes`'.
 */
function keyToPathItems(items: unknown, add: Add): void {
  if (!Array.isArray(items)) return;
  items.forEach((item: unknown, i) => {
    if (!isPlainObject(item)) return;
    if (item.key === '') add([i, 'key'], 'required', requiredValue());
    itemPathProblems(item.path, (path, k, m) => add([i, ...path], k, m));
  });
}

/** An item's `path` (`ValidateLocalNonReservedPath`): given, relative, without `..`. */
function itemPathProblems(path: unknown, add: Add): void {
  if (path === '') add(['path'], 'required', requiredValue());
  if (typeof path !== 'string') return;
  localNonReservedPathProblems(path, (message) =>
    add(['path'], 'volume-path', invalidValue(path, message)),
  );
}

/**
 * A projected service account token's lifetime (`validateProjectionSources`): 10 minutes to 2^32
 * seconds (left out, it is an hour).
 */
function serviceAccountTokenProblems(sources: unknown, add: Add): void {
  if (!Array.isArray(sources)) return;
  sources.forEach((source: unknown, i) => {
    const token = isPlainObject(source) ? source.serviceAccountToken : undefined;
    const seconds = isPlainObject(token) ? token.expirationSeconds : undefined;
    if (typeof seconds !== 'number') return;
    const at = [i, 'serviceAccountToken', 'expirationSeconds'];
    if (seconds < 10 * 60) {
      add(
        at,
        'token-expiry',
        invalidValue(seconds, 'may not specify a duration less than 10 minutes'),
      );
    }
    if (seconds > 2 ** 32) {
      add(
        at,
        'token-expiry',
        invalidValue(seconds, 'may not specify a duration larger than 2^32 seconds'),
      );
    }
  });
}

/**
 * `validateDownwardAPIVolumeFile`, as far as the OpenAPI does not check it: a local `path`, one of `fieldRef`
 * and `resourceFieldRef`, a `fieldRef` naming a pod field a volume exposes (its labels and
 * annotations, whole or by key, its name, namespace and uid), a `resourceFieldRef` naming its
 * container, a resource and a divisor it takes (`resource-field-selector.ts`).
 */
function downwardApiFiles(items: unknown, add: Add): void {
  if (!Array.isArray(items)) return;
  items.forEach((item: unknown, i) => {
    if (!isPlainObject(item)) return;
    itemPathProblems(item.path, (path, k, m) => add([i, ...path], k, m));
    const fieldRef = item.fieldRef;
    const resourceFieldRef = item.resourceFieldRef;
    const hasResourceFieldRef = resourceFieldRef !== undefined && resourceFieldRef !== null;
    if (fieldRef !== undefined && fieldRef !== null) {
      if (isPlainObject(fieldRef)) {
        objectFieldSelectorProblems(fieldRef, VOLUME_FIELD_PATHS, (path, k, m) =>
          add([i, 'fieldRef', ...path], k, m),
        );
      }
      if (hasResourceFieldRef) {
        add(
          [i],
          'volume-source',
          invalidValue(
            'resource',
            'fieldRef and resourceFieldRef can not be specified simultaneously',
          ),
        );
      }
    } else if (hasResourceFieldRef) {
      if (isPlainObject(resourceFieldRef)) {
        resourceFieldSelectorProblems(resourceFieldRef, true, (path, k, m) =>
          add([i, 'resourceFieldRef', ...path], k, m),
        );
      }
    } else {
      add([i], 'required', requiredValue('one of fieldRef and resourceFieldRef is required'));
    }
  });
}

/** A source's `defaultMode` and its items' `mode`: a file mode, 0 to 0777. */
function fileModes(value: Record<string, unknown>, add: Add): void {
  const check = (mode: unknown, path: (string | number)[]): void => {
    if (typeof mode === 'number' && Number.isInteger(mode) && (mode < 0 || mode > 0o777)) {
      add(path, 'file-mode', invalidValue(mode, FILE_MODE_MESSAGE));
    }
  };
  check(value.defaultMode, ['defaultMode']);
  if (!Array.isArray(value.items)) return;
  value.items.forEach((item: unknown, i) => {
    if (isPlainObject(item)) check(item.mode, ['items', i, 'mode']);
  });
}
