import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * What the API server refuses of PriorityClasses (k8s.io/kubernetes
 * `pkg/apis/scheduling/validation` `ValidatePriorityClass`) and LimitRanges
 * (`pkg/apis/core/validation` `ValidateLimitRange`) that their OpenAPI passes.
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string) => loadManifests([{ path: 'policy.yaml', text }]).findings;

const priorityClass = (name: string, fields: string) =>
  `---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: { name: ${name} }\n${fields}`;

describe('a PriorityClass (ValidatePriorityClass)', () => {
  it('takes a user class up to 1e9 and the system classes as the system defines them', () => {
    expect(
      load(
        priorityClass('high-priority', 'value: 1000000000\nglobalDefault: false\n') +
          priorityClass('system-cluster-critical', 'value: 2000000000\n'),
      ),
    ).toEqual([]);
  });

  it('refuses a user value above 1e9 and system- names that are not the system classes', () => {
    expect(
      load(
        priorityClass('too-high', 'value: 1000000001\n') +
          priorityClass('system-critical', 'value: 2000000000\n') +
          priorityClass('system-node-critical', 'value: 2000000000\n') +
          priorityClass('system-cluster-critical', 'value: 2000000000\nglobalDefault: true\n'),
      ).map(at),
    ).toEqual([
      ['/value', 'Forbidden: maximum allowed value of a user defined priority is 1000000000'],
      [
        '/metadata/name',
        "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-critical is not a known system priority class",
      ],
      [
        '/metadata/name',
        "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-node-critical PriorityClass must be 2000001000",
      ],
      [
        '/metadata/name',
        "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false",
      ],
    ]);
  });
});

let n = 0;
const limitRange = (limits: string) =>
  `---\napiVersion: v1\nkind: LimitRange\nmetadata: { name: limits${++n} }\nspec:\n  limits:\n${limits}`;

describe('a LimitRange (ValidateLimitRange)', () => {
  it('takes the limits the Kubernetes docs show', () => {
    expect(
      load(
        limitRange(`    - type: Container
      default: { cpu: 500m, memory: 512Mi }
      defaultRequest: { cpu: 500m, memory: 256Mi }
      max: { cpu: "1", memory: 1Gi }
      min: { cpu: 100m, memory: 128Mi }
      maxLimitRequestRatio: { cpu: "2" }
    - type: Pod
      max: { cpu: "2" }
    - type: PersistentVolumeClaim
      min: { storage: 1Gi }
      max: { storage: 10Gi }
`),
      ),
    ).toEqual([]);
  });

  it('refuses bounds out of order, defaults on a Pod limit, a type twice or unknown, a PVC limit without storage', () => {
    expect(
      load(
        limitRange(`    - type: Container
      min: { cpu: "2" }
      max: { cpu: 1000m }
      default: { memory: 1Gi, nvidia.com/gpu: "2" }
      defaultRequest: { memory: 2Gi, nvidia.com/gpu: "1" }
      maxLimitRequestRatio: { memory: 500m }
    - type: Container
    - type: Pod
      default: { cpu: "1" }
    - type: Node
    - type: PersistentVolumeClaim
      max: { cpu: "1" }
`),
      ).map(at),
    ).toEqual([
      ['/spec/limits/0/min/cpu', 'Invalid value: "2": min value 2 is greater than max value 1'],
      [
        '/spec/limits/0/defaultRequest/memory',
        'Invalid value: "2Gi": default request value 2Gi is greater than default limit value 1Gi',
      ],
      [
        '/spec/limits/0/defaultRequest/nvidia.com~1gpu',
        'Invalid value: "1": default value 2 must equal to defaultRequest value 1 in nvidia.com/gpu',
      ],
      [
        '/spec/limits/0/maxLimitRequestRatio/memory',
        'Invalid value: "500m": ratio 500m is less than 1',
      ],
      ['/spec/limits/1/type', 'Duplicate value: "Container"'],
      ['/spec/limits/2/default', "Forbidden: may not be specified when `type` is 'Pod'"],
      [
        '/spec/limits/3/type',
        'Invalid value: "Node": must be a standard limit type or fully qualified',
      ],
      [
        '/spec/limits/4',
        'Required value: either minimum or maximum storage value is required, but neither was provided',
      ],
    ]);
  });
});

const quota = (hard: string) =>
  `---\napiVersion: v1\nkind: ResourceQuota\nmetadata: { name: quota${++n} }\nspec:\n  hard:\n${hard}`;

describe("a ResourceQuota's hard limits (ValidateResourceQuotaSpec)", () => {
  it('takes standard, counted, storage-class, extended and huge page resources', () => {
    expect(
      load(
        quota(`    requests.cpu: "4"
    limits.memory: 8Gi
    pods: "10"
    services.loadbalancers: "2"
    count/deployments.apps: "5"
    gold.storageclass.storage.k8s.io/requests.storage: 500Gi
    requests.nvidia.com/gpu: "4"
    requests.hugepages-2Mi: 1Gi
`),
      ),
    ).toEqual([]);
  });

  it('refuses scopes that do not apply to the resources limited, and conflicting scopes', () => {
    const scoped = (scopes: string, hard: string) =>
      `---\napiVersion: v1\nkind: ResourceQuota\nmetadata: { name: quota${++n} }\nspec:\n  scopes: ${scopes}\n  hard:\n${hard}`;
    expect(
      load(
        scoped('[NotBestEffort, NotTerminating]', '    pods: "10"\n    requests.cpu: "4"\n') +
          scoped('[BestEffort]', '    pods: "10"\n    count/jobs.batch: "3"\n'),
      ),
    ).toEqual([]);
    expect(
      load(
        scoped('[BestEffort, NotBestEffort]', '    pods: "10"\n    requests.memory: 1Gi\n') +
          scoped('[Terminating]', '    services: "2"\n'),
      ).map(at),
    ).toEqual([
      [
        '/spec/scopes',
        'Invalid value: []string{"BestEffort", "NotBestEffort"}: unsupported scope applied to resource (requests.memory)',
      ],
      [
        '/spec/scopes',
        'Invalid value: []string{"BestEffort", "NotBestEffort"}: conflicting scopes',
      ],
      [
        '/spec/scopes',
        'Invalid value: []string{"Terminating"}: unsupported scope applied to resource (services)',
      ],
    ]);
  });

  it("checks a scope selector's expressions as the scopes list, with each operator's values (validateScopedResourceSelectorRequirement)", () => {
    const selected = (expressions: string, hard: string) =>
      `---\napiVersion: v1\nkind: ResourceQuota\nmetadata: { name: quota${++n} }\nspec:\n  hard:\n${hard}  scopeSelector:\n    matchExpressions:\n${expressions}`;
    // The Kubernetes docs' quota per priority class, and a cross-namespace affinity quota.
    expect(
      load(
        selected(
          '      - { operator: In, scopeName: PriorityClass, values: [high] }\n',
          '    cpu: "1000"\n    memory: 200Gi\n    pods: "10"\n',
        ) +
          selected(
            '      - { scopeName: CrossNamespacePodAffinity, operator: Exists }\n',
            '    pods: "0"\n',
          ),
      ),
    ).toEqual([]);
    expect(
      load(
        selected(
          `      - { scopeName: BestEffort, operator: In, values: [x] }
      - { scopeName: NotBestEffort, operator: Exists, values: [z] }
      - { scopeName: PriorityClass, operator: NotIn }
`,
          '    pods: "10"\n    requests.memory: 1Gi\n',
        ),
      ).map(at),
    ).toEqual([
      [
        '/spec/scopeSelector/matchExpressions',
        'Invalid value: []string{"BestEffort", "NotBestEffort"}: conflicting scopes',
      ],
      [
        '/spec/scopeSelector/matchExpressions/0',
        'Invalid value: "BestEffort": unsupported scope applied to resource (requests.memory)',
      ],
      [
        '/spec/scopeSelector/matchExpressions/0/operator',
        'Invalid value: "In": must be \'Exist\' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity',
      ],
      [
        '/spec/scopeSelector/matchExpressions/1/values',
        `Invalid value: []string{"z"}: must be no value when \`operator\` is 'Exist' or 'DoesNotExist' for scope selector`,
      ],
      [
        '/spec/scopeSelector/matchExpressions/2/values',
        "Required value: must be at least one value when `operator` is 'In' or 'NotIn' for scope selector",
      ],
    ]);
  });

  it('refuses names the quota system does not know, negative amounts and fractional counts', () => {
    expect(
      load(
        quota(`    storage: 10Gi
    cpus: "4"
    requests.cpu: "-1"
    pods: 1500m
`),
      ).map(at),
    ).toEqual([
      ['/spec/hard/storage', 'Invalid value: "storage": must be a standard resource for quota'],
      [
        '/spec/hard/cpus',
        'Invalid value: "cpus": must be a standard resource type or fully qualified',
      ],
      ['/spec/hard/cpus', 'Invalid value: "cpus": must be a standard resource for quota'],
      ['/spec/hard/requests.cpu', 'Invalid value: "-1": must be greater than or equal to 0'],
      ['/spec/hard/pods', 'Invalid value: "1500m": must be an integer'],
    ]);
  });
});

const apiService = (name: string, spec: string) =>
  `---\napiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: { name: ${name} }\nspec:\n${spec}`;

describe('an APIService (ValidateAPIService)', () => {
  it("takes metrics-server's and the legacy group's", () => {
    expect(
      load(
        apiService(
          'v1beta1.metrics.k8s.io',
          `  group: metrics.k8s.io
  version: v1beta1
  groupPriorityMinimum: 100
  versionPriority: 100
  insecureSkipTLSVerify: true
  service: { name: metrics-server, namespace: kube-system }
`,
        ) +
          apiService('v1.', '  version: v1\n  groupPriorityMinimum: 18000\n  versionPriority: 1\n'),
      ),
    ).toEqual([]);
  });

  it('refuses a name that is not version.group, priorities out of range, TLS settings that contradict', () => {
    expect(
      load(
        apiService(
          'metrics',
          `  group: metrics.k8s.io
  version: v1beta1
  groupPriorityMinimum: 30000
  versionPriority: 0
  insecureSkipTLSVerify: true
  caBundle: Y2VydA==
  service: { name: metrics-server, namespace: kube-system, port: 0 }
`,
        ) +
          apiService(
            'v1.local.example.com',
            `  group: local.example.com
  version: v1
  groupPriorityMinimum: 100
  versionPriority: 10
  caBundle: Y2VydA==
`,
          ),
      ).map(at),
    ).toEqual([
      [
        '/metadata/name',
        'Invalid value: "metrics": must be `spec.version+"."+spec.group`: "v1beta1.metrics.k8s.io"',
      ],
      ['/spec/groupPriorityMinimum', 'Invalid value: 30000: must be positive and less than 20000'],
      ['/spec/versionPriority', 'Invalid value: 0: must be positive and less than 1000'],
      [
        '/spec/insecureSkipTLSVerify',
        'Invalid value: true: may not be true if caBundle is present',
      ],
      [
        '/spec/service/port',
        'Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      ],
      ['/spec/caBundle', 'Invalid value: "4 bytes": local APIServices may not have a caBundle'],
    ]);
  });
});

describe('a LimitRange ratio and a RuntimeClass (ValidateLimitRange, ValidateRuntimeClass)', () => {
  it('refuses a limit/request ratio above max/min', () => {
    expect(
      load(
        limitRange(`    - type: Container
      min: { cpu: 250m }
      max: { cpu: "1" }
      maxLimitRequestRatio: { cpu: "4" }
    - type: Pod
      min: { memory: 100Mi }
      max: { memory: 200Mi }
      maxLimitRequestRatio: { memory: "3" }
`),
      ).map(at),
    ).toEqual([
      [
        '/spec/limits/1/maxLimitRequestRatio/memory',
        'Invalid value: "3": ratio 3 is greater than max/min = 2.000000',
      ],
    ]);
  });

  it("refuses a handler that is no DNS-1123 label and a node selector's bad labels, and warns of a deprecated one", () => {
    const runtimeClass = (fields: string) =>
      `---\napiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: { name: rc${++n} }\n${fields}`;
    expect(
      load(
        runtimeClass(
          'handler: runc\nscheduling: { nodeSelector: { sandbox.example.com/kata: "true", beta.kubernetes.io/arch: amd64 } }\n',
        ) +
          runtimeClass('handler: Kata_Containers\nscheduling: { nodeSelector: { "a b": x } }\n') +
          runtimeClass('handler: kata\noverhead: { podFixed: { cpu: 250m, memory: 120Mi } }\n') +
          runtimeClass('handler: gvisor\noverhead: { podFixed: { cpus: 250m, memory: -1Mi } }\n'),
      ).map(at),
    ).toEqual([
      [
        '/scheduling/nodeSelector/beta.kubernetes.io~1arch',
        'deprecated since v1.14; use "kubernetes.io/arch" instead',
      ],
      [
        '/handler',
        `Invalid value: "Kata_Containers": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
      ],
      [
        '/scheduling/nodeSelector/a b',
        `Invalid value: "a b": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
      [
        '/overhead/podFixed/cpus',
        'Invalid value: "cpus": must be a standard resource type or fully qualified',
      ],
      [
        '/overhead/podFixed/cpus',
        'Invalid value: "cpus": must be a standard resource for containers',
      ],
      ['/overhead/podFixed/memory', 'Invalid value: "-1Mi": must be greater than or equal to 0'],
    ]);
  });

  it("checks its scheduling tolerations as a pod's, none twice (validateScheduling)", () => {
    const runtimeClass = (tolerations: string) =>
      `---\napiVersion: node.k8s.io/v1\nkind: RuntimeClass\nmetadata: { name: rc${++n} }\nhandler: kata\nscheduling:\n  tolerations:\n${tolerations}`;
    expect(
      load(
        runtimeClass(
          '    - { key: sandbox.example.com/kata, operator: Exists, effect: NoSchedule }\n    - { key: gpu, operator: Equal, value: "true", effect: NoSchedule }\n',
        ),
      ),
    ).toEqual([]);
    expect(
      load(
        runtimeClass(`    - { key: sandbox, operator: Exists, effect: NoSchedule }
    - { operator: Equal, value: kata }
    - { key: sandbox, operator: Exists, effect: NoSchedule, tolerationSeconds: 30 }
`),
      ).map(at),
    ).toEqual([
      [
        '/scheduling/tolerations/1/operator',
        'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
      [
        '/scheduling/tolerations/2',
        'Duplicate value: {"key":"sandbox","operator":"Exists","effect":"NoSchedule","tolerationSeconds":30}',
      ],
      [
        '/scheduling/tolerations/2/effect',
        `Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
      ],
    ]);
  });
});
