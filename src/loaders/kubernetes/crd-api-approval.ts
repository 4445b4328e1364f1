/**
 * The API approval a CRD in a protected Kubernetes group needs (`api-approved.kubernetes.io`,
 * kubernetes/enhancements#1111).
 */

/** The annotation a CRD of a Kubernetes community group needs (kubernetes/enhancements#1111). */
export const API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';

/**
 * Why the API server refuses a CRD in a protected group (`k8s.io`, `kubernetes.io` and their
 * subdomains) for want of an approval: `api-approved.kubernetes.io` must be a URL (of the
 * approving pull request) or a reason starting with `unapproved`. Undefined when it is fine.
 */
export function apiApprovalProblem(group: string, metadata: unknown): string | undefined {
  const isProtected = ['k8s.io', 'kubernetes.io'].some(
    (domain) => group === domain || group.endsWith(`.${domain}`),
  );
  if (!isProtected) return undefined;
  const annotations =
    typeof metadata === 'object' && metadata !== null
      ? (metadata as { annotations?: unknown }).annotations
      : undefined;
  const value =
    typeof annotations === 'object' && annotations !== null
      ? (annotations as Record<string, unknown>)[API_APPROVED_ANNOTATION]
      : undefined;
  if (typeof value === 'string' && (value.startsWith('unapproved') || isAbsoluteUrl(value))) {
    return undefined;
  }
  return `the group ${group} is a protected Kubernetes group: a CustomResourceDefinition in it needs the annotation ${API_APPROVED_ANNOTATION} with the URL of its approval or a reason starting with "unapproved" (https://github.com/kubernetes/enhancements/pull/1111)`;
}

function isAbsoluteUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol !== '' && url.host !== '';
  } catch {
    return false;
  }
}
