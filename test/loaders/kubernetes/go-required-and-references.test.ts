import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * What the API server refuses of objects that the OpenAPI passes, found by a sweep of kyverno's
 * test resources and the Kubernetes docs' examples: a spec left out (Go decodes it as the empty
 * struct, whose required fields are then missing), a pod without containers, a Service without
 * ports, a binding's references (k8s.io/kubernetes `pkg/apis/rbac/validation`), a
 * PodDisruptionBudget bounded twice (`pkg/apis/policy/validation`).
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string) => loadManifests([{ path: 'app.yaml', text }]).findings;

describe('a spec the API server needs', () => {
  it('is required when left out of a Pod or a Deployment, as spec: {} would be', () => {
    expect(load('apiVersion: v1\nkind: Pod\nmetadata: { name: p }\n').map(at)).toEqual([
      ['/spec/containers', 'Required value'],
    ]);
    expect(load('apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: d }\n').map(at)).toEqual([
      ['/spec/selector', 'Required value'],
      ['/spec/template', 'Required value'],
    ]);
    // A kind whose spec requires nothing may leave it out.
    expect(load('apiVersion: v1\nkind: Namespace\nmetadata: { name: ns }\n')).toEqual([]);
    // So may one whose OpenAPI requires a spec of optional fields, which Go decodes as the empty
    // struct and defaults (Kubernetes' e2e mock CSIDriver, "intentionally no spec").
    expect(
      load(
        'apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: { name: mock.storage.k8s.io }\n',
      ),
    ).toEqual([]);
  });

  it('has a container at least (validateContainers)', () => {
    expect(
      load('apiVersion: v1\nkind: Pod\nmetadata: { name: p }\nspec: { containers: [] }\n').map(at),
    ).toEqual([['/spec/containers', 'Required value']]);
  });

  it('has ports in a Service that is neither headless nor an ExternalName (ValidateService)', () => {
    const service = (spec: string) =>
      `---\napiVersion: v1\nkind: Service\nmetadata: { name: s${spec.length} }\nspec: ${spec}\n`;
    const findings = load(
      service('{ selector: { app: web } }') +
        service('{ selector: { app: web }, ports: [] }') +
        service('{ clusterIP: None, selector: { app: web } }') +
        service('{ type: ExternalName, externalName: db.example.org }'),
    );
    expect(findings.map((f) => [f.line, ...at(f)])).toEqual([
      [5, '/spec/ports', 'Required value'],
      [10, '/spec/ports', 'Required value'],
    ]);
  });
});

describe('a binding references a role and subjects RBAC has (ValidateRoleBinding)', () => {
  const binding = (kind: string, roleRef: string, subjects: string) =>
    `---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ${kind}\nmetadata: { name: b }\nroleRef: ${roleRef}\nsubjects: ${subjects}\n`;

  it('refuses a ClusterRoleBinding of a Role, another API group, and a subject kind RBAC has not', () => {
    const findings = load(
      binding(
        'ClusterRoleBinding',
        '{ apiGroup: rbac.authorization.k8s.io/v1, kind: Role, name: r }',
        '[{ kind: Userr, name: jane }, { kind: ServiceAccount, name: sa }, { kind: User, name: jo, apiGroup: apps }]',
      ),
    );
    expect(findings.map(at)).toEqual([
      [
        '/roleRef/apiGroup',
        'Unsupported value: "rbac.authorization.k8s.io/v1": supported values: "rbac.authorization.k8s.io"',
      ],
      ['/roleRef/kind', 'Unsupported value: "Role": supported values: "ClusterRole"'],
      [
        '/subjects/0/kind',
        'Unsupported value: "Userr": supported values: "ServiceAccount", "User", "Group"',
      ],
      ['/subjects/1/namespace', 'Required value'],
      [
        '/subjects/2/apiGroup',
        'Unsupported value: "apps": supported values: "rbac.authorization.k8s.io"',
      ],
    ]);
  });

  it('takes a RoleBinding of a Role or a ClusterRole, its ServiceAccount without a namespace, a User without an API group', () => {
    for (const role of ['Role', 'ClusterRole']) {
      expect(
        load(
          binding(
            'RoleBinding',
            `{ apiGroup: rbac.authorization.k8s.io, kind: ${role}, name: view }`,
            '[{ kind: ServiceAccount, name: sa }, { kind: User, name: jane }, { kind: Group, name: devs, apiGroup: rbac.authorization.k8s.io }]',
          ),
        ),
      ).toEqual([]);
    }
  });
});

describe('a PodDisruptionBudget (ValidatePodDisruptionBudgetSpec)', () => {
  it('is bounded by minAvailable or maxUnavailable, not both', () => {
    const pdb = (bounds: string) =>
      `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: { name: zk }\nspec: { selector: { matchLabels: { app: zk } }, ${bounds} }\n`;
    expect(load(pdb('maxUnavailable: 1, minAvailable: 2')).map(at)).toEqual([
      [
        '/spec',
        'Invalid value: {"selector":{"matchLabels":{"app":"zk"}},"maxUnavailable":1,"minAvailable":2}: minAvailable and maxUnavailable cannot be both set',
      ],
    ]);
    expect(load(pdb('maxUnavailable: 1'))).toEqual([]);
  });
});

describe("a pod's repeated list items (pkg/api/pod/warnings.go)", () => {
  it('warn of a container port, a variable, a pull secret or a host alias written twice, which the API server takes', () => {
    const { findings, resources } = loadManifests([
      {
        path: 'pod.yaml',
        text: `apiVersion: v1
kind: Pod
metadata: { name: p }
spec:
  imagePullSecrets: [{ name: regcred }, { name: regcred }]
  hostAliases: [{ ip: 10.0.0.1, hostnames: [a] }, { ip: 10.0.0.1, hostnames: [b] }]
  containers:
    - name: app
      image: nginx
      ports: [{ containerPort: 80 }, { containerPort: 80, name: http }]
      env: [{ name: FOO, value: a }, { name: FOO, value: b }]
`,
      },
    ]);
    expect(findings.map((f) => [f.code, f.severity, f.pointer])).toEqual([
      ['duplicate-list-item', 'warning', '/spec/imagePullSecrets/1'],
      ['duplicate-list-item', 'warning', '/spec/hostAliases/1'],
      ['duplicate-list-item', 'warning', '/spec/containers/0/ports/1'],
      ['duplicate-list-item', 'warning', '/spec/containers/0/env/1'],
    ]);
    expect(findings[0]?.message).toContain('the API server takes it with a warning');
    expect(resources).toHaveLength(1);
  });

  it("refuse a container's name repeated, once, at the later container in Go's order (an init container after the containers)", () => {
    const findings = load(`apiVersion: v1
kind: Pod
metadata: { name: p }
spec:
  initContainers: [{ name: app, image: busybox }]
  containers: [{ name: app, image: nginx }, { name: web, image: nginx }, { name: web, image: nginx }]
`);
    expect(findings.map(at)).toEqual([
      ['/spec/initContainers/0/name', 'Duplicate value: "app"'],
      ['/spec/containers/2/name', 'Duplicate value: "web"'],
    ]);
  });
});

describe("an object's namespace and generateName (ValidateObjectMeta)", () => {
  it('takes a namespace that is a DNS-1123 label only, and checks a generateName prefix by the name rule', () => {
    const findings = load(`apiVersion: v1
kind: ConfigMap
metadata: { name: a, namespace: team.a }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: b, namespace: ${'n'.repeat(64)} }
---
apiVersion: v1
kind: ConfigMap
metadata: { generateName: Bad_Prefix_ }
---
apiVersion: v1
kind: ConfigMap
metadata: { generateName: good-, namespace: team-a }
`);
    expect(findings.map((f) => [f.line, f.code, f.pointer, f.message.slice(0, 40)])).toEqual([
      // Go's IsDNS1123Label: a subdomain that is no label has dots.
      [3, 'invalid-namespace', '/metadata/namespace', 'Invalid value: "team.a": must not contai'],
      [7, 'invalid-namespace', '/metadata/namespace', `Invalid value: "${'n'.repeat(24)}`],
      [
        11,
        'schema-violation',
        '/metadata/generateName',
        'Invalid value: "Bad_Prefix_": a lowercas',
      ],
    ]);
    expect(findings[1]?.message).toMatch(/must be no more than 63 characters$/);
  });

  it('puts an object of a refused namespace in none: it is no duplicate of the default one', () => {
    const findings = load(`apiVersion: v1
kind: ConfigMap
metadata: { name: b, namespace: Bad_NS }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: b }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: b, namespace: "\${NAMESPACE}" }
`);
    expect(findings.map((f) => [f.line, f.code, f.message.slice(0, 40)])).toEqual([
      [3, 'invalid-namespace', 'Invalid value: "Bad_NS": a lowercase RFC'],
      [11, 'invalid-namespace', 'Invalid value: "${NAMESPACE}": a lowerca'],
    ]);
  });
});

describe("a ConfigMap's and a Secret's keys (ValidateConfigMap, ValidateSecret)", () => {
  it('are config keys, not in data and binaryData both, and a typed Secret has the keys of its type', () => {
    const findings = load(`apiVersion: v1
kind: ConfigMap
metadata: { name: a }
data: { "bad key": x, app.conf: z, ..: w }
binaryData: { app.conf: eQ== }
---
apiVersion: v1
kind: Secret
metadata: { name: t }
type: kubernetes.io/tls
stringData: { tls.crt: x }
---
apiVersion: v1
kind: Secret
metadata: { name: u }
type: kubernetes.io/tls
data: { tls.crt: eA==, tls.key: eA== }
`);
    expect(findings.map((f) => [f.line, f.pointer, f.message.slice(0, 48)])).toEqual([
      [4, '/data/bad key', 'Invalid value: "bad key": a valid config key mus'],
      [4, '/data/..', `Invalid value: "..": must not be '..'`],
      [5, '/binaryData/app.conf', 'Invalid value: "app.conf": duplicate of key pres'],
      [7, '/data/tls.key', 'Required value'],
    ]);
  });

  it("asks of a Secret what its type needs: a Docker config that is a JSON object, a username or password, a private key, the account's name", () => {
    const secret = (name: string, rest: string) =>
      `---\napiVersion: v1\nkind: Secret\nmetadata: { name: ${name} }\n${rest}\n`;
    const findings = load(
      secret(
        'd1',
        'type: kubernetes.io/dockerconfigjson\nstringData: { .dockerconfigjson: "{auths: {}}" }',
      ) +
        // base64 of `["a"]`, and of a well-formed config.
        secret(
          'd2',
          'type: kubernetes.io/dockerconfigjson\ndata: { .dockerconfigjson: WyJhIl0= }',
        ) +
        secret(
          'd3',
          'type: kubernetes.io/dockerconfigjson\ndata: { .dockerconfigjson: eyJhdXRocyI6e319 }',
        ) +
        secret('d4', 'type: kubernetes.io/dockercfg\nstringData: { .dockercfg: "" }') +
        secret('b1', 'type: kubernetes.io/basic-auth\nstringData: { user: a }') +
        secret('b2', 'type: kubernetes.io/basic-auth\nstringData: { password: "" }') +
        secret('s1', 'type: kubernetes.io/ssh-auth\ndata: { ssh-privatekey: "" }') +
        secret('t1', 'type: kubernetes.io/service-account-token') +
        `---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: t2\n  annotations: { kubernetes.io/service-account.name: build }\ntype: kubernetes.io/service-account-token\n`,
    );
    expect(findings.map((f) => [f.line, f.pointer, f.message])).toEqual([
      [
        6,
        '/stringData/.dockerconfigjson',
        `Invalid value: "<secret contents redacted>": invalid character 'a' looking for beginning of object key string`,
      ],
      [
        12,
        '/data/.dockerconfigjson',
        'Invalid value: "<secret contents redacted>": json: cannot unmarshal array into Go value of type map[string]interface {}',
      ],
      [
        24,
        '/stringData/.dockercfg',
        'Invalid value: "<secret contents redacted>": unexpected end of JSON input',
      ],
      [26, '/data/username', 'Required value'],
      [26, '/data/password', 'Required value'],
      [42, '/data/ssh-privatekey', 'Required value'],
      [46, '/metadata/annotations/kubernetes.io~1service-account.name', 'Required value'],
    ]);
  });
});

describe("a Deployment's strategy and an autoscaler's bounds (ValidateDeploymentStrategy, ValidateHorizontalPodAutoscalerSpec)", () => {
  let n = 0;
  const deployment = (strategy: string) => `---
apiVersion: apps/v1
kind: Deployment
metadata: { name: d${++n} }
spec:
  selector: { matchLabels: { app: d } }
  template: { metadata: { labels: { app: d } }, spec: { containers: [{ name: c, image: nginx }] } }
  strategy: ${strategy}
`;
  it('refuses rollingUpdate beside Recreate, and a rollout that may neither surge nor go unavailable', () => {
    const findings = load(
      deployment('{ type: Recreate, rollingUpdate: { maxSurge: 1 } }') +
        deployment("{ rollingUpdate: { maxSurge: '0%', maxUnavailable: 0 } }") +
        deployment('{ rollingUpdate: { maxSurge: 0 } }'),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/strategy/rollingUpdate',
        "Forbidden: may not be specified when strategy `type` is 'Recreate'",
      ],
      [
        '/spec/strategy/rollingUpdate/maxUnavailable',
        'Invalid value: 0: may not be 0 when `maxSurge` is 0',
      ],
    ]);
  });

  it('refuses negative counts, a deadline within minReadySeconds, and percentages that are none or over 100%', () => {
    const spec = (fields: string) => `---
apiVersion: apps/v1
kind: Deployment
metadata: { name: d${++n} }
spec:
  selector: { matchLabels: { app: d } }
  template: { metadata: { labels: { app: d } }, spec: { containers: [{ name: c, image: nginx }] } }
${fields}`;
    const findings = load(
      spec(
        '  replicas: -1\n  revisionHistoryLimit: -2\n  minReadySeconds: 30\n  progressDeadlineSeconds: 10\n',
      ) +
        spec("  strategy: { rollingUpdate: { maxUnavailable: '150%', maxSurge: half } }\n") +
        spec(
          "  replicas: 0\n  minReadySeconds: 5\n  progressDeadlineSeconds: 6\n  strategy: { rollingUpdate: { maxUnavailable: '100%', maxSurge: '200%' } }\n",
        ) +
        spec('  minReadySeconds: 600\n') +
        spec('  minReadySeconds: 599\n'),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/replicas', 'Invalid value: -1: must be greater than or equal to 0'],
      ['/spec/revisionHistoryLimit', 'Invalid value: -2: must be greater than or equal to 0'],
      ['/spec/progressDeadlineSeconds', 'Invalid value: 10: must be greater than minReadySeconds'],
      [
        '/spec/strategy/rollingUpdate/maxUnavailable',
        'Invalid value: "150%": must not be greater than 100%',
      ],
      [
        '/spec/strategy/rollingUpdate/maxSurge',
        `Invalid value: "half": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')`,
      ],
      [
        '/spec/progressDeadlineSeconds',
        'Invalid value: 600: must be greater than minReadySeconds (left out, progressDeadlineSeconds is 600)',
      ],
    ]);
  });

  it("refuses a StatefulSet's negative replicas and partition, not its revisionHistoryLimit (ValidateStatefulSetSpec)", () => {
    const findings = load(`---
apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db }
spec:
  replicas: -1
  revisionHistoryLimit: -1
  selector: { matchLabels: { app: d } }
  updateStrategy: { rollingUpdate: { partition: -2 } }
  template: { metadata: { labels: { app: d } }, spec: { containers: [{ name: c, image: nginx }] } }
`);
    expect(findings.map(at)).toEqual([
      ['/spec/replicas', 'Invalid value: -1: must be greater than or equal to 0'],
      [
        '/spec/updateStrategy/rollingUpdate/partition',
        'Invalid value: -2: must be greater than or equal to 0',
      ],
    ]);
  });

  it("refuses a DaemonSet's rolling update that surges and goes unavailable at once, as defaulted", () => {
    const daemonSet = (rollingUpdate: string) => `---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: ds${++n} }
spec:
  selector: { matchLabels: { app: d } }
  template: { metadata: { labels: { app: d } }, spec: { containers: [{ name: c, image: nginx }] } }
  updateStrategy: { type: RollingUpdate, rollingUpdate: ${rollingUpdate} }
`;
    const findings = load(
      // maxUnavailable defaults to 1: a surge beside it is refused (Traefik's chart users hit it).
      daemonSet('{ maxSurge: 1 }') +
        daemonSet('{ maxUnavailable: 0, maxSurge: 0 }') +
        daemonSet("{ maxUnavailable: 0, maxSurge: '10%' }") +
        daemonSet('{ maxUnavailable: 2 }'),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/updateStrategy/rollingUpdate/maxSurge',
        'Invalid value: 1: may not be set when maxUnavailable is non-zero',
      ],
      [
        '/spec/updateStrategy/rollingUpdate/maxUnavailable',
        'Required value: cannot be 0 when maxSurge is 0',
      ],
    ]);
  });

  it('refuses minReplicas under 1 and maxReplicas under minReplicas', () => {
    const hpa = (bounds: string) => `---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: { name: h${++n} }
spec:
  scaleTargetRef: { apiVersion: apps/v1, kind: Deployment, name: d }
  ${bounds}
`;
    expect(
      load(hpa('minReplicas: 0\n  maxReplicas: 3') + hpa('minReplicas: 5\n  maxReplicas: 2')).map(
        at,
      ),
    ).toEqual([
      ['/spec/minReplicas', 'Invalid value: 0: must be greater than or equal to 1'],
      ['/spec/maxReplicas', 'Invalid value: 2: must be greater than or equal to `minReplicas`'],
    ]);
  });
});

describe("an object's finalizers and owners (ValidateFinalizers, ValidateOwnerReferences)", () => {
  it('are qualified names, not both orphan and foregroundDeletion', () => {
    const findings = load(`apiVersion: v1
kind: ConfigMap
metadata: { name: a, finalizers: [example.com/cleanup, kubernetes, "Bad Finalizer"] }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: b, finalizers: [orphan, foregroundDeletion] }
`);
    expect(findings.map((f) => [f.line, f.pointer, f.message.slice(0, 60)])).toEqual([
      [3, '/metadata/finalizers/2', 'Invalid value: "Bad Finalizer": name part must consist of al'],
      // A ConfigMap's metadata is the core group's `ValidateObjectMeta`'s: `validateKubeFinalizerName`.
      [3, '/metadata/finalizers/2', 'Invalid value: "Bad Finalizer": name is neither a standard f'],
      [7, '/metadata/finalizers', 'Invalid value: ["orphan","foregroundDeletion"]: finalizer or'],
    ]);
  });

  it('name a version, a kind, a name and a uid, no Event, and one controller at most', () => {
    const findings = load(`apiVersion: example.com/v1
kind: Widget
metadata:
  name: w
  ownerReferences:
    - { apiVersion: apps/v1, kind: Deployment, name: a, uid: u1, controller: true }
    - { apiVersion: apps/v1, kind: Deployment, name: b, uid: u2, controller: true }
    - { apiVersion: v1, kind: Event, name: e, uid: u3 }
    - { apiVersion: apps/, kind: "", name: "", uid: "" }
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: widgets.example.com }
spec:
  group: example.com
  names: { kind: Widget, plural: widgets }
  scope: Namespaced
  versions:
    - { name: v1, served: true, storage: true, schema: { openAPIV3Schema: { type: object } } }
`);
    expect(findings.map((f) => [f.pointer, f.message.replace(/: \[.*\]: /, ': [...]: ')])).toEqual([
      [
        '/metadata/ownerReferences',
        'Invalid value: [...]: Only one reference can have Controller set to true. Found "true" in references for Deployment/a and Deployment/b',
      ],
      [
        '/metadata/ownerReferences/2',
        'Invalid value: {"apiVersion":"v1","kind":"Event","name":"e","uid":"u3"}: /v1, Kind=Event is disallowed from being an owner',
      ],
      [
        '/metadata/ownerReferences/3/apiVersion',
        'Invalid value: "apps/": version must not be empty',
      ],
      ['/metadata/ownerReferences/3/kind', 'Invalid value: "": kind must not be empty'],
      ['/metadata/ownerReferences/3/name', 'Invalid value: "": name must not be empty'],
      ['/metadata/ownerReferences/3/uid', 'Invalid value: "": uid must not be empty'],
    ]);
  });
});

describe("a ConfigMap's and a Secret's size (MaxSecretSize)", () => {
  it('holds 1 MiB of values at most, binary and Secret data decoded, stringData over data', () => {
    const half = 'x'.repeat(600 * 1024);
    const base64Half = Buffer.from(half).toString('base64');
    const findings = load(`apiVersion: v1
kind: ConfigMap
metadata: { name: big }
data: { a: ${half}, b: ${half} }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: fits }
data: { a: ${half} }
binaryData: { b: ${Buffer.from('y'.repeat(400 * 1024)).toString('base64')} }
---
apiVersion: v1
kind: Secret
metadata: { name: big }
data: { a: ${base64Half} }
stringData: { b: ${half} }
---
apiVersion: v1
kind: Secret
metadata: { name: replaced }
data: { a: ${base64Half} }
stringData: { a: ${half} }
`);
    expect(findings.map((f) => [f.line, f.pointer, f.message])).toEqual([
      [1, '', 'Too long: may not be more than 1048576 bytes (its data holds 1228800)'],
      [15, '/data', 'Too long: may not be more than 1048576 bytes (its data holds 1228800)'],
    ]);
  });
});

describe("a Role's and a ClusterRole's rules (ValidatePolicyRule)", () => {
  const role = (kind: string, rules: string) =>
    `---\napiVersion: rbac.authorization.k8s.io/v1\nkind: ${kind}\nmetadata: { name: r${kind === 'Role' ? ', namespace: ns' : ''} }\nrules:\n${rules}`;

  it('takes rules on resources and, in a ClusterRole, on non-resource URLs', () => {
    expect(
      load(
        role('Role', '  - { apiGroups: [""], resources: [pods], verbs: [get, list] }\n') +
          role('ClusterRole', '  - { nonResourceURLs: [/metrics], verbs: [get] }\n'),
      ),
    ).toEqual([]);
  });

  it('refuses a rule without verbs, URLs in a Role or beside resources, and one naming no group or resource', () => {
    const findings = load(
      role(
        'Role',
        '  - { apiGroups: [""], resources: [pods], verbs: [] }\n  - { nonResourceURLs: [/healthz], verbs: [get] }\n  - { verbs: [get] }\n',
      ) +
        role(
          'ClusterRole',
          '  - { nonResourceURLs: [/healthz], resources: [pods], verbs: [get] }\n',
        ),
    );
    expect(findings.map(at)).toEqual([
      ['/rules/0/verbs', 'Required value: verbs must contain at least one value'],
      [
        '/rules/1/nonResourceURLs',
        'Invalid value: []string{"/healthz"}: namespaced rules cannot apply to non-resource URLs',
      ],
      ['/rules/2/apiGroups', 'Required value: resource rules must supply at least one api group'],
      ['/rules/2/resources', 'Required value: resource rules must supply at least one resource'],
      [
        '/rules/0/nonResourceURLs',
        'Invalid value: []string{"/healthz"}: rules cannot apply to both regular resources and non-resource URLs',
      ],
    ]);
  });

  it('reports a rule that leaves out its verbs once, in Go words', () => {
    expect(load(role('Role', '  - { apiGroups: [""], resources: [pods] }\n')).map(at)).toEqual([
      ['/rules/0/verbs', 'Required value: verbs must contain at least one value'],
    ]);
  });
});

describe("a built-in object's missing required field, in the API server's words", () => {
  it('is Required value at the field, with the detail Go adds for a webhook and an ingress path', () => {
    const text = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: { name: w }
webhooks:
  - name: a.example.com
    admissionReviewVersions: [v1]
    clientConfig: { url: "https://example.com" }
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: { name: i }
spec:
  rules:
    - http:
        paths:
          - path: /
            backend: { service: { name: s, port: { number: 80 } } }
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: c
  ownerReferences: [{ apiVersion: v1, kind: Pod, name: p }]
---
apiVersion: apps/v1
kind: Deployment
metadata: { name: d }
spec: { template: { metadata: { labels: { a: b } }, spec: { containers: [{ name: c, image: c }] } } }
`;
    // Placed at the object that lacks the field, as a custom resource's.
    expect(load(text).map((f) => `${f.line}:${f.col} ${f.pointer}: ${f.message}`)).toEqual([
      '5:5 /webhooks/0/sideEffects: Required value: must specify one of None, NoneOnDryRun',
      '16:13 /spec/rules/0/http/paths/0/pathType: Required value: pathType must be specified',
      '23:21 /metadata/ownerReferences/0/uid: Invalid value: "": uid must not be empty',
      '28:7 /spec/selector: Required value',
    ]);
  });
});

describe("an object's name, labels and annotations in the API server's words (ValidateObjectMeta)", () => {
  const SUBDOMAIN =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  const NAME_PART =
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

  it('says each message Go gives, with the value, as kubectl prints them', () => {
    const text = `apiVersion: v1
kind: ConfigMap
metadata:
  name: Web_1
  namespace: default
  labels: { "-team": x, "example.com/a/b": z1, tier: "web app" }
  annotations: { "Bad Key": z }
`;
    expect(load(text).map(at)).toEqual([
      ['/metadata/name', `Invalid value: "Web_1": ${SUBDOMAIN}`],
      ['/metadata/labels/-team', `Invalid value: "-team": ${NAME_PART}`],
      [
        '/metadata/labels/example.com~1a~1b',
        `Invalid value: "example.com/a/b": a qualified ${NAME_PART.replace('name part ', 'name ')} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
      [
        '/metadata/labels/tier',
        `Invalid value: "web app": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`,
      ],
      ['/metadata/annotations/Bad Key', `Invalid value: "Bad Key": ${NAME_PART}`],
    ]);
  });

  it("names a Role's path-segment name's fault as Go does", () => {
    const text = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: { name: "team/reader", namespace: default }
rules: []
`;
    expect(load(text).map(at)).toEqual([
      ['/metadata/name', `Invalid value: "team/reader": may not contain '/'`],
    ]);
  });
});
