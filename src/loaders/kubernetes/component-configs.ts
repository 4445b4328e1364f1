/**
 * Kinds that look like Kubernetes objects but are configuration files read by a component
 * (`KubeletConfiguration`, kube-apiserver's `AdmissionConfiguration`, kubeadm's
 * `ClusterConfiguration`, a kubeconfig's `v1 Config`) or messages to a webhook
 * (`AdmissionReview`): they are never applied to an API server, so no CustomResourceDefinition
 * can define them (their groups are Kubernetes' own).
 */

/** The component that reads a group's files, by the group (exact). */
const COMPONENTS: ReadonlyMap<string, string> = new Map([
  ['kubelet.config.k8s.io', 'the kubelet'],
  ['credentialprovider.kubelet.k8s.io', "the kubelet's image credential provider"],
  ['kubeproxy.config.k8s.io', 'kube-proxy'],
  ['kubescheduler.config.k8s.io', 'kube-scheduler'],
  ['kubecontrollermanager.config.k8s.io', 'kube-controller-manager'],
  ['cloudcontrollermanager.config.k8s.io', 'cloud-controller-manager'],
  ['apiserver.config.k8s.io', 'kube-apiserver'],
  ['apiserver.k8s.io', 'kube-apiserver'],
  ['audit.k8s.io', "kube-apiserver's audit log"],
  ['pod-security.admission.config.k8s.io', "kube-apiserver's PodSecurity admission"],
  ['eventratelimit.admission.k8s.io', "kube-apiserver's EventRateLimit admission"],
  ['kubeadm.k8s.io', 'kubeadm'],
  ['bootstrap.kubeadm.k8s.io', 'kubeadm'],
  ['output.kubeadm.k8s.io', 'kubeadm'],
  ['kubectl.config.k8s.io', 'kubectl (kuberc)'],
  ['client.authentication.k8s.io', "kubectl's credential plugins"],
  ['kind.x-k8s.io', 'kind'],
  // Not Kubernetes' own: policy tests, which no CRD defines.
  [
    'test.gatekeeper.sh',
    "Gatekeeper's gator (a policy test: gator verify DIR; a walked directory's suite.yaml is set aside)",
  ],
  [
    'cli.kyverno.io',
    "Kyverno's CLI (a policy test or its values: kyverno test DIR; a walked directory's kyverno-test.yaml is set aside)",
  ],
]);

/**
 * Kinds of other projects' groups that are the project's own configuration file, not a resource
 * (the group's other kinds are CRDs), by `group/kind`.
 */
const COMPONENT_KINDS: ReadonlyMap<string, string> = new Map([
  [
    'gateway.envoyproxy.io/EnvoyGateway',
    'Envoy Gateway (envoy-gateway.yaml, which its Helm chart puts in the envoy-gateway-config ConfigMap)',
  ],
]);

/** Groups of messages sent to webhooks, which look like objects and are never applied. */
const PAYLOADS: ReadonlyMap<string, string> = new Map([
  ['admission.k8s.io', "an admission webhook's request and response"],
  ['imagepolicy.k8s.io', "an image policy webhook's request"],
]);

/**
 * What a document of this group and kind is when it is no object of a cluster ("a configuration
 * file read by the kubelet", "an admission webhook's request and response"), if it is one.
 */
export function notAnObject(group: string, kind: string): string | undefined {
  const payload = PAYLOADS.get(group);
  if (payload !== undefined) return payload;
  const component =
    group === '' && kind === 'Config'
      ? 'kubectl (a kubeconfig)'
      : (COMPONENTS.get(group) ??
        COMPONENT_KINDS.get(`${group}/${kind}`) ??
        (group.endsWith('.config.k8s.io') ? 'a Kubernetes component' : undefined));
  return component === undefined ? undefined : `a configuration file read by ${component}`;
}
