/**
 * What the API server checks of a Namespace's spec in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidateNamespace`): each of its finalizers is a qualified name, and
 * one without a `domain/` prefix is a standard finalizer (`kubernetes`, `orphan`,
 * `foregroundDeletion`) (`validateFinalizerName`, `validateKubeFinalizerName`). Each problem at
 * its finalizer, in the API server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { invalidValue } from './go-field-error.js';
import { qualifiedNameProblems } from './label-syntax.js';
import { NOT_QUALIFIED_FINALIZER, STANDARD_FINALIZERS } from './object-meta.js';

/** The problems of a built-in document of `group`/`kind` (a Namespace's only). */
export function namespaceProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  if (group !== '' || kind !== 'Namespace' || !isPlainObject(document.spec)) return [];
  const finalizers = document.spec.finalizers;
  if (!Array.isArray(finalizers)) return [];
  const problems: SchemaProblem[] = [];
  finalizers.forEach((finalizer: unknown, i) => {
    if (typeof finalizer !== 'string') return;
    const add = (message: string): void => {
      problems.push({
        path: jsonPointer(['spec', 'finalizers', i]),
        part: 'value',
        keyword: 'finalizer',
        message: invalidValue(finalizer, message),
      });
    };
    qualifiedNameProblems(finalizer).forEach(add);
    if (!finalizer.includes('/') && !STANDARD_FINALIZERS.has(finalizer)) {
      add(NOT_QUALIFIED_FINALIZER);
    }
  });
  return problems;
}
