/**
 * The built-in API versions a Kubernetes API server does not serve unless it is started with them
 * (`--runtime-config`): every alpha version, and the beta versions introduced since 1.24, which
 * are off by default (KEP-3136). The vendored OpenAPI documents list them all, as they are made
 * with `--runtime-config=api/all=true`; a manifest of one is refused by a stock cluster (`no
 * matches for kind "ValidatingAdmissionPolicy" in version "admissionregistration.k8s.io/v1beta1"`).
 * A warning, not an error: a cluster may enable them.
 */

import type { SchemaProblem } from '../schema-problem.js';
import { apiWarning } from './api-warnings.js';

/**
 * The beta group-versions every supported release (1.28 on) has off by default; the betas
 * these groups once served by default (`networking.k8s.io/v1beta1` Ingress, ...) were removed
 * before 1.28.
 */
const DEFAULT_OFF_BETAS = new Set([
  'admissionregistration.k8s.io/v1beta1',
  'certificates.k8s.io/v1beta1',
  'coordination.k8s.io/v1beta1',
  'networking.k8s.io/v1beta1',
  'resource.k8s.io/v1beta1',
  'resource.k8s.io/v1beta2',
  'storage.k8s.io/v1beta1',
  'storagemigration.k8s.io/v1beta1',
]);

/** A warning when a built-in document's `apiVersion` is one a default API server does not serve. */
export function defaultOffApiProblems(document: Record<string, unknown>): SchemaProblem[] {
  const apiVersion = document.apiVersion;
  if (typeof apiVersion !== 'string') return [];
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  const alpha = /alpha/.test(version);
  if (!alpha && !DEFAULT_OFF_BETAS.has(apiVersion)) return [];
  const what = alpha ? 'an alpha API' : 'a beta API that is off by default';
  return [
    apiWarning(
      ['apiVersion'],
      `${apiVersion} is ${what}: an API server serves it only when started with --runtime-config=${apiVersion}=true, else it refuses the object (no matches for kind ${String(document.kind)} in version ${apiVersion})`,
    ),
  ];
}
