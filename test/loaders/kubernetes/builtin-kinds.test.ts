import { describe, expect, it } from 'vitest';
import { createDefinition } from '../../../src/engine/resource/definition.js';
import type { Finding } from '../../../src/loaders/finding.js';
import {
  BuiltinKinds,
  compareKubeVersions,
} from '../../../src/loaders/kubernetes/builtin-kinds.js';
import {
  KUBERNETES_RELEASES,
  parseKubernetesRelease,
} from '../../../src/loaders/kubernetes/kubernetes-release.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import type { KubernetesRelease } from '../../../src/loaders/kubernetes/kubernetes-release.js';

const where = (f: Finding) => [f.code, f.line, f.col, f.pointer];
const load = (text: string, options: Parameters<typeof loadManifests>[1] = {}) =>
  loadManifests([{ path: 'app.yaml', text }], options);

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: shop
  labels: { app: web }
  creationTimestamp: null
spec:
  replicas: 2
  selector:
    matchLabels: { app: web }
  template:
    metadata:
      labels: { app: web }
    spec:
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 8080
              name: http
          resources:
            limits: { cpu: 0.5, memory: 128Mi }
            requests: { cpu: 100m }
`;

describe('built-in Kubernetes kinds', () => {
  it('load a ConfigMap, a Deployment and a Service with no CRD and no config', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata: { name: settings }
data: { mode: fast }
---
${DEPLOYMENT}---
apiVersion: v1
kind: Service
metadata: { name: web, namespace: shop }
spec:
  selector: { app: web }
  ports: [{ port: 80, targetPort: http }]
`;
    const { resources, findings, registry } = load(text);
    expect(findings).toEqual([]);
    expect(resources.map((r) => r.resource.metadata.type)).toEqual([
      'ConfigMaps.core',
      'Deployments.apps',
      'Services.core',
    ]);
    // Used built-ins are registered, so tables, aliases and -o yaml know them.
    expect(registry.resolve('deploy').type).toBe('Deployments.apps');
    expect(registry.resolve('svc').type).toBe('Services.core');
    expect(registry.resolve('cm').kubernetes).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      namespaced: true,
      // The API server keeps no generation for a ConfigMap; a Deployment's is counted.
      generation: false,
    });
    expect(registry.resolve('deploy').kubernetes?.generation).toBeUndefined();
    expect(resources[1]?.resource.spec).toMatchObject({ spec: { replicas: 2 } });
  });

  it('report each field the API server would refuse, at its line', () => {
    const text = DEPLOYMENT.replace('replicas: 2', 'replicas: "2"')
      .replace('image: nginx:1.27', 'image: nginx:1.27\n          imagePullPolicy: Sometimes')
      .replace('name: http', 'name: http\n              protocl: TCP')
      .replace('memory: 128Mi', 'memory: true');
    const { findings, resources } = load(text);
    expect(resources).toEqual([]);
    expect(findings.map(where)).toEqual([
      ['schema-violation', 9, 13, '/spec/replicas'],
      ['schema-violation', 19, 28, '/spec/template/spec/containers/0/imagePullPolicy'],
      ['schema-violation', 23, 15, '/spec/template/spec/containers/0/ports/0/protocl'],
      ['schema-violation', 25, 41, '/spec/template/spec/containers/0/resources/limits/memory'],
    ]);
    expect(findings[1]?.message).toBe(
      'Unsupported value: "Sometimes": supported values: "Always", "IfNotPresent", "Never"',
    );
    expect(findings[2]?.message).toContain('unknown field "protocl"');
  });

  it('check required fields, int-or-string, int32, base64 and list keys as the API server decodes them', () => {
    const text = `apiVersion: v1
kind: Service
metadata: { name: web }
spec:
  ports:
    - { name: a, port: 80, targetPort: [80] }
    - { name: b, port: 4294967296 }
---
apiVersion: v1
kind: Secret
metadata: { name: token }
data: { good: aGVsbG8=, bad: "not base64!" }
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: empty }
spec: {}
`;
    const { findings } = load(text);
    expect(findings.map((f) => [f.pointer, f.rule])).toEqual([
      ['/spec/ports/0/targetPort', 'x-kubernetes-int-or-string'],
      ['/spec/ports/1/port', 'format'],
      ['/data/bad', 'format'],
      // At the missing field, as the API server's field.Required.
      ['/spec/selector', 'required'],
      ['/spec/template', 'required'],
    ]);
    // In Go's words, where its decoder gives up: the space.
    expect(findings[2]?.message).toBe(
      'illegal base64 data at input byte 3 (the field is bytes, written in base64)',
    );
  });

  it('say when Kubernetes removed an API and what replaces it, one case per group', () => {
    const cases: [string, string, string, string][] = [
      ['extensions/v1beta1', 'Ingress', '1.22', 'networking.k8s.io/v1'],
      ['extensions/v1beta1', 'DaemonSet', '1.16', 'apps/v1'],
      ['apps/v1beta2', 'StatefulSet', '1.16', 'apps/v1'],
      [
        'admissionregistration.k8s.io/v1beta1',
        'ValidatingWebhookConfiguration',
        '1.22',
        'admissionregistration.k8s.io/v1',
      ],
      ['apiregistration.k8s.io/v1beta1', 'APIService', '1.22', 'apiregistration.k8s.io/v1'],
      ['authentication.k8s.io/v1beta1', 'TokenReview', '1.22', 'authentication.k8s.io/v1'],
      ['authorization.k8s.io/v1beta1', 'SubjectAccessReview', '1.22', 'authorization.k8s.io/v1'],
      [
        'certificates.k8s.io/v1beta1',
        'CertificateSigningRequest',
        '1.22',
        'certificates.k8s.io/v1',
      ],
      ['coordination.k8s.io/v1beta1', 'Lease', '1.22', 'coordination.k8s.io/v1'],
      ['networking.k8s.io/v1beta1', 'IngressClass', '1.22', 'networking.k8s.io/v1'],
      ['rbac.authorization.k8s.io/v1beta1', 'ClusterRole', '1.22', 'rbac.authorization.k8s.io/v1'],
      ['scheduling.k8s.io/v1beta1', 'PriorityClass', '1.22', 'scheduling.k8s.io/v1'],
      ['storage.k8s.io/v1beta1', 'StorageClass', '1.22', 'storage.k8s.io/v1'],
      ['batch/v1beta1', 'CronJob', '1.25', 'batch/v1'],
      ['discovery.k8s.io/v1beta1', 'EndpointSlice', '1.25', 'discovery.k8s.io/v1'],
      ['events.k8s.io/v1beta1', 'Event', '1.25', 'events.k8s.io/v1'],
      ['autoscaling/v2beta2', 'HorizontalPodAutoscaler', '1.26', 'autoscaling/v2'],
      ['policy/v1beta1', 'PodDisruptionBudget', '1.25', 'policy/v1'],
      ['node.k8s.io/v1beta1', 'RuntimeClass', '1.25', 'node.k8s.io/v1'],
      [
        'flowcontrol.apiserver.k8s.io/v1beta3',
        'FlowSchema',
        '1.32',
        'flowcontrol.apiserver.k8s.io/v1',
      ],
    ];
    for (const [apiVersion, kind, release, replacement] of cases) {
      const { findings } = load(
        `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata: { name: x }\n`,
      );
      expect(findings.map((f) => [f.code, f.rule, f.pointer])).toEqual([
        ['unknown-type', 'removed-api', '/kind'],
      ]);
      expect(findings[0]?.message).toBe(
        `${kind} of ${apiVersion} was removed in Kubernetes ${release}: use apiVersion: ${replacement}`,
      );
    }
    const psp = load(
      'apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata: { name: x }\n',
    );
    expect(psp.findings[0]?.message).toContain('Pod Security Admission');
  });

  it("say a removed kind is removed when written in an apiVersion that never served it (Istio's sample: policy/v1 PodSecurityPolicy)", () => {
    const psp = load('apiVersion: policy/v1\nkind: PodSecurityPolicy\nmetadata: { name: x }\n');
    expect(psp.findings.map((f) => [f.code, f.rule])).toEqual([['unknown-type', 'removed-api']]);
    expect(psp.findings[0]?.message).toBe(
      'kind PodSecurityPolicy is not served by policy/v1, nor by any apiVersion since Kubernetes 1.25, which removed policy/v1beta1: use nothing: Pod Security Admission replaces it (namespace labels pod-security.kubernetes.io/*)',
    );
  });

  it("ask for no CRD in a group of Kubernetes' own (no dot): none can add a kind there", () => {
    const { findings } = load('apiVersion: apps/v1\nkind: Deploymnet\nmetadata: { name: x }\n');
    expect(findings.map((f) => [f.code, f.rule])).toEqual([['unknown-type', 'builtin-kind']]);
    expect(findings[0]?.message).toMatch(
      /^Kubernetes 1\.\d+ has no kind Deploymnet in apps\/v1, and no CustomResourceDefinition can add one to its group apps \(did you mean kind Deployment of apps\/v1\?\)$/,
    );
    // A group with a dot may be a CRD's, even one Kubernetes serves kinds in.
    const crdGroup = load('apiVersion: example.org/v1\nkind: Widget\nmetadata: { name: x }\n');
    expect(crdGroup.findings[0]?.message).toMatch(
      /^no CustomResourceDefinition defines kind Widget/,
    );
  });

  it('load an API the chosen release still serves, and refuse it in the release that removed it', () => {
    const flowSchema = `apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata: { name: system }
spec:
  priorityLevelConfiguration: { name: exempt }
`;
    expect(load(flowSchema, { kubernetesVersion: '1.31' }).findings).toEqual([]);
    expect(load(flowSchema, { kubernetesVersion: '1.32' }).findings.map((f) => f.rule)).toEqual([
      'removed-api',
    ]);
    // resource.k8s.io/v1 is new in 1.34: an older release does not know it.
    const deviceClass =
      'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: { name: gpu }\nspec: {}\n';
    expect(load(deviceClass).findings).toEqual([]);
    expect(load(deviceClass, { kubernetesVersion: '1.30' }).findings.map((f) => f.code)).toEqual([
      'unknown-type',
    ]);
  });

  it('say which apiVersion serves a kind written with the wrong group or version', () => {
    const { findings } = load(
      'apiVersion: apps/v1\nkind: Ingress\nmetadata: { name: a }\n---\napiVersion: apps/v2\nkind: Deployment\nmetadata: { name: b }\n---\napiVersion: v1\nkind: Deployment\nmetadata: { name: c }\n',
    );
    expect(findings.map((f) => [f.rule, f.message])).toEqual([
      [
        'builtin-kind',
        'kind Ingress is not in apps/v1: Kubernetes 1.36 serves it as networking.k8s.io/v1',
      ],
      ['builtin-kind', 'Kubernetes 1.36 serves kind Deployment of apps as apps/v1, not apps/v2'],
      [
        'builtin-kind',
        'kind Deployment is not in the core group (v1): Kubernetes 1.36 serves it as apps/v1',
      ],
    ]);
  });

  it("ask for the CRD of another project's kind named like a built-in one, not a built-in group", () => {
    const { findings } = load(
      'apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: { name: a }\n---\napiVersion: networking.k8s.io/v1\nkind: Deployment\nmetadata: { name: b }\n---\napiVersion: gateway.networking.k8s.io/v1\nkind: Service\nmetadata: { name: c }\n',
    );
    expect(findings.map((f) => [f.rule, f.message])).toEqual([
      [
        'missing-crd',
        'no CustomResourceDefinition defines kind Service in serving.knative.dev/v1: add one (services.serving.knative.dev) with spec.group: serving.knative.dev, spec.names.kind: Service and a served version v1 (Kubernetes 1.36 also has a kind Service, as v1: another API, unless that is the one meant)',
      ],
      [
        'builtin-kind',
        'kind Deployment is not in networking.k8s.io/v1: Kubernetes 1.36 serves it as apps/v1',
      ],
      [
        'missing-crd',
        'no CustomResourceDefinition defines kind Service in gateway.networking.k8s.io/v1: add one (services.gateway.networking.k8s.io) with spec.group: gateway.networking.k8s.io, spec.names.kind: Service and a served version v1 (Kubernetes 1.36 also has a kind Service, as v1: another API, unless that is the one meant)',
      ],
    ]);
  });

  it('name the preferred version <Plural>.<group> and another served version with its version', () => {
    const hpa = (apiVersion: string) =>
      `apiVersion: ${apiVersion}\nkind: HorizontalPodAutoscaler\nmetadata: { name: web }\nspec:\n  scaleTargetRef: { kind: Deployment, name: web }\n  maxReplicas: 3\n`;
    const v2 = load(hpa('autoscaling/v2'));
    const v1 = load(hpa('autoscaling/v1'));
    expect(v2.findings).toEqual([]);
    expect(v1.findings).toEqual([]);
    expect(v2.resources[0]?.resource.metadata.type).toBe('HorizontalPodAutoscalers.autoscaling');
    expect(v1.resources[0]?.resource.metadata.type).toBe('HorizontalPodAutoscalers.v1.autoscaling');
    expect(['v1', 'v2', 'v1beta1', 'v2beta2', 'v1alpha1'].sort(compareKubeVersions)).toEqual([
      'v2',
      'v1',
      'v2beta2',
      'v1beta1',
      'v1alpha1',
    ]);
  });

  it('let a given definition of a Kubernetes kind win over the built-in one', () => {
    const definitions = [
      createDefinition({
        type: 'ConfigMaps.example.org',
        kubernetes: { apiVersion: 'v1', kind: 'ConfigMap', namespaced: true },
        schema: { type: 'object', properties: { data: { type: 'object' } } },
      }),
    ];
    const { resources } = load(
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: a }\ndata: {}\n',
      {
        definitions,
      },
    );
    expect(resources[0]?.resource.metadata.type).toBe('ConfigMaps.example.org');
  });

  it('find a built-in definition by its type name, for types controllers write', () => {
    const catalog = BuiltinKinds.of('1.36');
    expect(catalog.findByType('Deployments.apps')?.kubernetes?.kind).toBe('Deployment');
    expect(
      catalog.findByType('HorizontalPodAutoscalers.v1.autoscaling')?.kubernetes?.apiVersion,
    ).toBe('autoscaling/v1');
    expect(catalog.findByType('Deployments.example.org')).toBeUndefined();
  });

  it('take a Kubernetes version as kubectl and kubeconform write it', () => {
    expect(parseKubernetesRelease('1.30')).toBe('1.30');
    expect(parseKubernetesRelease('v1.30.4')).toBe('1.30');
    // kubeconform's default value: its newest schemas, cosi's newest release.
    expect(parseKubernetesRelease('master')).toBe(KUBERNETES_RELEASES.at(-1));
    expect(() => parseKubernetesRelease('1.12')).toThrow(/unknown Kubernetes version "1.12"/);
    // Every vendored release loads.
    for (const release of KUBERNETES_RELEASES) {
      expect(BuiltinKinds.of(release).find('', 'v1', 'ConfigMap')?.type).toBe('ConfigMaps.core');
    }
  });
});

describe('metadata as the API server checks it in Go', () => {
  it("checks a custom resource's name as a DNS subdomain (customResourceValidator's NameIsDNSSubdomain)", () => {
    const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.org }
spec:
  group: example.org
  names: { plural: widgets, kind: Widget }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema: { openAPIV3Schema: { type: object } }
`;
    const widget = (name: string) =>
      `---\napiVersion: example.org/v1\nkind: Widget\nmetadata: { name: "${name}" }\n`;
    const { findings } = load(
      crd + ['ok.a-1', '<name>', 'My_Widget', 'UPPER', 'w.'].map(widget).join(''),
    );
    expect(findings.map((f) => [f.line, f.rule])).toEqual([
      [20, 'dns-1123-subdomain'],
      [24, 'dns-1123-subdomain'],
      [28, 'dns-1123-subdomain'],
      [32, 'dns-1123-subdomain'],
    ]);
  });

  it("checks a built-in kind's name by its kind's rule: an RBAC name need only be a path segment, spaces and all", () => {
    const { findings } = load(`apiVersion: v1
kind: ConfigMap
metadata: { name: Bad_Name }
---
apiVersion: v1
kind: Service
metadata: { name: 1web }
spec: { ports: [{ port: 80 }] }
---
apiVersion: v1
kind: Namespace
metadata: { name: a.b }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: "system:controller:x" }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: "ops team (reader)" }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: "Bad Name" }
`);
    // "Bad Name" is one finding, its kind's rule: not also cosi's invalid-id.
    expect(findings.map((f) => [f.line, f.pointer, f.rule ?? f.code])).toEqual([
      [3, '/metadata/name', 'dns-1123-subdomain'],
      [7, '/metadata/name', 'dns-1035-label'],
      [12, '/metadata/name', 'dns-1123-label'],
      [24, '/metadata/name', 'dns-1123-subdomain'],
    ]);
  });

  it('checks label keys and values and annotation keys', () => {
    const { findings } = load(`apiVersion: v1
kind: ConfigMap
metadata:
  name: ok
  labels: { "example.com/tier": front end, "-x": a, good: "" }
  annotations: { "Bad_Prefix/x": "1", "example.com/Note": "2" }
`);
    expect(findings.map((f) => [f.pointer, f.rule])).toEqual([
      ['/metadata/labels/example.com~1tier', 'label-value'],
      ['/metadata/labels/-x', 'label-key'],
      ['/metadata/annotations/Bad_Prefix~1x', 'annotation-key'],
    ]);
  });
});

describe('--kubernetes-version picks the CEL libraries too', () => {
  const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: endpoints.example.org }
spec:
  group: example.org
  names: { plural: endpoints, kind: Endpoint }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                address:
                  type: string
                  maxLength: 64
                  x-kubernetes-validations:
                    - rule: isIP(self)
---
apiVersion: example.org/v1
kind: Endpoint
metadata: { name: db }
spec: { address: 10.0.0.1 }
`;
  it('refuses a rule that calls a library the chosen release does not have, at its line', () => {
    expect(load(crd, { kubernetesVersion: '1.31' }).findings).toEqual([]);
    const old = load(crd, { kubernetesVersion: '1.29' });
    expect(old.findings.map((f) => [f.code, f.line])).toEqual([
      ['cel-invalid-rule', 23],
      ['unknown-type', 26],
    ]);
  });

  it("refuses a new rule that calls a library of the chosen release itself: the API server compiles new rules with the release before's", () => {
    // The ip library came with Kubernetes 1.30: 1.30 compiles the rules it stores with it, but a
    // created or changed CRD's with 1.29's libraries (NewExpressions, n-1), so a rollback works.
    const findings = load(crd, { kubernetesVersion: '1.30' }).findings;
    expect(findings.map((f) => [f.code, f.line, f.rule])).toEqual([
      ['cel-invalid-rule', 23, 'rule-library-version'],
      ['unknown-type', 26, 'kubernetes-kind'],
    ]);
    expect(findings[0]?.message).toContain(
      'isIP needs Kubernetes 1.31 for new rules (ip library introduced in 1.30;',
    );
  });

  const libraries: [string, string, KubernetesRelease, KubernetesRelease][] = [
    ['quantity', 'isQuantity(self)', '1.28', '1.29'],
    ['optional', "self.?x.orValue('') == ''", '1.28', '1.29'],
    ['format', 'format.dns1123Label().validate(self).hasValue()', '1.31', '1.32'],
    ['two-variable comprehensions', 'self.all(k, v, k != v)', '1.32', '1.33'],
    ['semver', 'isSemver(self)', '1.33', '1.34'],
  ];
  it.each(libraries)(
    'refuses the %s library in a new rule on the release that introduced it',
    (_, rule, release, next) => {
      const text = crd
        .replace('rule: isIP(self)', `rule: ${JSON.stringify(rule)}`)
        .replace(
          /address:\n {18}type: string/,
          rule.includes('all(') || rule.includes('.?')
            ? 'address:\n                  type: object\n                  maxProperties: 4\n                  additionalProperties: { type: string, maxLength: 8 }'
            : 'address:\n                  type: string',
        )
        .replace(/---[\s\S]*$/, '');
      const at = (version: KubernetesRelease) =>
        load(text, { kubernetesVersion: version }).findings.map((f) => f.rule);
      expect(at(release)).toEqual(['rule-library-version']);
      expect(at(next)).toEqual([]);
    },
  );
});
