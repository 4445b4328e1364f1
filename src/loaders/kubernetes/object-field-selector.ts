/**
 * The API server's check of a downward API `fieldRef` (k8s.io/kubernetes `pkg/apis/core/validation`
 * `validateObjectFieldSelector`), for an environment variable and for a downward API volume
 * file: the path is one the downward API converts (`ConvertDownwardAPIFieldLabel`: `v1`, and a
 * subscript only on `metadata.annotations` and `metadata.labels`), a subscript's key is a label
 * or annotation key, and a path without one is among those its context exposes. Each problem in
 * the API server's words.
 */

import { invalidValue, requiredValue, unsupportedValue } from './go-field-error.js';
import { qualifiedNameProblems, type Add } from './label-syntax.js';

/** The pod fields an environment variable's `fieldRef` may name (sorted, as Go lists them). */
export const ENV_FIELD_PATHS = [
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.serviceAccountName',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
];

/** The pod fields a downward API volume file's `fieldRef` may name (sorted, as Go lists them). */
export const VOLUME_FIELD_PATHS = [
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
];

/** The field labels the downward API converts (`ConvertDownwardAPIFieldLabel`), `spec.host` aside. */
const DOWNWARD_API_LABELS = new Set([
  'metadata.annotations',
  'metadata.labels',
  'metadata.name',
  'metadata.namespace',
  'metadata.uid',
  'spec.nodeName',
  'spec.restartPolicy',
  'spec.serviceAccountName',
  'spec.schedulerName',
  'status.phase',
  'status.hostIP',
  'status.hostIPs',
  'status.podIP',
  'status.podIPs',
  'spec.terminationGracePeriodSeconds',
]);

/**
 * `validateObjectFieldSelector` of a `fieldRef`, with the paths its context exposes; `add` takes
 * paths below the `fieldRef`.
 */
export function objectFieldSelectorProblems(
  selector: Record<string, unknown>,
  exposed: readonly string[],
  add: Add,
): void {
  // `apiVersion` is defaulted to `v1` (SetDefaults_ObjectFieldSelector).
  const apiVersion = selector.apiVersion === '' ? 'v1' : (selector.apiVersion ?? 'v1');
  const path = selector.fieldPath;
  if (path === '') {
    add(['fieldPath'], 'required', requiredValue());
    return;
  }
  if (typeof path !== 'string' || typeof apiVersion !== 'string') return;
  const converting = (why: string): void =>
    add(['fieldPath'], 'field-path', invalidValue(path, `error converting fieldPath: ${why}`));
  if (apiVersion !== 'v1') {
    converting(`unsupported pod version: ${apiVersion}`);
    return;
  }
  // `SplitMaybeSubscriptedPath`: `field['key']`.
  const subscripted = /^(.+?)\['(.*)'\]$/s.exec(path);
  if (subscripted !== null) {
    const field = subscripted[1] ?? '';
    const key = subscripted[2] ?? '';
    if (field === 'metadata.annotations' || field === 'metadata.labels') {
      // An annotation key is checked in lower case, and printed so.
      const checked = field === 'metadata.annotations' ? key.toLowerCase() : key;
      for (const message of qualifiedNameProblems(checked)) {
        add([], 'field-path', invalidValue(checked, message));
      }
    } else converting(`field label does not support subscript: ${path}`);
    return;
  }
  const converted = path === 'spec.host' ? 'spec.nodeName' : path;
  if (!DOWNWARD_API_LABELS.has(converted)) {
    converting(`field label not supported: ${path}`);
    return;
  }
  if (!exposed.includes(converted)) {
    add(['fieldPath'], 'field-path', unsupportedValue(converted, exposed));
  }
}
