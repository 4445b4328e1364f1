import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * What the API server checks of a pod's own annotations (k8s.io/kubernetes
 * `pkg/apis/core/validation` `ValidatePodSpecificAnnotations`), on a Pod and on a workload's pod
 * template.
 */

const at = (f: Finding) => [f.pointer, f.message];
/** The errors of a manifest: the API server's warnings (a deprecated annotation) are go-pod-warnings'. */
const load = (text: string) =>
  loadManifests([{ path: 'pods.yaml', text }]).findings.filter((f) => f.code !== 'api-warning');

const pod = (annotations: string, spec = '') => `---
apiVersion: v1
kind: Pod
metadata:
  name: p
  annotations:
${annotations}
spec:
  initContainers: [{ name: setup, image: busybox }]
  containers: [{ name: web, image: nginx }]
${spec}`;

describe("a pod's annotations (ValidatePodSpecificAnnotations)", () => {
  it('take the profiles, costs and containers real pods name', () => {
    expect(
      load(
        pod(
          `    seccomp.security.alpha.kubernetes.io/pod: runtime/default
    container.seccomp.security.alpha.kubernetes.io/web: localhost/profiles/audit.json
    container.apparmor.security.beta.kubernetes.io/web: localhost/k8s-apparmor-example-deny-write
    container.apparmor.security.beta.kubernetes.io/setup: unconfined
    controller.kubernetes.io/pod-deletion-cost: "-100"
    kubernetes.io/config.mirror: mirror`,
          '  nodeName: node-1\n',
        ),
      ),
    ).toEqual([]);
  });

  it('refuse an unknown profile, a path out of the profiles, a container the pod lacks, a cost that is no int32, a mirror without a node', () => {
    expect(
      load(
        pod(`    seccomp.security.alpha.kubernetes.io/pod: default
    container.seccomp.security.alpha.kubernetes.io/web: localhost/../etc/shadow
    container.apparmor.security.beta.kubernetes.io/sidecar: apparmor-profile
    controller.kubernetes.io/pod-deletion-cost: "007"
    kubernetes.io/config.mirror: mirror`),
      ).map(at),
    ).toEqual([
      [
        '/metadata/annotations/seccomp.security.alpha.kubernetes.io~1pod',
        'Invalid value: "default": must be a valid seccomp profile',
      ],
      [
        '/metadata/annotations/container.seccomp.security.alpha.kubernetes.io~1web',
        `Invalid value: "../etc/shadow": must not contain '..'`,
      ],
      [
        '/metadata/annotations/container.apparmor.security.beta.kubernetes.io~1sidecar',
        'Invalid value: "sidecar": container not found',
      ],
      [
        '/metadata/annotations/container.apparmor.security.beta.kubernetes.io~1sidecar',
        'Invalid value: "apparmor-profile": invalid AppArmor profile name: "apparmor-profile"',
      ],
      [
        '/metadata/annotations/controller.kubernetes.io~1pod-deletion-cost',
        'Invalid value: "007": must be a 32bit integer',
      ],
      [
        '/metadata/annotations/kubernetes.io~1config.mirror',
        'Invalid value: "mirror": must set spec.nodeName if mirror pod annotation is set',
      ],
    ]);
  });

  it("are checked in a workload's pod template, against its containers", () => {
    const findings = load(`apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata:
      labels: { app: agent }
      annotations:
        container.apparmor.security.beta.kubernetes.io/agent: runtime/default
        container.apparmor.security.beta.kubernetes.io/agnet: runtime/default
        controller.kubernetes.io/pod-deletion-cost: "2147483648"
    spec:
      containers: [{ name: agent, image: agent }]
`);
    // Findings come in document order.
    expect(findings.map(at)).toEqual([
      [
        '/spec/template/metadata/annotations/container.apparmor.security.beta.kubernetes.io~1agnet',
        'Invalid value: "agnet": container not found',
      ],
      [
        '/spec/template/metadata/annotations/controller.kubernetes.io~1pod-deletion-cost',
        'Invalid value: "2147483648": must be a 32bit integer',
      ],
    ]);
  });
});
