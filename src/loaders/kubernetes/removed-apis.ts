/**
 * APIs Kubernetes has removed, with the release that removed each and what replaces it, from
 * Kubernetes' deprecated API migration guide (kubernetes.io/docs/reference/using-api/
 * deprecation-guide). A document of one is refused with both, as the API server of that release
 * (and every later one) no longer serves it.
 */

/** A removed group, version and kind. */
export interface RemovedApi {
  /** The release that stopped serving it: `1.22`. */
  readonly removedIn: string;
  /** What to write instead (`networking.k8s.io/v1`), or what to do when nothing replaces it. */
  readonly replacement: string;
}

/** `[apiVersion, kinds, removedIn, replacement]`; a replacement without a space is an apiVersion. */
const TABLE: readonly (readonly [string, readonly string[], string, string])[] = [
  ['extensions/v1beta1', ['Deployment', 'DaemonSet', 'ReplicaSet'], '1.16', 'apps/v1'],
  ['extensions/v1beta1', ['NetworkPolicy'], '1.16', 'networking.k8s.io/v1'],
  ['extensions/v1beta1', ['PodSecurityPolicy'], '1.16', 'policy/v1beta1'],
  ['extensions/v1beta1', ['Ingress'], '1.22', 'networking.k8s.io/v1'],
  ['apps/v1beta1', ['Deployment', 'StatefulSet', 'ControllerRevision'], '1.16', 'apps/v1'],
  [
    'apps/v1beta2',
    ['Deployment', 'DaemonSet', 'ReplicaSet', 'StatefulSet', 'ControllerRevision'],
    '1.16',
    'apps/v1',
  ],
  [
    'admissionregistration.k8s.io/v1beta1',
    ['MutatingWebhookConfiguration', 'ValidatingWebhookConfiguration'],
    '1.22',
    'admissionregistration.k8s.io/v1',
  ],
  ['apiextensions.k8s.io/v1beta1', ['CustomResourceDefinition'], '1.22', 'apiextensions.k8s.io/v1'],
  ['apiregistration.k8s.io/v1beta1', ['APIService'], '1.22', 'apiregistration.k8s.io/v1'],
  ['authentication.k8s.io/v1beta1', ['TokenReview'], '1.22', 'authentication.k8s.io/v1'],
  [
    'authorization.k8s.io/v1beta1',
    ['SubjectAccessReview', 'LocalSubjectAccessReview', 'SelfSubjectAccessReview'],
    '1.22',
    'authorization.k8s.io/v1',
  ],
  ['certificates.k8s.io/v1beta1', ['CertificateSigningRequest'], '1.22', 'certificates.k8s.io/v1'],
  ['coordination.k8s.io/v1beta1', ['Lease'], '1.22', 'coordination.k8s.io/v1'],
  ['networking.k8s.io/v1beta1', ['Ingress', 'IngressClass'], '1.22', 'networking.k8s.io/v1'],
  [
    'rbac.authorization.k8s.io/v1beta1',
    ['ClusterRole', 'ClusterRoleBinding', 'Role', 'RoleBinding'],
    '1.22',
    'rbac.authorization.k8s.io/v1',
  ],
  ['scheduling.k8s.io/v1beta1', ['PriorityClass'], '1.22', 'scheduling.k8s.io/v1'],
  [
    'storage.k8s.io/v1beta1',
    ['CSIDriver', 'CSINode', 'StorageClass', 'VolumeAttachment'],
    '1.22',
    'storage.k8s.io/v1',
  ],
  ['batch/v1beta1', ['CronJob'], '1.25', 'batch/v1'],
  ['discovery.k8s.io/v1beta1', ['EndpointSlice'], '1.25', 'discovery.k8s.io/v1'],
  ['events.k8s.io/v1beta1', ['Event'], '1.25', 'events.k8s.io/v1'],
  ['autoscaling/v2beta1', ['HorizontalPodAutoscaler'], '1.25', 'autoscaling/v2'],
  ['policy/v1beta1', ['PodDisruptionBudget'], '1.25', 'policy/v1'],
  [
    'policy/v1beta1',
    ['PodSecurityPolicy'],
    '1.25',
    'nothing: Pod Security Admission replaces it (namespace labels pod-security.kubernetes.io/*)',
  ],
  ['node.k8s.io/v1beta1', ['RuntimeClass'], '1.25', 'node.k8s.io/v1'],
  [
    'flowcontrol.apiserver.k8s.io/v1beta1',
    ['FlowSchema', 'PriorityLevelConfiguration'],
    '1.26',
    'flowcontrol.apiserver.k8s.io/v1',
  ],
  ['autoscaling/v2beta2', ['HorizontalPodAutoscaler'], '1.26', 'autoscaling/v2'],
  ['storage.k8s.io/v1beta1', ['CSIStorageCapacity'], '1.27', 'storage.k8s.io/v1'],
  [
    'flowcontrol.apiserver.k8s.io/v1beta2',
    ['FlowSchema', 'PriorityLevelConfiguration'],
    '1.29',
    'flowcontrol.apiserver.k8s.io/v1',
  ],
  [
    'flowcontrol.apiserver.k8s.io/v1beta3',
    ['FlowSchema', 'PriorityLevelConfiguration'],
    '1.32',
    'flowcontrol.apiserver.k8s.io/v1',
  ],
];

const BY_KEY = new Map<string, RemovedApi>();
for (const [apiVersion, kinds, removedIn, replacement] of TABLE) {
  for (const kind of kinds) BY_KEY.set(`${apiVersion}/${kind}`, { removedIn, replacement });
}

/** A kind's last removal: the apiVersion that served it last, and when and for what. */
const LAST_BY_KIND = new Map<string, RemovedApi & { readonly apiVersion: string }>();
for (const [apiVersion, kinds, removedIn, replacement] of TABLE) {
  for (const kind of kinds) {
    const known = LAST_BY_KIND.get(kind);
    if (known === undefined || isReleaseAtLeast(removedIn, known.removedIn)) {
      LAST_BY_KIND.set(kind, { apiVersion, removedIn, replacement });
    }
  }
}

/**
 * The last removal of a kind in any apiVersion (PodSecurityPolicy: `policy/v1beta1` in 1.25), for
 * a document that names the kind in an apiVersion that never served it (`policy/v1`).
 */
export function lastRemovalOf(
  kind: string,
): (RemovedApi & { readonly apiVersion: string }) | undefined {
  return LAST_BY_KIND.get(kind);
}

/** The removal of an `apiVersion` and kind, if Kubernetes removed it. */
export function removedApi(apiVersion: string, kind: string): RemovedApi | undefined {
  return BY_KEY.get(`${apiVersion}/${kind}`);
}

/** Whether release `a` is `b` or later (`1.9` is before `1.22`). */
export function isReleaseAtLeast(a: string, b: string): boolean {
  const [aMajor = 0, aMinor = 0] = a.split('.').map(Number);
  const [bMajor = 0, bMinor = 0] = b.split('.').map(Number);
  return aMajor > bMajor || (aMajor === bMajor && aMinor >= bMinor);
}
