/**
 * Kyverno's policies, checked as Kyverno checks them when they are written, beyond what their
 * CRDs' schemas say: of `kyverno.io`, a `ClusterPolicy`'s or `Policy`'s spec and rules
 * (`kyverno-policy-spec.ts`, `kyverno-rules.ts`) and variables (`kyverno-variables.ts`), a cleanup
 * policy (`kyverno-cleanup-policies.ts`) and a policy exception (`kyverno-policy-exceptions.ts`);
 * of `policies.kyverno.io`, its CEL policies (`kyverno-cel-policies.ts`).
 */

import type { SchemaProblem } from '../schema-problem.js';
import { cleanupPolicyProblems } from './kyverno-cleanup-policies.js';
import { policyExceptionProblems } from './kyverno-policy-exceptions.js';
import type { ClusterScope } from './kyverno-match.js';
import { isKyvernoCelPolicy, kyvernoCelPolicyProblems } from './kyverno-cel-policies.js';
import { kyvernoPolicySpecProblems } from './kyverno-policy-spec.js';
import {
  holdsKyvernoRules,
  holdsKyvernoVariables,
  kyvernoVariableProblems,
} from './kyverno-variables.js';

const GROUP = 'kyverno.io';
const CLEANUP_KINDS = new Set(['CleanupPolicy', 'ClusterCleanupPolicy']);

/** Whether a document of `group`/`kind` is one of Kyverno's policies checked here. */
export function isKyvernoPolicy(group: string, kind: string): boolean {
  return (
    holdsKyvernoVariables(group, kind) ||
    (group === GROUP && kind === 'PolicyException') ||
    isKyvernoCelPolicy(group, kind)
  );
}

/**
 * The problems of one of Kyverno's policies (see above); `isClusterScoped` tells the scope of the
 * kinds it names.
 */
export function kyvernoPolicyProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
  isClusterScoped: ClusterScope,
): SchemaProblem[] {
  if (isKyvernoCelPolicy(group, kind)) return kyvernoCelPolicyProblems(document, kind);
  if (group !== GROUP) return [];
  if (kind === 'PolicyException') return policyExceptionProblems(document, isClusterScoped);
  return [
    ...(holdsKyvernoVariables(group, kind) ? kyvernoVariableProblems(document) : []),
    ...(holdsKyvernoRules(group, kind)
      ? kyvernoPolicySpecProblems(document, kind, isClusterScoped)
      : []),
    ...(CLEANUP_KINDS.has(kind) ? cleanupPolicyProblems(document, kind, isClusterScoped) : []),
  ];
}
