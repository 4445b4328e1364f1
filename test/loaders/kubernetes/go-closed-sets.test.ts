import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { closedSetsFor } from '../../../src/loaders/kubernetes/builtin-closed-sets.js';
import {
  KUBERNETES_RELEASES,
  type KubernetesRelease,
} from '../../../src/loaders/kubernetes/kubernetes-release.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * The closed sets Kubernetes checks in Go code: the `+enum` fields of built-in kinds, published as
 * OpenAPI enums only from 1.34 (earlier releases get the same sets), and the restart policies
 * of workloads' pod templates (apps and batch validation), with the API server's messages.
 */

const where = (f: Finding) => [f.code, f.line, f.col, f.pointer, f.message];

const load = (text: string, kubernetesVersion?: KubernetesRelease) =>
  loadManifests([{ path: 'app.yaml', text }], kubernetesVersion ? { kubernetesVersion } : {});

const pod = (spec: string) => `apiVersion: v1
kind: Pod
metadata: { name: p }
spec:
${spec}`;

const workload = (apiVersion: string, kind: string, podSpec: string) => `apiVersion: ${apiVersion}
kind: ${kind}
metadata: { name: w }
spec:
  selector: ${kind === 'ReplicationController' ? '{ app: w }' : '{ matchLabels: { app: w } }'}
  ${kind === 'StatefulSet' ? 'serviceName: w' : 'minReadySeconds: 0'}
  template:
    metadata: { labels: { app: w } }
    spec:
${podSpec}
      containers: [{ name: c, image: nginx }]
`;

describe('closed sets of built-in kinds before Kubernetes 1.34', () => {
  it('are taken from 1.34 for the older releases only', () => {
    expect(closedSetsFor('1.34').size).toBe(0);
    expect(closedSetsFor('1.36').size).toBe(0);
    const sets = closedSetsFor('1.28');
    expect(sets.get('io.k8s.api.core.v1.PodSpec/restartPolicy')).toEqual({
      enum: ['Always', 'Never', 'OnFailure'],
    });
    expect(sets.get('io.k8s.api.core.v1.ContainerPort/protocol')).toEqual({
      enum: ['SCTP', 'TCP', 'UDP'],
    });
  });

  it.each(KUBERNETES_RELEASES)(
    'refuse protocol: tcp, imagePullPolicy: Sometimes and dnsPolicy: Cluster in %s, as its API server does',
    (release) => {
      const { findings } = load(
        pod(`  dnsPolicy: Cluster
  containers:
    - name: c
      image: nginx
      imagePullPolicy: Sometimes
      ports: [{ containerPort: 80, protocol: tcp }]
`),
        release,
      );
      expect(findings.map(where)).toEqual([
        [
          'schema-violation',
          5,
          14,
          '/spec/dnsPolicy',
          'Unsupported value: "Cluster": supported values: "ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"',
        ],
        [
          'schema-violation',
          9,
          24,
          '/spec/containers/0/imagePullPolicy',
          'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
        ],
        [
          'schema-violation',
          10,
          46,
          '/spec/containers/0/ports/0/protocol',
          'Unsupported value: "tcp": supported values: "SCTP", "TCP", "UDP"',
        ],
      ]);
    },
  );

  it('accept the values of the set in an older release', () => {
    const { findings } = load(
      pod(`  restartPolicy: OnFailure
  dnsPolicy: ClusterFirst
  containers: [{ name: c, image: nginx, imagePullPolicy: IfNotPresent, ports: [{ containerPort: 80, protocol: UDP }] }]
`),
      '1.30',
    );
    expect(findings).toEqual([]);
  });

  it('check a Service type and a list of items with a set (ipFamilies) in 1.29', () => {
    const { findings } = load(
      `apiVersion: v1
kind: Service
metadata: { name: s }
spec:
  type: Public
  ipFamilies: [IPv4, IPv5]
  ports: [{ port: 80 }]
`,
      '1.29',
    );
    expect(findings.map((f) => [f.pointer, f.message])).toEqual([
      [
        '/spec/type',
        'Unsupported value: "Public": supported values: "ClusterIP", "ExternalName", "LoadBalancer", "NodePort"',
      ],
      ['/spec/ipFamilies/1', 'Unsupported value: "IPv5": supported values: "IPv4", "IPv6"'],
    ]);
  });

  it("take an ipFamily as Go validation does: not the enum's empty zero value, which the OpenAPI lists", () => {
    for (const release of ['1.29', '1.36'] as const) {
      const { findings } = load(
        'apiVersion: v1\nkind: Service\nmetadata: { name: s }\nspec:\n  ipFamilies: [""]\n  ports: [{ port: 80 }]\n',
        release,
      );
      expect(findings.map((f) => [f.pointer, f.message])).toEqual([
        ['/spec/ipFamilies/0', 'Unsupported value: "": supported values: "IPv4", "IPv6"'],
      ]);
    }
  });
});

describe("workloads' restart policies (Go validation of apps and batch)", () => {
  it.each([
    ['apps/v1', 'Deployment'],
    ['apps/v1', 'ReplicaSet'],
    ['apps/v1', 'StatefulSet'],
    ['apps/v1', 'DaemonSet'],
    ['v1', 'ReplicationController'],
  ])('%s %s runs its pods Always: OnFailure is refused', (apiVersion, kind) => {
    const { findings } = load(workload(apiVersion, kind, '      restartPolicy: OnFailure'));
    expect(findings.map((f) => [f.line, f.col, f.pointer, f.message])).toEqual([
      [
        10,
        22,
        '/spec/template/spec/restartPolicy',
        'Unsupported value: "OnFailure": supported values: "Always"',
      ],
    ]);
  });

  it('a Deployment with no restartPolicy (it defaults to Always) or Always is fine', () => {
    expect(load(workload('apps/v1', 'Deployment', '      restartPolicy: Always')).findings).toEqual(
      [],
    );
    expect(load(workload('apps/v1', 'Deployment', '      hostname: h')).findings).toEqual([]);
  });

  const job = (podSpec: string) => `apiVersion: batch/v1
kind: Job
metadata: { name: j }
spec:
  template:
    spec:
${podSpec}
      containers: [{ name: c, image: busybox }]
`;

  it('a Job needs OnFailure or Never: none (which defaults to Always) and Always are required errors', () => {
    for (const spec of ['      hostname: h', '      restartPolicy: Always']) {
      expect(load(job(spec)).findings.map((f) => [f.pointer, f.message])).toEqual([
        ['/spec/template/spec/restartPolicy', 'Required value: valid values: "OnFailure", "Never"'],
      ]);
    }
    expect(load(job('      restartPolicy: Never')).findings).toEqual([]);
    expect(load(job('      restartPolicy: OnFailure')).findings).toEqual([]);
  });

  it("a CronJob's job template is checked as a Job's", () => {
    const text = `apiVersion: batch/v1
kind: CronJob
metadata: { name: c }
spec:
  schedule: "* * * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: Sometimes
          containers: [{ name: c, image: busybox }]
`;
    expect(load(text).findings.map((f) => [f.pointer, f.message])).toEqual([
      [
        '/spec/jobTemplate/spec/template/spec/restartPolicy',
        'Unsupported value: "Sometimes": supported values: "Always", "Never", "OnFailure"',
      ],
      [
        '/spec/jobTemplate/spec/template/spec/restartPolicy',
        'Unsupported value: "Sometimes": supported values: "OnFailure", "Never"',
      ],
    ]);
  });
});

describe('an empty string in a field the API server defaults', () => {
  it('is the default, as Go reads "" as unset before it validates (SetDefaults_Container, ...)', () => {
    const text = `apiVersion: apps/v1
kind: Deployment
metadata: { name: d }
spec:
  selector: { matchLabels: { app: d } }
  strategy: { type: "" }
  template:
    metadata: { labels: { app: d } }
    spec:
      restartPolicy: ""
      dnsPolicy: ""
      containers:
        - name: c
          image: nginx
          imagePullPolicy: ""
          terminationMessagePolicy: ""
          ports: [{ containerPort: 80, protocol: "" }]
          readinessProbe: { httpGet: { port: 80, scheme: "" } }
---
apiVersion: v1
kind: Service
metadata: { name: s }
spec:
  type: ""
  sessionAffinity: ""
  selector: { app: d }
  ports: [{ port: 80, protocol: "", targetPort: "" }]
`;
    for (const release of ['1.30', '1.36'] as const) {
      expect([release, load(text, release).findings.map(where)]).toEqual([release, []]);
    }
  });

  it('stays an error in a field Go does not default from "" (a pointer), and in a Job a policy it needs', () => {
    const text = `apiVersion: batch/v1
kind: Job
metadata: { name: j }
spec:
  completionMode: ""
  template:
    spec:
      restartPolicy: ""
      containers: [{ name: c, image: busybox }]
`;
    expect(load(text).findings.map((f) => [f.pointer, f.message])).toEqual([
      ['/spec/completionMode', 'Unsupported value: "": supported values: "Indexed", "NonIndexed"'],
      ['/spec/template/spec/restartPolicy', 'Required value: valid values: "OnFailure", "Never"'],
    ]);
  });
});
