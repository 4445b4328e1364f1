/**
 * Kubernetes' resource names, as k8s.io/kubernetes `pkg/apis/core/helper` sorts them: the
 * standard ones (`cpu`, `requests.memory`, `pods`, ...), those a container may request (`cpu`,
 * `memory`, `ephemeral-storage`, huge pages), native ones (unprefixed, or `kubernetes.io/`),
 * extended ones (any other prefix, as `nvidia.com/gpu`: whole numbers, never overcommitted), and
 * `validateContainerResourceName`'s verdict on a container's (or a LimitRange's) resource name.
 */

import { qualifiedNameProblems } from './label-syntax.js';

/** `standardResources`: what an unprefixed resource name may be. */
export const STANDARD_RESOURCES: ReadonlySet<string> = new Set([
  'cpu',
  'memory',
  'ephemeral-storage',
  'requests.cpu',
  'requests.memory',
  'requests.ephemeral-storage',
  'limits.cpu',
  'limits.memory',
  'limits.ephemeral-storage',
  'pods',
  'resourcequotas',
  'services',
  'replicationcontrollers',
  'secrets',
  'configmaps',
  'persistentvolumeclaims',
  'storage',
  'requests.storage',
  'services.nodeports',
  'services.loadbalancers',
]);

const STANDARD_CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

/** `IsHugePageResourceName`. */
export function isHugePages(name: string): boolean {
  return name.startsWith('hugepages-');
}

/** `IsNativeResource`: unprefixed, or in `kubernetes.io/`. */
export function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** `IsExtendedResourceName`: another prefix, and a qualified name as `requests.<name>`. */
export function isExtendedResource(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return qualifiedNameProblems(`requests.${name}`).length === 0;
}

/** `IsOvercommitAllowed`: a native resource but huge pages. */
export function overcommitAllowed(name: string): boolean {
  return isNativeResource(name) && !isHugePages(name);
}

/** `validateResourceName`: a qualified name; unprefixed, a standard resource (or huge pages). */
export function resourceNameProblems(name: string): string[] {
  const problems = qualifiedNameProblems(name);
  if (problems.length > 0) return problems;
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isQuotaHugePages(name)) {
    return ['must be a standard resource type or fully qualified'];
  }
  return [];
}

/** `IsQuotaHugePageResourceName`: `hugepages-` or `requests.hugepages-`. */
export function isQuotaHugePages(name: string): boolean {
  return isHugePages(name) || name.startsWith('requests.hugepages-');
}

/** `validateContainerResourceName`: what a container (or LimitRange) may name. */
export function containerResourceNameProblems(name: string): string[] {
  const problems = resourceNameProblems(name);
  if (!name.includes('/')) {
    if (!STANDARD_CONTAINER_RESOURCES.has(name) && !isHugePages(name)) {
      problems.push('must be a standard resource for containers');
    }
  } else if (!isNativeResource(name) && !isExtendedResource(name)) {
    problems.push("doesn't follow extended resource name standard");
  }
  return problems;
}
