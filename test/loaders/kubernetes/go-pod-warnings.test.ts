import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { goFieldPath } from '../../../src/loaders/kubernetes/go-field-error.js';

/**
 * What the API server warns of when it takes a pod or a pod template (k8s.io/kubernetes
 * `pkg/api/pod/warnings.go`): kubectl prints each as `Warning: <field>: <message>`. The messages
 * are upstream's `warnings_test.go` expectations.
 */

const warnings = (text: string) =>
  loadManifests([{ path: 'pods.yaml', text }])
    .findings.filter((f: Finding) => f.code === 'api-warning')
    .map((f: Finding) => [f.pointer, f.message]);
const codes = (text: string) =>
  loadManifests([{ path: 'pods.yaml', text }]).findings.map((f: Finding) => [f.code, f.severity]);

const deployment = (spec: string, annotations = '{}') => `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web }, annotations: ${annotations} }
    spec:
${spec}`;

describe("the API server's warnings for a pod (GetWarningsForPod, GetWarningsForPodTemplate)", () => {
  it("are none for a pod written as today's docs write one", () => {
    expect(
      codes(
        deployment(`      nodeSelector: { kubernetes.io/os: linux }
      securityContext: { seccompProfile: { type: RuntimeDefault } }
      topologySpreadConstraints:
        - { maxSkew: 1, topologyKey: topology.kubernetes.io/zone, whenUnsatisfiable: DoNotSchedule, labelSelector: { matchLabels: { app: web } } }
      containers:
        - name: web
          image: nginx
          ports: [{ containerPort: 80 }]
          resources: { limits: { memory: 128Mi, ephemeral-storage: 1Gi } }
        - name: sidecar
          image: envoy
          ports: [{ containerPort: 9901 }]
`),
      ),
    ).toEqual([]);
  });

  it('are warnings, failing only --strict, at the field they name', () => {
    const text = deployment(`      nodeSelector: { beta.kubernetes.io/os: linux }
      containers: [{ name: web, image: nginx }]
`);
    expect(codes(text)).toEqual([['api-warning', 'warning']]);
    expect(warnings(text)).toEqual([
      [
        '/spec/template/spec/nodeSelector/beta.kubernetes.io~1os',
        'deprecated since v1.14; use "kubernetes.io/os" instead',
      ],
    ]);
  });

  it('name deprecated node labels in selectors, affinity and spread constraints, and null selectors', () => {
    expect(
      warnings(
        deployment(`      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
              - matchExpressions: [{ key: failure-domain.beta.kubernetes.io/zone, operator: In, values: [a] }]
          preferredDuringSchedulingIgnoredDuringExecution:
            - weight: 1
              preference:
                matchExpressions: [{ key: beta.kubernetes.io/instance-type, operator: In, values: [m5] }]
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            - topologyKey: kubernetes.io/hostname
      topologySpreadConstraints:
        - { maxSkew: 1, topologyKey: failure-domain.beta.kubernetes.io/region, whenUnsatisfiable: ScheduleAnyway }
      containers: [{ name: web, image: nginx }]
`),
      ),
    ).toEqual([
      [
        '/spec/template/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/matchExpressions/0/key',
        'failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      ],
      [
        '/spec/template/spec/affinity/nodeAffinity/preferredDuringSchedulingIgnoredDuringExecution/0/preference/matchExpressions/0/key',
        'beta.kubernetes.io/instance-type is deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
      ],
      [
        '/spec/template/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/0/labelSelector',
        'a null labelSelector results in matching no pod',
      ],
      // A missing selector is placed at its constraint, before the key in it.
      [
        '/spec/template/spec/topologySpreadConstraints/0/labelSelector',
        'a null labelSelector results in matching no pod',
      ],
      [
        '/spec/template/spec/topologySpreadConstraints/0/topologyKey',
        'failure-domain.beta.kubernetes.io/region is deprecated since v1.17; use "topology.kubernetes.io/region" instead',
      ],
    ]);
  });

  it('name deprecated annotations and volume plugins, empty pull secrets, fractional bytes and a negative grace period', () => {
    expect(
      warnings(
        deployment(
          `      terminationGracePeriodSeconds: -1
      imagePullSecrets: [{ name: "" }]
      containers:
        - name: web
          image: nginx
          resources: { limits: { memory: "1.5", ephemeral-storage: 0.9999 }, requests: { memory: 500m } }
      volumes:
        - { name: repo, gitRepo: { repository: "https://example.com/repo.git" } }
        - { name: ceph, cephfs: { monitors: [10.0.0.1] } }
`,
          '{ scheduler.alpha.kubernetes.io/critical-pod: "", seccomp.security.alpha.kubernetes.io/pod: runtime/default, container.apparmor.security.beta.kubernetes.io/web: runtime/default }',
        ),
      ),
    ).toEqual([
      [
        '/spec/template/metadata/annotations/scheduler.alpha.kubernetes.io~1critical-pod',
        'non-functional in v1.16+; use the "priorityClassName" field instead',
      ],
      [
        '/spec/template/metadata/annotations/seccomp.security.alpha.kubernetes.io~1pod',
        'non-functional in v1.27+; use the "seccompProfile" field instead',
      ],
      [
        '/spec/template/metadata/annotations/container.apparmor.security.beta.kubernetes.io~1web',
        'deprecated since v1.30; use the "appArmorProfile" field instead',
      ],
      [
        '/spec/template/spec/terminationGracePeriodSeconds',
        'must be >= 0; negative values are invalid and will be treated as 1',
      ],
      ['/spec/template/spec/imagePullSecrets/0/name', 'invalid empty name ""'],
      [
        '/spec/template/spec/containers/0/resources/limits/memory',
        'fractional byte value "1500m" is invalid, must be an integer',
      ],
      [
        '/spec/template/spec/containers/0/resources/requests/memory',
        'fractional byte value "500m" is invalid, must be an integer',
      ],
      [
        '/spec/template/spec/volumes/0/gitRepo',
        'deprecated in v1.11, and disabled by default in v1.33+',
      ],
      ['/spec/template/spec/volumes/1/cephfs', 'deprecated in v1.28, non-functional in v1.31+'],
    ]);
  });

  it("name a Pod's AppArmor annotation the API server copies to the container's field, or cannot", () => {
    const pod = (annotations: string, securityContext = '{}') => `---
apiVersion: v1
kind: Pod
metadata: { name: p, annotations: ${annotations} }
spec:
  securityContext: ${securityContext}
  containers: [{ name: web, image: nginx }, { name: log, image: fluentd, securityContext: { appArmorProfile: { type: Unconfined } } }]
`;
    const key = 'container.apparmor.security.beta.kubernetes.io';
    expect(
      warnings(
        pod(`{ ${key}/web: localhost/deny-write, ${key}/log: unconfined }`) +
          pod(`{ ${key}/web: apparmor }`) +
          // The same profile as the pod's is not copied, and not warned of.
          pod(`{ ${key}/web: runtime/default }`, '{ appArmorProfile: { type: RuntimeDefault } }'),
      ),
    ).toEqual([
      [
        `/metadata/annotations/${key}~1web`,
        'deprecated since v1.30; use the "appArmorProfile" field instead',
      ],
      [
        `/metadata/annotations/${key}~1web`,
        'deprecated since v1.30; use the "appArmorProfile" field instead',
      ],
    ]);
  });

  it('name ports two containers define alike, and a hostIP without a hostPort', () => {
    expect(
      warnings(
        deployment(`      containers:
        - name: a
          image: nginx
          ports: [{ containerPort: 80 }, { containerPort: 443, hostPort: 443 }, { containerPort: 53, protocol: UDP, hostIP: 10.0.0.1 }]
        - name: b
          image: nginx
          ports: [{ containerPort: 80, protocol: TCP }, { containerPort: 443, hostPort: 443, hostIP: 10.0.0.2 }]
`),
      ),
    ).toEqual([
      [
        '/spec/template/spec/containers/0/ports/2',
        'hostIP set without hostPort: {Name: HostPort:0 ContainerPort:53 Protocol:UDP HostIP:10.0.0.1}',
      ],
      [
        '/spec/template/spec/containers/1/ports/0',
        'duplicate port definition with spec.template.spec.containers[0].ports[0]',
      ],
      [
        '/spec/template/spec/containers/1/ports/1',
        'dangerously ambiguous port definition with spec.template.spec.containers[0].ports[1]',
      ],
    ]);
  });

  it('name paths two items of a volume write alike, or one inside the other', () => {
    expect(
      warnings(
        deployment(`      containers: [{ name: web, image: nginx }]
      volumes:
        - name: config
          configMap: { name: app, items: [{ key: a, path: conf }, { key: b, path: conf/extra }] }
        - name: all
          projected:
            sources:
              - secret: { name: tls, items: [{ key: tls.crt, path: tls/cert }] }
              - configMap: { name: ca, items: [{ key: ca.crt, path: tls/cert/ }] }
`),
      ),
    ).toEqual([
      [
        '/spec/template/spec/volumes/0',
        'volume "config" (ConfigMap "app"): overlapping paths: "conf/extra" with "conf"',
      ],
      [
        '/spec/template/spec/volumes/1',
        'volume "all" (Projected): overlapping paths: "tls/cert" (ConfigMap "ca") with "tls/cert" (Secret "tls")',
      ],
    ]);
  });

  it('compare paths of long runs of slashes in linear time', () => {
    // Trailing slashes were trimmed by a pattern that read a run again from each slash.
    const slashes = `${'/'.repeat(100_000)}x/`;
    const started = performance.now();
    const found = warnings(
      deployment(`      containers: [{ name: web, image: nginx }]
      volumes:
        - name: config
          configMap: { name: app, items: [{ key: a, path: "${slashes}" }, { key: b, path: "${slashes}//" }] }
`),
    );
    expect(performance.now() - started).toBeLessThan(3000);
    expect(found.map(([, message]) => (message ?? '').slice(0, 60))).toEqual([
      'volume "config" (ConfigMap "app"): overlapping paths: "/////',
    ]);
  });

  it("follow upstream's warnings_test.go: sources of a projected volume, port names of serving containers, a claim's storage", () => {
    const pod = (spec: string) =>
      `---\napiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec:\n${spec}`;
    expect(
      warnings(
        pod(`  containers: [{ name: web, image: nginx }]
  volumes:
    - name: foo
      projected:
        sources:
          - clusterTrustBundle: { signerName: Test, path: test/test }
          - downwardAPI: { items: [{ fieldRef: { fieldPath: metadata.name }, path: test }] }
          - secret: { name: Test, items: [{ key: foo, path: test }] }
          - serviceAccountToken: { path: test }
`),
      ).map(([, message]) => message),
    ).toEqual([
      'volume "foo" (Projected): overlapping paths: "test" (DownwardAPI) with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (Secret "Test") with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (Secret "Test") with "test" (DownwardAPI)',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test/test" (ClusterTrustBundle "Test")',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (DownwardAPI)',
      'volume "foo" (Projected): overlapping paths: "test" (ServiceAccountToken) with "test" (Secret "Test")',
    ]);
    expect(
      warnings(
        pod(`  initContainers:
    - { name: foo1, image: envoy, restartPolicy: Always, ports: [{ containerPort: 80, protocol: UDP, name: test }] }
    - { name: setup, image: busybox, ports: [{ containerPort: 81, name: test }] }
  containers:
    - { name: foo, image: nginx, ports: [{ containerPort: 8090, protocol: UDP, name: test1 }, { containerPort: 8092, protocol: UDP, name: test }] }
  volumes:
    - name: ephemeral-volume
      ephemeral:
        volumeClaimTemplate:
          spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 200m } } }
`),
      ),
    ).toEqual([
      [
        '/spec/containers/0/ports/1',
        'duplicate port name "test" with spec.initContainers[0].ports[0], services and probes that select ports by name will use spec.initContainers[0].ports[0]',
      ],
      [
        '/spec/volumes/0/ephemeral/volumeClaimTemplate/spec/resources/requests/storage',
        'fractional byte value "200m" is invalid, must be an integer',
      ],
    ]);
  });

  it('say a gitRepo volume is disabled by default from 1.33, and only deprecated before', () => {
    const text = deployment(`      containers: [{ name: web, image: nginx }]
      volumes: [{ name: repo, gitRepo: { repository: "https://example.com/repo.git" } }]
`);
    const on = (kubernetesVersion: '1.32' | '1.33') =>
      loadManifests([{ path: 'pods.yaml', text }], { kubernetesVersion })
        .findings.filter((f: Finding) => f.code === 'api-warning')
        .map((f: Finding) => f.message);
    expect(on('1.32')).toEqual(['deprecated in v1.11']);
    expect(on('1.33')).toEqual(['deprecated in v1.11, and disabled by default in v1.33+']);
  });

  it("name a workload or pod whose name is no DNS label, as its pods' hostnames come from it (WarningsOnCreate)", () => {
    const named = (kind: string, name: string) =>
      kind === 'Pod'
        ? `---\napiVersion: v1\nkind: Pod\nmetadata: { name: ${name} }\nspec: { containers: [{ name: c, image: nginx }] }\n`
        : `---\napiVersion: apps/v1\nkind: ${kind}\nmetadata: { name: ${name} }\nspec:\n  selector: { matchLabels: { app: a } }\n  template: { metadata: { labels: { app: a } }, spec: { containers: [{ name: c, image: nginx }] } }\n`;
    expect(
      warnings(named('Deployment', 'web.v2') + named('Pod', 'db.0') + named('DaemonSet', 'agent')),
    ).toEqual([
      [
        '/metadata/name',
        'this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
      ],
      [
        '/metadata/name',
        "this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
      ],
    ]);
  });

  it("print a field path as Go's field.Path does", () => {
    expect(goFieldPath(['spec', 'template', 'spec', 'containers', 0, 'ports', 1])).toBe(
      'spec.template.spec.containers[0].ports[1]',
    );
  });
});
