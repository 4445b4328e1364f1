/**
 * What the API server warns of as it takes a PersistentVolumeClaim or a PersistentVolume
 * (k8s.io/kubernetes `pkg/api/persistentvolumeclaim` `GetWarningsForPersistentVolumeClaim`,
 * `pkg/api/persistentvolume` `GetWarningsForPersistentVolume`): the beta storage class
 * annotation, a claim's fractional storage, a volume's `Recycle` reclaim policy, deprecated node
 * labels in its node affinity and its deprecated in-tree plugins. Each an `api-warning` at its
 * field, in the API server's words.
 */

import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import {
  apiWarning,
  claimSpecWarnings,
  nodeSelectorTermWarnings,
  type Warn,
} from './api-warnings.js';

const BETA_STORAGE_CLASS = 'volume.beta.kubernetes.io/storage-class';
const BETA_STORAGE_CLASS_MESSAGE =
  'deprecated since v1.8; use "storageClassName" attribute instead';

/** A volume's in-tree plugins the API server warns of (not quite the pod's list). */
const DEPRECATED_PLUGINS: Readonly<Record<string, string>> = {
  cephfs: 'deprecated in v1.28, non-functional in v1.31+',
  photonPersistentDisk: 'deprecated in v1.11, non-functional in v1.16+',
  scaleIO: 'deprecated in v1.16, non-functional in v1.22+',
  storageos: 'deprecated in v1.22, non-functional in v1.25+',
  glusterfs: 'deprecated in v1.25, non-functional in v1.26+',
  rbd: 'deprecated in v1.28, non-functional in v1.31+',
};

/** The warnings of a built-in document of `group`/`kind` (a claim's or a volume's). */
export function storageWarningProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== '' || (kind !== 'PersistentVolumeClaim' && kind !== 'PersistentVolume')) return [];
  const problems: SchemaProblem[] = [];
  const warn: Warn = (path, message) => problems.push(apiWarning(path, message));
  const metadata = document.metadata;
  const annotations = isPlainObject(metadata) ? metadata.annotations : undefined;
  if (isPlainObject(annotations) && Object.hasOwn(annotations, BETA_STORAGE_CLASS)) {
    warn(['metadata', 'annotations', BETA_STORAGE_CLASS], BETA_STORAGE_CLASS_MESSAGE);
  }
  const spec = document.spec;
  if (!isPlainObject(spec)) return problems;
  if (kind === 'PersistentVolumeClaim') {
    claimSpecWarnings(spec, ['spec'], warn);
    return problems;
  }
  if (spec.persistentVolumeReclaimPolicy === 'Recycle') {
    warn(
      ['spec', 'persistentVolumeReclaimPolicy'],
      'The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
    );
  }
  const affinity = spec.nodeAffinity;
  const required = isPlainObject(affinity) ? affinity.required : undefined;
  const terms = isPlainObject(required) ? required.nodeSelectorTerms : undefined;
  if (Array.isArray(terms)) {
    terms.forEach((term: unknown, i) =>
      nodeSelectorTermWarnings(
        term,
        ['spec', 'nodeAffinity', 'required', 'nodeSelectorTerms', i],
        warn,
      ),
    );
  }
  for (const [plugin, message] of Object.entries(DEPRECATED_PLUGINS)) {
    const source = spec[plugin];
    if (source !== undefined && source !== null) warn(['spec', plugin], message);
  }
  return problems;
}
