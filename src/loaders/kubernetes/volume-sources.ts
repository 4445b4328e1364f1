/**
 * What the API server checks of a pod volume's source in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `validateVolumeSource` and the per-source functions it calls): a
 * volume has one source. The sources are counted in Go's order; each one after the first is
 * `Forbidden: may not specify more than 1 volume type` at its field, and only the first is
 * checked further: a Secret's `secretName`, a ConfigMap's `name`, a claim's `claimName`, a host
 * or NFS path are required, an NFS path is absolute, and file modes are 0-0777.
 *
 * A volume without a source is no error: the API server defaults it to an `emptyDir`
 * (`SetDefaults_Volume`) before validating, so Go's `must specify a volume type` is never
 * reached from a manifest.
 */

import { isPlainObject } from '../manifest-document.js';
import { forbiddenValue, invalidValue, requiredValue } from './go-field-error.js';

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
    case 'hostPath':
      required('path', false);
      return;
    case 'secret':
      required('secretName', true);
      fileModes(value, add);
      return;
    case 'configMap':
      required('name', true);
      fileModes(value, add);
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
    case 'projected':
      fileModes(value, add);
      return;
    default:
      return;
  }
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
