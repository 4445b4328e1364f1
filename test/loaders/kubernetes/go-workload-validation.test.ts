import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * What the API server checks of workloads and pods in Go beyond the OpenAPI, with its messages
 * and field paths (k8s.io/kubernetes `pkg/apis/apps/validation`, `pkg/apis/batch/validation`,
 * `pkg/apis/core/validation`; apimachinery `util/validation`): a selector against its template's
 * labels, container names, ports and resource quantities.
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string) => loadManifests([{ path: 'app.yaml', text }]).findings;

const deployment = (selector: string, labels: string, containers = '[{ name: c, image: nginx }]') =>
  `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  selector: ${selector}
  template:
    metadata: { labels: ${labels} }
    spec:
      containers: ${containers}
`;

const MISMATCH = '`selector` does not match template `labels`';

describe("a workload's selector against its template's labels (ValidatePodTemplateSpecForReplicaSet)", () => {
  it('refuses a Deployment whose selector does not select its pods, at the template labels', () => {
    const findings = load(deployment('{ matchLabels: { app: web } }', '{ app: api, tier: x }'));
    expect(findings.map(at)).toEqual([
      [
        '/spec/template/metadata/labels',
        `Invalid value: map[string]string{"app":"api", "tier":"x"}: ${MISMATCH}`,
      ],
    ]);
    expect([findings[0]?.line, findings[0]?.col]).toEqual([7, 25]);
  });

  it.each([
    ['{ matchLabels: { app: web } }', '{ app: web, tier: x }'],
    ['{ matchExpressions: [{ key: app, operator: In, values: [web, api] }] }', '{ app: api }'],
    ['{ matchExpressions: [{ key: tier, operator: NotIn, values: [db] }] }', '{ app: api }'],
    ['{ matchExpressions: [{ key: app, operator: Exists }] }', '{ app: api }'],
    ['{ matchExpressions: [{ key: canary, operator: DoesNotExist }] }', '{ app: api }'],
  ])('takes %s for labels %s', (selector, labels) => {
    expect(load(deployment(selector, labels))).toEqual([]);
  });

  it.each([
    ['{ matchExpressions: [{ key: app, operator: In, values: [web] }] }', '{ app: api }'],
    ['{ matchExpressions: [{ key: app, operator: NotIn, values: [api] }] }', '{ app: api }'],
    ['{ matchExpressions: [{ key: app, operator: DoesNotExist }] }', '{ app: api }'],
    ['{ matchExpressions: [{ key: tier, operator: Exists }] }', '{ app: api }'],
  ])('refuses %s for labels %s', (selector, labels) => {
    expect(load(deployment(selector, labels)).map((f) => f.message)).toEqual([
      `Invalid value: map[string]string{"app":"api"}: ${MISMATCH}`,
    ]);
  });

  it.each(['ReplicaSet', 'StatefulSet', 'DaemonSet'])('checks a %s the same way', (kind) => {
    const text = deployment('{ matchLabels: { app: web } }', '{ app: api }')
      .replace('kind: Deployment', `kind: ${kind}`)
      .replace(
        'spec:\n  selector',
        kind === 'StatefulSet' ? 'spec:\n  serviceName: web\n  selector' : 'spec:\n  selector',
      );
    expect(load(text).map(at)).toEqual([
      [
        '/spec/template/metadata/labels',
        `Invalid value: map[string]string{"app":"api"}: ${MISMATCH}`,
      ],
    ]);
  });

  it('checks a ReplicationController whose selector is written; an empty one is defaulted to the labels', () => {
    const rc = (selector: string) => `apiVersion: v1
kind: ReplicationController
metadata: { name: web }
spec:
  selector: ${selector}
  template:
    metadata: { labels: { app: api } }
    spec: { containers: [{ name: c, image: nginx }] }
`;
    expect(load(rc('{ app: web }')).map(at)).toEqual([
      [
        '/spec/template/metadata/labels',
        `Invalid value: map[string]string{"app":"api"}: ${MISMATCH}`,
      ],
    ]);
    expect(load(rc('{}'))).toEqual([]);
  });

  it.each([
    ['Deployment', 'deployment'],
    ['ReplicaSet', 'deployment'],
    ['StatefulSet', 'statefulset'],
    ['DaemonSet', 'daemonset'],
  ])(
    'refuses an empty selector of a %s, in its spec validation function (ValidateDeploymentSpec, ...)',
    (kind, word) => {
      for (const selector of [
        '{}',
        '{ matchLabels: {} }',
        '{ matchLabels: {}, matchExpressions: [] }',
      ]) {
        const text = deployment(selector, '{ app: web }').replace(
          'kind: Deployment',
          `kind: ${kind}`,
        );
        const findings = load(text);
        expect(findings.map(at)).toEqual([
          ['/spec/selector', `Invalid value: {}: empty selector is invalid for ${word}`],
        ]);
        expect([findings[0]?.line, findings[0]?.col]).toEqual([5, 13]);
      }
    },
  );

  it('leaves a missing selector to the OpenAPI, which requires it: one finding, not two', () => {
    const text = deployment('{ matchLabels: { app: web } }', '{ app: web }').replace(
      '  selector: { matchLabels: { app: web } }\n',
      '',
    );
    expect(load(text).map(at)).toEqual([['/spec/selector', 'Required value']]);
  });

  it('requires a ReplicationController selector when no template labels default it (ValidateNonEmptySelector)', () => {
    const rc = (labels: string) => `apiVersion: v1
kind: ReplicationController
metadata: { name: web }
spec:
  template:
    metadata: ${labels}
    spec: { containers: [{ name: c, image: nginx }] }
`;
    expect(load(rc('{}')).map(at)).toEqual([['/spec/selector', 'Required value']]);
    expect(load(rc('{ labels: {} }')).map(at)).toEqual([['/spec/selector', 'Required value']]);
    expect(load(rc('{ labels: { app: web } }'))).toEqual([]);
  });

  it("refuses kubeconform's DaemonSet fixture whose template has no labels (kubeconform passes it)", () => {
    const text = readFileSync('test/fixtures/kubeconform/extra_property.yaml', 'utf8');
    expect(load(text).map(at)).toContainEqual([
      '/spec/template/metadata/labels',
      `Invalid value: map[string]string(nil): ${MISMATCH}`,
    ]);
  });
});

const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe("a workload's selector itself (ValidateLabelSelector, LabelSelectorAsSelector)", () => {
  it('refuses an unknown operator, and the selector that does not convert, without comparing it', () => {
    const findings = load(
      deployment(
        '{ matchExpressions: [{ key: app, operator: Equals, values: [web] }] }',
        '{ app: api }',
      ),
    );
    expect(findings.map((f) => [f.pointer, f.message, f.line])).toEqual([
      [
        '/spec/selector',
        'Invalid value: {"matchExpressions":[{"key":"app","operator":"Equals","values":["web"]}]}: invalid label selector',
        5,
      ],
      [
        '/spec/selector/matchExpressions/0/operator',
        'Invalid value: "Equals": not a valid selector operator',
        5,
      ],
    ]);
  });

  it('refuses values beside Exists, none beside In, a bad key and a bad value, of a StatefulSet and a Job too', () => {
    const findings = load(`apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db }
spec:
  serviceName: db
  selector:
    matchLabels: { app: "-x" }
    matchExpressions:
      - { key: tier, operator: Exists, values: [x] }
      - { key: "bad key!", operator: DoesNotExist }
      - { key: zone, operator: In, values: [] }
  template:
    metadata: { labels: { app: db } }
    spec: { containers: [{ name: c, image: postgres }] }
---
apiVersion: batch/v1
kind: Job
metadata: { name: j }
spec:
  manualSelector: true
  selector: { matchExpressions: [{ key: app, operator: Exists, values: [j] }] }
  template:
    metadata: { labels: { app: j } }
    spec: { restartPolicy: Never, containers: [{ name: c, image: busybox }] }
`);
    expect(findings.map((f) => [f.pointer, f.message, f.line])).toEqual([
      ['/spec/selector', expect.stringMatching(/: invalid label selector$/), 7],
      ['/spec/selector/matchLabels/app', `Invalid value: "-x": ${LABEL_VALUE}`, 7],
      [
        '/spec/selector/matchExpressions/0/values',
        "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        9,
      ],
      ['/spec/selector/matchExpressions/1/key', `Invalid value: "bad key!": ${NAME_PART}`, 10],
      [
        '/spec/selector/matchExpressions/2/values',
        "Required value: must be specified when `operator` is 'In' or 'NotIn'",
        11,
      ],
      [
        '/spec/selector/matchExpressions/0/values',
        "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        21,
      ],
    ]);
  });

  it('takes selectors whose keys and values are valid', () => {
    const text = deployment(
      '{ matchLabels: { app.kubernetes.io/name: web }, matchExpressions: [{ key: example.com/tier, operator: NotIn, values: [db, ""] }] }',
      '{ app.kubernetes.io/name: web }',
    );
    expect(load(text).filter((f) => f.pointer.startsWith('/spec/selector'))).toEqual([]);
  });
});

describe("a Service's selector and a pod's node selector (ValidateLabels)", () => {
  it('refuses a label value that is none, and a key that is none, at the key or value', () => {
    const findings = load(`apiVersion: v1
kind: Service
metadata: { name: s }
spec:
  selector: { app.kubernetes.io/name: "my app" }
  ports: [{ port: 80 }]
---
apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec:
      nodeSelector: { "node role": x }
      containers: [{ name: c, image: agent }]
`);
    expect(findings.map((f) => [f.pointer, f.message, f.line, f.col])).toEqual([
      ['/spec/selector/app.kubernetes.io~1name', `Invalid value: "my app": ${LABEL_VALUE}`, 5, 39],
      [
        '/spec/template/spec/nodeSelector/node role',
        `Invalid value: "node role": ${NAME_PART}`,
        16,
        23,
      ],
    ]);
  });

  it('takes the usual selectors, empty values included', () => {
    const text = `apiVersion: v1
kind: Pod
metadata: { name: p }
spec:
  nodeSelector: { kubernetes.io/os: linux, node-role.kubernetes.io/worker: "", topology.kubernetes.io/zone: eu-west-1a }
  containers: [{ name: c, image: nginx }]
---
apiVersion: v1
kind: Service
metadata: { name: s }
spec:
  selector: { app.kubernetes.io/name: web, app.kubernetes.io/instance: my_release.v1 }
  ports: [{ port: 80 }]
`;
    expect(load(text)).toEqual([]);
  });
});

describe("a pod template's labels and annotations (ValidatePodTemplateSpec)", () => {
  it("are label keys and values and annotation keys, as the object's own, in every workload", () => {
    const findings = load(
      deployment(
        '{ matchLabels: { app: web } }',
        '{ app: web, ver: "1.0 beta", "bad key!": x }, annotations: { "Also Bad!": "y", ok/Name: z }',
      ) +
        `---
apiVersion: batch/v1
kind: CronJob
metadata: { name: nightly }
spec:
  schedule: "@daily"
  jobTemplate:
    spec:
      template:
        metadata: { labels: { team: "a/b" } }
        spec:
          restartPolicy: Never
          containers: [{ name: c, image: busybox }]
`,
    );
    expect(findings.map((f) => [f.pointer, f.message.slice(0, 40)])).toEqual([
      ['/spec/template/metadata/labels/ver', 'Invalid value: "1.0 beta": a valid label'],
      ['/spec/template/metadata/labels/bad key!', 'Invalid value: "bad key!": name part mus'],
      ['/spec/template/metadata/annotations/Also Bad!', 'Invalid value: "Also Bad!": name part mu'],
      [
        '/spec/jobTemplate/spec/template/metadata/labels/team',
        'Invalid value: "a/b": a valid label must',
      ],
    ]);
  });
});

const job = (spec: string, template = '{ labels: { app: batch } }') => `apiVersion: batch/v1
kind: Job
metadata: { name: nightly }
spec:
${spec}
  template:
    metadata: ${template}
    spec:
      restartPolicy: Never
      containers: [{ name: c, image: busybox }]
`;

describe("a Job's selector (batch validation: ValidateJobSpec, validateGeneratedSelector)", () => {
  it('needs a selector that selects its pods with manualSelector: true', () => {
    expect(load(job('  manualSelector: true')).map(at)).toEqual([
      ['/spec/selector', 'Required value'],
    ]);
    expect(
      load(job('  manualSelector: true\n  selector: { matchLabels: { app: other } }')).map(at),
    ).toEqual([
      [
        '/spec/template/metadata/labels',
        `Invalid value: map[string]string{"app":"batch"}: ${MISMATCH}`,
      ],
    ]);
    expect(
      load(job('  manualSelector: true\n  selector: { matchLabels: { app: batch } }')),
    ).toEqual([]);
  });

  it('takes only a selector of the generated labels without it', () => {
    expect(load(job('  selector: { matchLabels: { app: batch } }')).map(at)).toEqual([
      [
        '/spec/selector',
        'Invalid value: {"matchLabels":{"app":"batch"}}: `selector` not auto-generated',
      ],
    ]);
    expect(load(job('  selector: { matchLabels: { job-name: nightly } }'))).toEqual([]);
    // The generated uid is not known before the API server makes it: left alone.
    expect(load(job('  selector: { matchLabels: { controller-uid: abc } }'))).toEqual([]);
    expect(load(job('  parallelism: 1'))).toEqual([]);
  });

  it("refuses a selector and manualSelector in a CronJob's job template (ValidateJobTemplateSpec)", () => {
    const text = `apiVersion: batch/v1
kind: CronJob
metadata: { name: nightly }
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      manualSelector: true
      selector: { matchLabels: { app: batch } }
      template:
        spec:
          restartPolicy: OnFailure
          containers: [{ name: c, image: busybox }]
`;
    expect(load(text).map(at)).toEqual([
      [
        '/spec/jobTemplate/spec/manualSelector',
        'Unsupported value: true: supported values: "nil", "false"',
      ],
      [
        '/spec/jobTemplate/spec/selector',
        'Invalid value: {"matchLabels":{"app":"batch"}}: `selector` will be auto-generated',
      ],
    ]);
  });

  it('refuses restartPolicy: OnFailure beside a podFailurePolicy (validateJobSpec)', () => {
    const text = job(
      '  podFailurePolicy:\n    rules: [{ action: FailJob, onExitCodes: { operator: In, values: [42] } }]',
    ).replace('restartPolicy: Never', 'restartPolicy: OnFailure');
    expect(load(text).map(at)).toEqual([
      [
        '/spec/template/spec/restartPolicy',
        'Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
      ],
    ]);
  });
});

describe("a pod's containers (core validation: validateContainers, validateContainerPorts, resources)", () => {
  const pod = (containers: string, init = '') => `apiVersion: v1
kind: Pod
metadata: { name: p }
spec:
${init}  containers:
${containers}`;

  it('reports every problem of a container at once, each at its field', () => {
    const findings = load(
      pod(`    - name: Main_1
      image: nginx
      ports:
        - { containerPort: 70000, name: HTTP--x }
        - { containerPort: 0, hostPort: 65536 }
      resources:
        requests: { cpu: 1x, memory: 2Gi }
        limits: { memory: 1Gi, cpu: -1 }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/containers/0/name',
        `Invalid value: "Main_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
      [
        '/spec/containers/0/ports/0/containerPort',
        'Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
      [
        '/spec/containers/0/ports/0/name',
        'Invalid value: "HTTP--x": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ],
      [
        '/spec/containers/0/ports/0/name',
        'Invalid value: "HTTP--x": must not contain consecutive hyphens',
      ],
      ['/spec/containers/0/ports/1/containerPort', 'Required value'],
      [
        '/spec/containers/0/ports/1/hostPort',
        'Invalid value: 65536: must be between 1 and 65535, inclusive',
      ],
      [
        '/spec/containers/0/resources/requests',
        'Invalid value: "2Gi": must be less than or equal to memory limit of 1Gi',
      ],
      [
        '/spec/containers/0/resources/requests/cpu',
        "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
      ],
      [
        '/spec/containers/0/resources/limits/cpu',
        'Invalid value: "-1": must be greater than or equal to 0',
      ],
    ]);
    expect(findings.every((f) => f.file === 'app.yaml' && f.line > 0)).toBe(true);
  });

  it('prints the quantities of a request above its limit as Go prints them (Quantity.String())', () => {
    const findings = load(
      pod(`    - name: c
      image: nginx
      resources:
        limits: { cpu: "0.5", memory: 1e3, nvidia.com/gpu: "2" }
        requests: { cpu: 600m, memory: "+1Ki", nvidia.com/gpu: "+1" }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/containers/0/resources/requests',
        'Invalid value: "600m": must be less than or equal to cpu limit of 500m',
      ],
      [
        '/spec/containers/0/resources/requests',
        'Invalid value: "1Ki": must be less than or equal to memory limit of 1k',
      ],
      [
        '/spec/containers/0/resources/requests',
        'Invalid value: "1": must be equal to nvidia.com/gpu limit of 2',
      ],
    ]);
  });

  it('prints a negative quantity as Go prints it (ValidateNonnegativeQuantity)', () => {
    const findings = load(
      pod(`    - { name: c, image: nginx, resources: { limits: { cpu: "-0.5" } } }\n`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/containers/0/resources/limits/cpu',
        'Invalid value: "-500m": must be greater than or equal to 0',
      ],
    ]);
  });

  it.each([
    ['a-very-long-port-name', 'must be no more than 15 characters'],
    ['8080', 'must contain at least one letter (a-z)'],
    ['-web', 'must not begin or end with a hyphen'],
  ])('refuses the port name %s: %s', (name, message) => {
    const findings = load(
      pod(`    - { name: c, image: nginx, ports: [{ containerPort: 80, name: "${name}" }] }\n`),
    );
    expect(findings.map((f) => f.message)).toEqual([`Invalid value: "${name}": ${message}`]);
  });

  it('refuses a container name or port name used twice in the pod', () => {
    const findings = load(
      pod(
        `    - { name: app, image: nginx, ports: [{ containerPort: 80, name: web }, { containerPort: 81, name: web }] }\n`,
        '  initContainers: [{ name: app, image: busybox }]\n',
      ),
    );
    // The init container is the repeat: Go collects the containers' names first.
    expect(findings.map(at)).toEqual([
      ['/spec/initContainers/0/name', 'Duplicate value: "app"'],
      ['/spec/containers/0/ports/1/name', 'Duplicate value: "web"'],
    ]);
  });

  it('compares quantities exactly, whatever their form', () => {
    const findings = load(
      pod(`    - name: app
      image: nginx
      resources:
        requests: { cpu: 0.5, memory: 1024Mi, ephemeral-storage: 1e3 }
        limits: { cpu: 500m, memory: 1Gi, ephemeral-storage: 1k }
`),
    );
    expect(findings).toEqual([]);
  });

  it("finds nothing in the repository's own Kubernetes fixtures", () => {
    const files = ['fixtures/kubernetes/platform.yaml', 'fixtures/kubernetes/webapps.yaml'].map(
      (path) => ({
        path,
        text: readFileSync(path, 'utf8'),
      }),
    );
    const findings = loadManifests(files).findings.filter((f) => f.code === 'schema-violation');
    expect(findings).toEqual([]);
  });
});

describe("a Service's ports (core validation: validateServicePort, ValidatePortNumOrName)", () => {
  const service = (ports: string) => `apiVersion: v1
kind: Service
metadata: { name: web }
spec:
  selector: { app: web }
  ports:
${ports}`;

  it('takes one unnamed port, and named ones with port names or numbers as targets', () => {
    expect(load(service('    - { port: 80 }\n'))).toEqual([]);
    expect(
      load(
        service(
          '    - { name: http, port: 80, targetPort: http }\n    - { name: https, port: 443, targetPort: 8443 }\n',
        ),
      ),
    ).toEqual([]);
  });

  it('reports every problem of the ports at once, each at its field', () => {
    const findings = load(
      service(`    - { port: 80 }
    - { name: Web_1, port: 0, targetPort: 70000 }
    - { name: dup, port: 81, targetPort: "8080" }
    - { name: dup, port: 82 }
`),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/ports/0/name', 'Required value'],
      [
        '/spec/ports/1/name',
        `Invalid value: "Web_1": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
      ['/spec/ports/1/port', 'Invalid value: 0: must be between 1 and 65535, inclusive'],
      ['/spec/ports/1/targetPort', 'Invalid value: 70000: must be between 1 and 65535, inclusive'],
      ['/spec/ports/2/targetPort', 'Invalid value: "8080": must contain at least one letter (a-z)'],
      ['/spec/ports/3/name', 'Duplicate value: "dup"'],
    ]);
  });
});

describe("a Service's type-dependent fields (core validation: ValidateService)", () => {
  const service = (spec: string) =>
    `apiVersion: v1\nkind: Service\nmetadata: { name: web }\nspec:\n${spec}`;

  it('warns, as the API server does, of the topology hints annotation and of fields its type ignores (GetWarningsForService)', () => {
    const findings = load(
      `apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  annotations: { service.kubernetes.io/topology-aware-hints: auto }\nspec:\n  ports: [{ port: 80 }]\n  externalName: web.example.com\n` +
        `---\napiVersion: v1\nkind: Service\nmetadata: { name: ext }\nspec:\n  type: ExternalName\n  externalName: db.example.com\n  externalIPs: [192.0.2.10]\n`,
    );
    expect(findings.map((f) => [f.code, f.pointer, f.message])).toEqual([
      [
        'api-warning',
        '/metadata/annotations/service.kubernetes.io~1topology-aware-hints',
        'annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead',
      ],
      [
        'api-warning',
        '/spec/externalName',
        'spec.externalName is ignored when spec.type is not "ExternalName"',
      ],
      [
        'api-warning',
        '/spec/externalIPs',
        'spec.externalIPs is ignored when spec.type is "ExternalName"',
      ],
    ]);
  });

  it('takes each type with the fields it may have', () => {
    expect(load(service('  ports: [{ port: 80 }]\n'))).toEqual([]);
    expect(load(service('  type: NodePort\n  ports: [{ port: 80, nodePort: 30080 }]\n'))).toEqual(
      [],
    );
    expect(
      load(
        service(
          '  type: LoadBalancer\n  ports: [{ port: 80 }]\n  loadBalancerSourceRanges: [10.0.0.0/8, " 192.168.0.0/16"]\n',
        ),
      ),
    ).toEqual([]);
    expect(load(service('  type: ExternalName\n  externalName: db.example.com.\n'))).toEqual([]);
    expect(
      load(
        service(
          '  ports: [{ port: 80 }]\n  sessionAffinity: ClientIP\n  sessionAffinityConfig: { clientIP: { timeoutSeconds: 86400 } }\n',
        ),
      ),
    ).toEqual([]);
  });

  it('reports what the type forbids or needs, each at its field', () => {
    expect(
      load(
        service(
          '  ports: [{ port: 80, nodePort: 30080 }]\n  loadBalancerSourceRanges: [10.0.0.0/8]\n  sessionAffinity: ClientIP\n  sessionAffinityConfig: { clientIP: { timeoutSeconds: 0 } }\n',
        ),
      ).map(at),
    ).toEqual([
      ['/spec/ports/0/nodePort', "Forbidden: may not be used when `type` is 'ClusterIP'"],
      [
        '/spec/loadBalancerSourceRanges',
        "Forbidden: may only be used when `type` is 'LoadBalancer'",
      ],
      [
        '/spec/sessionAffinityConfig/clientIP/timeoutSeconds',
        'Invalid value: 0: must be greater than 0 and less than 86400',
      ],
    ]);
    expect(load(service('  type: ExternalName\n')).map(at)).toEqual([
      ['/spec/externalName', 'Required value'],
    ]);
    expect(
      load(
        service(
          '  type: LoadBalancer\n  clusterIP: None\n  ports: [{ port: 80 }]\n  loadBalancerSourceRanges: [office]\n',
        ),
      ).map(at),
    ).toEqual([
      [
        '/spec/clusterIP',
        'Invalid value: "None": may not be set to \'None\' for LoadBalancer services',
      ],
      [
        '/spec/loadBalancerSourceRanges/0',
        'Invalid value: "office": must be a list of IP ranges. For example, 10.240.0.0/24,10.250.0.0/24 ',
      ],
    ]);
  });
});

describe("a pod's volumes (core validation: validateVolumes, ValidateVolumeMounts)", () => {
  const pod = (body: string) => `apiVersion: v1
kind: Pod
metadata: { name: p }
spec:
${body}`;

  it('takes mounts of the pod volumes at distinct paths', () => {
    expect(
      load(
        pod(`  volumes: [{ name: cache, emptyDir: {} }, { name: config, configMap: { name: app } }]
  containers:
    - name: app
      image: nginx
      volumeMounts: [{ name: cache, mountPath: /cache }, { name: config, mountPath: /etc/app }]
`),
      ),
    ).toEqual([]);
  });

  it("refuses a volume name that is no DNS-1123 label and a mount of no volume (duplicates are the list keys' to report)", () => {
    const findings = load(
      pod(`  volumes: [{ name: Cache, emptyDir: {} }, { name: data, emptyDir: {} }]
  containers:
    - name: app
      image: nginx
      volumeMounts: [{ name: data, mountPath: /data }, { name: logs, mountPath: /logs }]
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/volumes/0/name',
        `Invalid value: "Cache": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
      ['/spec/containers/0/volumeMounts/1/name', 'Not found: "logs"'],
    ]);
  });

  it("checks an ephemeral volume's claim template as a claim, with labels and annotations alone in its metadata (validateEphemeralVolumeSource)", () => {
    const volumes = `  containers: [{ name: app, image: nginx }]
  volumes:
    - name: scratch
      ephemeral:
        volumeClaimTemplate:
          metadata: { labels: { type: scratch }, creationTimestamp: null }
          spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
`;
    expect(load(pod(volumes))).toEqual([]);
    const findings = load(
      pod(`  containers: [{ name: app, image: nginx }]
  volumes:
    - name: scratch
      ephemeral:
        volumeClaimTemplate:
          metadata: { name: scratch, labels: { type: scratch } }
          spec: { storageClassName: fast, resources: { requests: { storage: 1Gi } } }
    - name: none
      ephemeral: {}
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/volumes/0/ephemeral/volumeClaimTemplate/metadata/name',
        'Forbidden: cannot be set for an ephemeral volume',
      ],
      [
        '/spec/volumes/0/ephemeral/volumeClaimTemplate/spec/accessModes',
        'Required value: at least 1 access mode is required',
      ],
      ['/spec/volumes/1/ephemeral/volumeClaimTemplate', 'Required value'],
    ]);
  });

  it("counts a StatefulSet's claim templates as its pods' volumes (kubernetes/examples' Cassandra)", () => {
    const statefulSet = (claim: string) => `apiVersion: apps/v1
kind: StatefulSet
metadata: { name: db }
spec:
  serviceName: db
  selector: { matchLabels: { app: db } }
  template:
    metadata: { labels: { app: db } }
    spec:
      containers:
        - { name: db, image: cassandra, volumeMounts: [{ name: data, mountPath: /var/lib/cassandra }] }
  volumeClaimTemplates:
    - metadata: { name: ${claim} }
      spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } }
`;
    expect(load(statefulSet('data'))).toEqual([]);
    expect(load(statefulSet('other')).map(at)).toEqual([
      ['/spec/template/spec/containers/0/volumeMounts/0/name', 'Not found: "data"'],
    ]);
  });
});

describe("a PersistentVolumeClaim's spec (core validation: ValidatePersistentVolumeClaimSpec)", () => {
  let n = 0;
  const claim = (spec: string) =>
    `---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: { name: data${++n} }\nspec:\n${spec}`;

  it('takes a claim with an access mode and a storage request', () => {
    expect(
      load(claim('  accessModes: [ReadWriteOnce]\n  resources: { requests: { storage: 1Gi } }\n')),
    ).toEqual([]);
  });

  it('refuses a claim without access modes or storage, with ReadWriteOncePod beside another mode, or asking for none', () => {
    expect(
      load(
        claim('  resources: { requests: { cpu: 1 } }\n') +
          claim(
            '  accessModes: [ReadWriteOncePod, ReadWriteOnce]\n  resources: { requests: { storage: "0" } }\n',
          ),
      ).map(at),
    ).toEqual([
      ['/spec/accessModes', 'Required value: at least 1 access mode is required'],
      [
        '/spec/resources/requests',
        'Required value: a storage request (resources.requests.storage)',
      ],
      ['/spec/accessModes', 'Forbidden: may not use ReadWriteOncePod with other access modes'],
      ['/spec/resources/requests/storage', 'Invalid value: "0": must be greater than zero'],
    ]);
  });
});

describe("a workload's pod template deadline and a StatefulSet's update strategy (apps validation)", () => {
  const workload = (kind: string, extra = '', body = '      activeDeadlineSeconds: 10\n') =>
    `---
apiVersion: ${kind === 'ReplicationController' ? 'v1' : 'apps/v1'}
kind: ${kind}
metadata: { name: w }
spec:
${kind === 'ReplicationController' ? '' : '  selector: { matchLabels: { a: b } }\n'}${extra}  template:
    metadata: { labels: { a: b } }
    spec:
${body}      containers: [{ name: c, image: x }]
`;

  it('refuses activeDeadlineSeconds in any template but a Job', () => {
    const text = ['Deployment', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'ReplicationController']
      .map((kind) => workload(kind, kind === 'StatefulSet' ? '  serviceName: w\n' : ''))
      .join('');
    const findings = load(text);
    const word = ['ReplicaSet', 'ReplicaSet', 'StatefulSet', 'DaemonSet', 'ReplicationController'];
    expect(findings.map((f) => [f.pointer, f.message, f.col])).toEqual(
      word.map((w) => [
        '/spec/template/spec/activeDeadlineSeconds',
        `Forbidden: activeDeadlineSeconds in ${w} is not Supported`,
        30,
      ]),
    );
  });

  it("refuses a StatefulSet's rollingUpdate beside type OnDelete, an empty one too", () => {
    const findings = load(
      workload(
        'StatefulSet',
        '  serviceName: w\n  updateStrategy: { type: OnDelete, rollingUpdate: { partition: 1 } }\n',
        '',
      ) +
        workload(
          'StatefulSet',
          '  serviceName: w\n  updateStrategy: { type: OnDelete, rollingUpdate: {} }\n',
          '',
        ).replace('name: w', 'name: v'),
    );
    expect(findings.map((f) => [f.pointer, f.message, f.line])).toEqual([
      [
        '/spec/updateStrategy/rollingUpdate',
        `Invalid value: {"partition":1}: only allowed for updateStrategy 'RollingUpdate'`,
        8,
      ],
      [
        '/spec/updateStrategy/rollingUpdate',
        "Invalid value: {}: only allowed for updateStrategy 'RollingUpdate'",
        20,
      ],
    ]);
  });

  it('takes a template without a deadline, OnDelete alone and RollingUpdate with a partition', () => {
    const text =
      workload('Deployment', '', '') +
      workload('StatefulSet', '  serviceName: w\n  updateStrategy: { type: OnDelete }\n', '') +
      workload(
        'StatefulSet',
        '  serviceName: w\n  updateStrategy: { type: RollingUpdate, rollingUpdate: { partition: 2 } }\n',
        '      activeDeadlineSeconds: null\n',
      ).replace('name: w', 'name: v');
    expect(load(text)).toEqual([]);
  });
});
