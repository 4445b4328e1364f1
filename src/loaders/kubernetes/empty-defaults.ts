/**
 * The string fields of built-in kinds that the API server defaults when they are empty: Go
 * decodes `""` as the zero value, and the defaulting functions, which run before validation,
 * read it as unset (`SetDefaults_Container`: `if obj.ImagePullPolicy == ""`). So
 * `imagePullPolicy: ""`, which `{{ .Values.pullPolicy | quote }}` renders from an empty value,
 * is the default, not an unsupported value. Such a field is left out of the checked document.
 * (A pointer field, such as a Job's `completionMode`, is not defaulted from `""`: it stays.)
 */

import { isPlainObject } from '../manifest-document.js';
import { CONTAINER_LISTS, podSpecPath } from './pod-spec-paths.js';

type Fields = Readonly<Record<string, readonly string[]>>;

/** Below a kind's spec: each path's object, and its fields defaulted from `""`. */
const SPEC_FIELDS: Readonly<Record<string, Fields>> = {
  '/Service': {
    '': ['type', 'sessionAffinity', 'externalTrafficPolicy'],
    'ports[]': ['protocol', 'targetPort'],
  },
  '/PersistentVolume': { '': ['persistentVolumeReclaimPolicy'] },
  'apps/Deployment': { strategy: ['type'] },
  'apps/DaemonSet': { updateStrategy: ['type'] },
  'apps/StatefulSet': { '': ['podManagementPolicy'], updateStrategy: ['type'] },
  'batch/CronJob': { '': ['concurrencyPolicy'] },
};
const POD_FIELDS: Fields = { '': ['restartPolicy', 'dnsPolicy'] };
const CONTAINER_FIELDS: Fields = {
  '': ['imagePullPolicy', 'terminationMessagePolicy'],
  'ports[]': ['protocol'],
  'livenessProbe.httpGet': ['scheme'],
  'readinessProbe.httpGet': ['scheme'],
  'startupProbe.httpGet': ['scheme'],
  'lifecycle.postStart.httpGet': ['scheme'],
  'lifecycle.preStop.httpGet': ['scheme'],
};

/** Leaves out of a built-in document of `group`/`kind` the empty strings Go defaults. */
export function dropDefaultedEmptyStrings(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): void {
  const fields = SPEC_FIELDS[`${group}/${kind}`];
  if (fields !== undefined) drop(document.spec, fields);
  const podPath = podSpecPath(group, kind);
  if (podPath === undefined) return;
  let pod: unknown = document;
  for (const key of podPath) pod = isPlainObject(pod) ? pod[key] : undefined;
  if (!isPlainObject(pod)) return;
  drop(pod, POD_FIELDS);
  for (const list of CONTAINER_LISTS) {
    const containers = pod[list];
    if (!Array.isArray(containers)) continue;
    for (const container of containers) drop(container, CONTAINER_FIELDS);
  }
}

function drop(root: unknown, fields: Fields): void {
  for (const [path, names] of Object.entries(fields)) {
    for (const target of objectsAt(root, path === '' ? [] : path.split('.'))) {
      for (const name of names) if (target[name] === '') Reflect.deleteProperty(target, name);
    }
  }
}

/** The objects at a dotted path, a `[]` segment standing for each item of a list. */
function objectsAt(root: unknown, path: readonly string[]): Record<string, unknown>[] {
  let current: unknown[] = [root];
  for (const segment of path) {
    const list = segment.endsWith('[]');
    const key = list ? segment.slice(0, -2) : segment;
    current = current.flatMap((value) => {
      const child = isPlainObject(value) ? value[key] : undefined;
      return list ? (Array.isArray(child) ? (child as unknown[]) : []) : [child];
    });
  }
  return current.filter(isPlainObject);
}
