/**
 * Checks of a definition put off until something uses it: the CRDs of `--definitions` (a chart's
 * `crds/`, a vendored bundle) cost their reading until a manifest or a controller needs one of
 * their kinds; then the definition is checked (its schema compiled, its rules compiled) once, and
 * its findings, at the CRD's own file and line, join the load that used it.
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { Finding } from '../finding.js';

const deferred = new WeakMap<ResourceDefinition, () => readonly Finding[]>();
/** Definitions whose put-off check has not run yet. */
const pending = new WeakSet<ResourceDefinition>();

/** Puts off `check` (which returns the definition's findings) until {@link runDeferredCheck}. */
export function deferCheck(definition: ResourceDefinition, check: () => readonly Finding[]): void {
  let findings: readonly Finding[] | undefined;
  pending.add(definition);
  deferred.set(definition, () => {
    pending.delete(definition);
    return (findings ??= check());
  });
}

/**
 * Adds `more` to a definition's put-off check (puts it off alone when there is none): the checks
 * of a CRD's versions that define no kind, run when a served one's kind is used.
 */
export function extendDeferredCheck(
  definition: ResourceDefinition,
  more: () => readonly Finding[],
): void {
  const first = deferred.get(definition);
  if (first === undefined) {
    deferCheck(definition, more);
    return;
  }
  let findings: readonly Finding[] | undefined;
  deferred.set(definition, () => (findings ??= [...first(), ...more()]));
}

/** The findings of a definition's put-off check, run the first time it is asked; none: none put off. */
export function runDeferredCheck(definition: ResourceDefinition): readonly Finding[] | undefined {
  return deferred.get(definition)?.();
}

/**
 * Whether a definition's check is put off and has not run: nothing of its schema (its CEL rules
 * included) has been compiled, and nothing will be until something uses it.
 */
export function isCheckPending(definition: ResourceDefinition): boolean {
  return pending.has(definition);
}
