/**
 * What the API server checks of a RuntimeClass in Go (k8s.io/kubernetes `pkg/apis/node/validation`
 * `ValidateRuntimeClass`): its `handler` is a DNS-1123 label (the CRI handler's name, as
 * containerd's `runc` or `kata`), its pod overhead names resources a container may use, in
 * amounts not negative, its scheduling `nodeSelector` holds labels and its scheduling
 * tolerations are a pod's, none twice. Each problem at its field,
 * in the API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { duplicateStructValue, invalidValue } from './go-field-error.js';
import { tolerationListProblems } from './pod-tolerations.js';
import { apiWarning, DEPRECATED_NODE_LABELS } from './api-warnings.js';
import { dns1123LabelProblems, labelNameProblems, labelValueProblems } from './label-syntax.js';
import { containerResourceNameProblems } from './resource-names.js';
import { writtenQuantity } from './resource-quantity.js';

/** The problems of a built-in document of `group`/`kind` (a RuntimeClass's only). */
export function runtimeClassProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== 'node.k8s.io' || kind !== 'RuntimeClass') return [];
  const problems: SchemaProblem[] = [];
  const add = (path: (string | number)[], keyword: string, message: string): void => {
    problems.push({ path: jsonPointer(path), part: 'value', keyword, message });
  };
  const handler = document.handler;
  if (typeof handler === 'string') {
    for (const message of dns1123LabelProblems(handler)) {
      add(['handler'], 'runtime-handler', invalidValue(handler, message));
    }
  }
  // `validateOverhead`: the pod overhead is named and sized as a container's limits.
  const overhead = isPlainObject(document.overhead) ? document.overhead.podFixed : undefined;
  if (isPlainObject(overhead)) {
    for (const [resource, quantity] of Object.entries(overhead)) {
      const at = ['overhead', 'podFixed', resource];
      for (const message of containerResourceNameProblems(resource)) {
        add(at, 'resource-name', invalidValue(resource, message));
      }
      if ((writtenQuantity(quantity)?.units ?? 0n) < 0n) {
        add(at, 'quantity', invalidValue(String(quantity), 'must be greater than or equal to 0'));
      }
    }
  }
  const scheduling = document.scheduling;
  const tolerations = isPlainObject(scheduling) ? scheduling.tolerations : undefined;
  if (Array.isArray(tolerations)) {
    tolerationListProblems(tolerations, (path, keyword, message) =>
      add(['scheduling', 'tolerations', ...path], keyword, message),
    );
    duplicateTolerations(tolerations, (i, toleration) =>
      add(['scheduling', 'tolerations', i], 'duplicate', duplicateStructValue(toleration)),
    );
  }
  const selector = isPlainObject(scheduling) ? scheduling.nodeSelector : undefined;
  if (isPlainObject(selector)) {
    for (const [key, value] of Object.entries(selector)) {
      const at = ['scheduling', 'nodeSelector', key];
      labelNameProblems(key, at, add);
      // `GetWarningsForRuntimeClass`: the API server warns of a deprecated node label.
      const deprecated = DEPRECATED_NODE_LABELS[key];
      if (deprecated !== undefined) {
        problems.push(apiWarning(at, deprecated));
      }
      if (typeof value !== 'string') continue;
      for (const message of labelValueProblems(value)) {
        add(at, 'label-value', invalidValue(value, message));
      }
    }
  }
  return problems;
}

/**
 * The node validation's `validateTolerations`: no toleration twice by its key, operator, value
 * and effect (its seconds aside).
 */
function duplicateTolerations(
  tolerations: readonly unknown[],
  report: (index: number, toleration: unknown) => void,
): void {
  const seen = new Set<string>();
  tolerations.forEach((toleration: unknown, i) => {
    if (!isPlainObject(toleration)) return;
    const text = (field: string): string => {
      const value = toleration[field];
      return typeof value === 'string' ? value : '';
    };
    const key = JSON.stringify([text('key'), text('operator'), text('value'), text('effect')]);
    if (seen.has(key)) report(i, toleration);
    seen.add(key);
  });
}
