import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import type { KubernetesRelease } from '../../../src/loaders/kubernetes/kubernetes-release.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { shortenPointer } from '../../../src/loaders/shorten.js';

/**
 * What the API server checks in Go of a pod's security contexts, affinity, tolerations,
 * ephemeral containers, downward API field and resource references, DNS config, host aliases,
 * readiness and scheduling gates and Windows hostProcess containers, beyond the OpenAPI, with its messages
 * and field paths (k8s.io/kubernetes 1.36 `pkg/apis/core/validation/validation.go`; apimachinery
 * `util/validation`). Each case names the Go function whose check it is.
 */

const at = (f: Finding) => [f.pointer, f.message];
/** Expected findings, their pointers as findings show them (a key over 32 characters is cut). */
const shown = (rows: string[][]) =>
  rows.map(([pointer = '', message]) => [shortenPointer(pointer), message]);
/** The errors of a manifest: the API server's warnings (a null selector) are go-pod-warnings'. */
const load = (text: string, kubernetesVersion?: KubernetesRelease) =>
  loadManifests(
    [{ path: 'pod.yaml', text }],
    kubernetesVersion ? { kubernetesVersion } : {},
  ).findings.filter((f) => f.code !== 'api-warning');

const pod = (body: string) => `apiVersion: v1
kind: Pod
metadata: { name: p }
spec:
${body}`;
const withContainer = (body: string) =>
  pod(`${body}  containers:\n    - name: app\n      image: nginx\n`);
const container = (fields: string) =>
  pod(`  containers:\n    - name: app\n      image: nginx\n${fields}`);

const ID_RANGE = 'must be between 0 and 2147483647, inclusive';
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('security contexts (validatePodSpecSecurityContext, ValidateSecurityContext)', () => {
  it('takes the restricted security contexts real workloads ship (ingress-nginx, kube-prometheus)', () => {
    const text = pod(`  securityContext:
    runAsNonRoot: true
    runAsUser: 65534
    runAsGroup: 65534
    fsGroup: 2000
    supplementalGroups: [1000]
    seccompProfile: { type: RuntimeDefault }
    sysctls: [{ name: net.ipv4.ip_unprivileged_port_start, value: "0" }, { name: kernel/shm_rmid_forced, value: "1" }]
  containers:
    - name: controller
      image: registry.k8s.io/ingress-nginx/controller:v1.12.0
      securityContext:
        allowPrivilegeEscalation: false
        capabilities: { add: [NET_BIND_SERVICE], drop: [ALL] }
        readOnlyRootFilesystem: false
        runAsNonRoot: true
        runAsUser: 101
        seccompProfile: { type: Localhost, localhostProfile: profiles/audit.json }
        appArmorProfile: { type: Localhost, localhostProfile: k8s-nginx }
`);
    expect(load(text)).toEqual([]);
  });

  it('refuses user and group ids outside 0-2147483647 (IsValidUserID, IsValidGroupID)', () => {
    const findings = load(
      pod(`  securityContext: { runAsUser: -1, runAsGroup: 2147483648, fsGroup: -2, supplementalGroups: [0, -3] }
  containers:
    - { name: app, image: nginx, securityContext: { runAsUser: 4294967296, runAsGroup: -1 } }
`),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/securityContext/runAsUser', `Invalid value: -1: ${ID_RANGE}`],
      ['/spec/securityContext/runAsGroup', `Invalid value: 2147483648: ${ID_RANGE}`],
      ['/spec/securityContext/fsGroup', `Invalid value: -2: ${ID_RANGE}`],
      ['/spec/securityContext/supplementalGroups/1', `Invalid value: -3: ${ID_RANGE}`],
      ['/spec/containers/0/securityContext/runAsUser', `Invalid value: 4294967296: ${ID_RANGE}`],
      ['/spec/containers/0/securityContext/runAsGroup', `Invalid value: -1: ${ID_RANGE}`],
    ]);
  });

  it('takes runAsNonRoot beside runAsUser 0, as the API server does (the kubelet refuses to start the container)', () => {
    expect(
      load(container('      securityContext: { runAsNonRoot: true, runAsUser: 0 }\n')),
    ).toEqual([]);
  });

  it('needs a local profile for a Localhost seccomp profile, and only there (validateSeccompProfileField, validateLocalDescendingPath)', () => {
    const findings = load(
      pod(`  securityContext: { seccompProfile: { type: Localhost } }
  containers:
    - { name: a, image: nginx, securityContext: { seccompProfile: { type: Localhost, localhostProfile: /etc/x.json } } }
    - { name: b, image: nginx, securityContext: { seccompProfile: { type: Localhost, localhostProfile: ../x.json } } }
    - { name: c, image: nginx, securityContext: { seccompProfile: { type: RuntimeDefault, localhostProfile: x.json } } }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/securityContext/seccompProfile/localhostProfile',
        'Required value: must be set when seccomp type is Localhost',
      ],
      [
        '/spec/containers/0/securityContext/seccompProfile/localhostProfile',
        'Invalid value: "/etc/x.json": must be a relative path',
      ],
      [
        '/spec/containers/1/securityContext/seccompProfile/localhostProfile',
        `Invalid value: "../x.json": must not contain '..'`,
      ],
      [
        '/spec/containers/2/securityContext/seccompProfile/localhostProfile',
        'Invalid value: {"type":"RuntimeDefault","localhostProfile":"x.json"}: can only be set when seccomp type is Localhost',
      ],
    ]);
  });

  it('leaves AppArmor profiles to the schema before 1.30, whose API has none', () => {
    const findings = load(
      container('      securityContext: { appArmorProfile: { type: Localhost } }\n'),
      '1.29',
    );
    expect(findings.map((f) => [f.code, f.pointer])).toEqual([
      ['schema-violation', '/spec/containers/0/securityContext/appArmorProfile'],
    ]);
  });

  it('needs a local profile for a Localhost AppArmor profile, unpadded, and only there (ValidateAppArmorProfileField)', () => {
    const findings = load(
      pod(`  securityContext: { appArmorProfile: { type: Localhost, localhostProfile: " k8s " } }
  containers:
    - { name: a, image: nginx, securityContext: { appArmorProfile: { type: Localhost } } }
    - { name: b, image: nginx, securityContext: { appArmorProfile: { type: Unconfined, localhostProfile: k8s } } }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/securityContext/appArmorProfile/localhostProfile',
        'Invalid value: " k8s ": must not be padded with whitespace',
      ],
      [
        '/spec/containers/0/securityContext/appArmorProfile/localhostProfile',
        'Required value: must be set when AppArmor type is Localhost',
      ],
      [
        '/spec/containers/1/securityContext/appArmorProfile/localhostProfile',
        'Invalid value: "k8s": can only be set when AppArmor type is Localhost',
      ],
    ]);
  });

  it('checks sysctl names, their uniqueness and the namespaces a pod shares with its host (validateSysctls, ValidateHostSysctl)', () => {
    const findings = load(
      withContainer(`  hostNetwork: true
  hostIPC: true
  securityContext:
    sysctls:
      - { name: net.core.somaxconn, value: "1024" }
      - { name: net/ipv4/tcp_syncookies, value: "1" }
      - { name: kernel.shm_rmid_forced, value: "1" }
      - { name: "Kernel.Bad!", value: "1" }
      - { name: "", value: "1" }
      - { name: vm.max_map_count, value: "1" }
      - { name: vm.max_map_count, value: "2" }
`),
    );
    const name = (i: number) => `/spec/securityContext/sysctls/${i}/name`;
    expect(findings.map(at)).toEqual([
      [
        name(0),
        `Invalid value: "net.core.somaxconn": may not be specified when 'hostNetwork' is true`,
      ],
      [
        name(1),
        `Invalid value: "net/ipv4/tcp_syncookies": may not be specified when 'hostNetwork' is true`,
      ],
      [
        name(2),
        `Invalid value: "kernel.shm_rmid_forced": may not be specified when 'hostIPC' is true`,
      ],
      [
        name(3),
        'Invalid value: "Kernel.Bad!": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$',
      ],
      [name(4), 'Required value'],
      [name(6), 'Duplicate value: "vm.max_map_count"'],
    ]);
  });

  it('refuses an Unmasked /proc outside a user namespace from 1.33, where the field is kept (ValidateSecurityContext, ProcMountType)', () => {
    const text = (hostUsers: string) =>
      pod(`${hostUsers}  containers:
    - { name: app, image: nginx, securityContext: { procMount: Unmasked } }
`);
    expect(load(text('')).map(at)).toEqual([
      [
        '/spec/containers/0/securityContext/procMount',
        'Invalid value: "Unmasked": `hostUsers` must be false to use `Unmasked`',
      ],
    ]);
    expect(load(text('  hostUsers: false\n'))).toEqual([]);
    expect(load(text(''), '1.32')).toEqual([]);
  });

  it('refuses allowPrivilegeEscalation false with privileged or CAP_SYS_ADMIN (ValidateSecurityContext)', () => {
    const findings = load(
      pod(`  containers:
    - { name: a, image: nginx, securityContext: { allowPrivilegeEscalation: false, privileged: true } }
    - { name: b, image: nginx, securityContext: { allowPrivilegeEscalation: false, capabilities: { add: [CAP_SYS_ADMIN] } } }
    - { name: c, image: nginx, securityContext: { allowPrivilegeEscalation: true, privileged: true, capabilities: { add: [CAP_SYS_ADMIN] } } }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/containers/0/securityContext',
        'Invalid value: {"allowPrivilegeEscalation":false,"privileged":true}: cannot set `allowPrivilegeEscalation` to false and `privileged` to true',
      ],
      [
        '/spec/containers/1/securityContext',
        'Invalid value: {"allowPrivilegeEscalation":false,"capabilities":{"add":["CAP_SYS_ADMIN"]}}: cannot set `allowPrivilegeEscalation` to false and `capabilities.Add` CAP_SYS_ADMIN',
      ],
    ]);
  });

  it("checks Windows options' credential spec and user name (validateWindowsSecurityContextOptions)", () => {
    const findings = load(
      pod(`  securityContext: { windowsOptions: { gmsaCredentialSpecName: Web_Spec, gmsaCredentialSpec: "", runAsUserName: "a\\\\b\\\\c" } }
  containers:
    - { name: a, image: nginx, securityContext: { windowsOptions: { runAsUserName: "bad:domain\\\\..." } } }
    - { name: b, image: nginx, securityContext: { windowsOptions: { runAsUserName: "CONTOSO\\\\svc-web", hostProcess: false } } }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/securityContext/windowsOptions/gmsaCredentialSpecName',
        `Invalid value: "Web_Spec": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      [
        '/spec/securityContext/windowsOptions/gmsaCredentialSpec',
        'Invalid value: "": gmsaCredentialSpec cannot be an empty string',
      ],
      [
        '/spec/securityContext/windowsOptions/runAsUserName',
        'Invalid value: "a\\\\b\\\\c": runAsUserName cannot contain more than one backslash',
      ],
      [
        '/spec/containers/0/securityContext/windowsOptions/runAsUserName',
        `Invalid value: "bad:domain\\\\...": runAsUserName's Domain doesn't match the NetBios nor the DNS format`,
      ],
      [
        '/spec/containers/0/securityContext/windowsOptions/runAsUserName',
        'Invalid value: "bad:domain\\\\...": runAsUserName\'s User cannot contain only periods or spaces',
      ],
    ]);
  });

  it("refuses ASCII control characters in a Windows user name, not other Unicode (validateWindowsSecurityContextOptions' [[:cntrl:]])", () => {
    const user = (name: string) =>
      load(container(`      securityContext: { windowsOptions: { runAsUserName: "${name}" } }\n`));
    expect(user('web\\tuser').map(at)).toEqual([
      [
        '/spec/containers/0/securityContext/windowsOptions/runAsUserName',
        'Invalid value: "web\\tuser": runAsUserName cannot contain control characters',
      ],
    ]);
    expect(user('web\\u0085user')).toEqual([]);
  });

  it('refuses host namespaces in a pod of its own user namespace from 1.33, and a shared process namespace with the host PID (validateHostUsers, validatePodSpecSecurityContext)', () => {
    const text = withContainer(`  hostUsers: false
  hostNetwork: true
  hostPID: true
  shareProcessNamespace: true
`);
    // Before 1.33 the API server drops `hostUsers` (UserNamespacesSupport is off by default).
    expect(load(text, '1.32').map(at)).toEqual([
      [
        '/spec/shareProcessNamespace',
        'Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
      ],
    ]);
    const findings = load(text);
    expect(findings.map(at)).toEqual([
      ['/spec/hostNetwork', 'Forbidden: when `pod.Spec.HostUsers` is false'],
      ['/spec/hostPID', 'Forbidden: when `pod.Spec.HostUsers` is false'],
      [
        '/spec/shareProcessNamespace',
        'Invalid value: true: ShareProcessNamespace and HostPID cannot both be enabled',
      ],
    ]);
  });

  it("refuses the fields a pod's OS cannot use (validateLinux, validateWindows)", () => {
    const linux = load(
      pod(`  os: { name: linux }
  securityContext: { windowsOptions: { runAsUserName: web } }
  containers:
    - { name: app, image: nginx, securityContext: { windowsOptions: { runAsUserName: web } } }
`),
    );
    expect(linux.map(at)).toEqual([
      [
        '/spec/securityContext/windowsOptions',
        'Forbidden: windows options cannot be set for a linux pod',
      ],
      [
        '/spec/containers/0/securityContext/windowsOptions',
        'Forbidden: windows options cannot be set for a linux pod',
      ],
    ]);
    const windows = load(
      pod(`  os: { name: windows }
  hostPID: true
  securityContext: { runAsUser: 1000, seccompProfile: { type: RuntimeDefault } }
  containers:
    - { name: app, image: nginx, securityContext: { privileged: false, capabilities: { drop: [ALL] }, windowsOptions: { runAsUserName: ContainerUser } } }
`),
    );
    expect(windows.map(at)).toEqual([
      ['/spec/hostPID', 'Forbidden: cannot be set for a windows pod'],
      ['/spec/securityContext/runAsUser', 'Forbidden: cannot be set for a windows pod'],
      ['/spec/securityContext/seccompProfile', 'Forbidden: cannot be set for a windows pod'],
      [
        '/spec/containers/0/securityContext/privileged',
        'Forbidden: cannot be set for a windows pod',
      ],
      [
        '/spec/containers/0/securityContext/capabilities',
        'Forbidden: cannot be set for a windows pod',
      ],
    ]);
  });
});

describe('affinity (validateAffinity)', () => {
  it("takes a real workload's affinity (Argo CD's, ingress-nginx's)", () => {
    const text = withContainer(`  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchExpressions:
              - { key: kubernetes.io/os, operator: In, values: [linux] }
              - { key: node.kubernetes.io/instance-type, operator: Exists }
              - { key: example.com/gpu-count, operator: Gt, values: ["1"] }
            matchFields: [{ key: metadata.name, operator: NotIn, values: [node-1] }]
      preferredDuringSchedulingIgnoredDuringExecution:
        - { weight: 100, preference: { matchExpressions: [{ key: zone, operator: In, values: [eu-west-1a] }] } }
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 100
          podAffinityTerm:
            labelSelector: { matchLabels: { app.kubernetes.io/name: argocd-server } }
            topologyKey: kubernetes.io/hostname
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - labelSelector: { matchExpressions: [{ key: app, operator: NotIn, values: [db] }] }
          namespaceSelector: {}
          namespaces: [default]
          matchLabelKeys: [pod-template-hash]
          topologyKey: topology.kubernetes.io/zone
`);
    expect(load(text)).toEqual([]);
  });

  it('counts the values of a node selector requirement by its operator, and checks keys and values (ValidateNodeSelectorRequirement)', () => {
    const findings = load(
      withContainer(`  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
          - matchExpressions:
              - { key: zone, operator: In }
              - { key: disk, operator: Exists, values: [ssd] }
              - { key: cores, operator: Lt, values: ["4", "8"] }
              - { key: "bad key", operator: NotIn, values: ["not a label value"] }
`),
    );
    const rq = (i: number) =>
      `/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms/0/matchExpressions/${i}`;
    expect(findings.map(at)).toEqual(
      shown([
        [`${rq(0)}/values`, "Required value: must be specified when `operator` is 'In' or 'NotIn'"],
        [
          `${rq(1)}/values`,
          "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        ],
        [
          `${rq(2)}/values`,
          "Required value: must be specified single value when `operator` is 'Lt' or 'Gt'",
        ],
        [`${rq(3)}/key`, `Invalid value: "bad key": ${NAME_PART}`],
        [`${rq(3)}/values/0`, `Invalid value: "not a label value": ${LABEL_VALUE}`],
      ]),
    );
  });

  it('needs a node selector term, takes only metadata.name in a field selector, and allows any value in a preferred term (ValidateNodeSelector, ValidateNodeFieldSelectorRequirement, ValidatePreferredSchedulingTerms)', () => {
    const findings = load(
      withContainer(`  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [] }
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 0
          preference:
            matchExpressions: [{ key: zone, operator: In, values: ["not a label value"] }]
            matchFields:
              - { key: metadata.labels, operator: Exists }
              - { key: metadata.name, operator: In, values: [Node_1, node-2] }
`),
    );
    const na = '/spec/affinity/nodeAffinity';
    const preferred = `${na}/preferredDuringSchedulingIgnoredDuringExecution/0`;
    expect(findings.map(at)).toEqual(
      shown([
        [
          `${na}/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms`,
          'Required value: must have at least one node selector term',
        ],
        [`${preferred}/weight`, 'Invalid value: 0: must be in the range 1-100'],
        [
          `${preferred}/preference/matchFields/0/key`,
          'Invalid value: "metadata.labels": not a valid field selector key',
        ],
        [
          `${preferred}/preference/matchFields/0/operator`,
          'Invalid value: "Exists": not a valid selector operator',
        ],
        [
          `${preferred}/preference/matchFields/1/values`,
          "Required value: must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ],
        [
          `${preferred}/preference/matchFields/1/values/0`,
          `Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        ],
      ]),
    );
  });

  it('leaves absent node selector terms to the schema, which requires them (reported once)', () => {
    const findings = load(
      withContainer(
        '  affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: {} } }\n',
      ),
    );
    expect(findings.map(at)).toEqual(
      shown([
        [
          '/spec/affinity/nodeAffinity/requiredDuringSchedulingIgnoredDuringExecution/nodeSelectorTerms',
          'Required value',
        ],
      ]),
    );
  });

  it('checks a pod affinity term: selectors, namespaces, weight, topology key (validatePodAffinityTerm, ValidatePodAffinityTermSelector, validateWeightedPodAffinityTerms)', () => {
    const findings = load(
      withContainer(`  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - labelSelector:
            matchLabels: { app: "web app" }
            matchExpressions: [{ key: tier, operator: Equals, values: [web] }, { key: tier, operator: Exists, values: [web] }]
          namespaces: [Default]
          topologyKey: ""
      preferredDuringSchedulingIgnoredDuringExecution:
        - weight: 101
          podAffinityTerm:
            namespaceSelector: { matchExpressions: [{ key: team, operator: In, values: [] }] }
            topologyKey: "example.com/"
`),
    );
    const term = '/spec/affinity/podAntiAffinity/requiredDuringSchedulingIgnoredDuringExecution/0';
    const weighted =
      '/spec/affinity/podAntiAffinity/preferredDuringSchedulingIgnoredDuringExecution/0';
    expect(findings.map(at)).toEqual(
      shown([
        [`${term}/labelSelector/matchLabels/app`, `Invalid value: "web app": ${LABEL_VALUE}`],
        [
          `${term}/labelSelector/matchExpressions/0/operator`,
          'Invalid value: "Equals": not a valid selector operator',
        ],
        [
          `${term}/labelSelector/matchExpressions/1/values`,
          "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
        ],
        [
          `${term}/namespaces/0`,
          `Invalid value: "Default": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
        ],
        [`${term}/topologyKey`, 'Required value: can not be empty'],
        [`${term}/topologyKey`, 'Invalid value: "": name part must be non-empty'],
        [`${term}/topologyKey`, `Invalid value: "": ${NAME_PART}`],
        [`${weighted}/weight`, 'Invalid value: 101: must be in the range 1-100'],
        [
          `${weighted}/podAffinityTerm/namespaceSelector/matchExpressions/0/values`,
          "Required value: must be specified when `operator` is 'In' or 'NotIn'",
        ],
        [
          `${weighted}/podAffinityTerm/topologyKey`,
          'Invalid value: "example.com/": name part must be non-empty',
        ],
        [`${weighted}/podAffinityTerm/topologyKey`, `Invalid value: "example.com/": ${NAME_PART}`],
      ]),
    );
  });

  it('checks matchLabelKeys and mismatchLabelKeys from 1.31, where the API server keeps them (validateMatchLabelKeysAndMismatchLabelKeys)', () => {
    const text = withContainer(`  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        - { matchLabelKeys: [pod-template-hash], topologyKey: zone }
        - labelSelector: { matchLabels: { app: web } }
          matchLabelKeys: [track, "bad key"]
          mismatchLabelKeys: [track]
          topologyKey: zone
`);
    const term = (i: number) =>
      `/spec/affinity/podAffinity/requiredDuringSchedulingIgnoredDuringExecution/${i}`;
    expect(load(text).map(at)).toEqual(
      shown([
        [
          `${term(0)}/matchLabelKeys`,
          'Forbidden: must not be specified when labelSelector is not set',
        ],
        [
          `${term(1)}/matchLabelKeys/0`,
          'Invalid value: "track": exists in both matchLabelKeys and mismatchLabelKeys',
        ],
        [`${term(1)}/matchLabelKeys/1`, `Invalid value: "bad key": ${NAME_PART}`],
      ]),
    );
    expect(load(text, '1.30')).toEqual([]);
  });
});

describe('topology spread constraints (validateTopologySpreadConstraints)', () => {
  it("takes a real workload's spread constraints", () => {
    const text = withContainer(`  topologySpreadConstraints:
    - maxSkew: 1
      topologyKey: topology.kubernetes.io/zone
      whenUnsatisfiable: DoNotSchedule
      minDomains: 3
      labelSelector: { matchLabels: { app: web } }
      matchLabelKeys: [pod-template-hash]
    - { maxSkew: 2, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway }
`);
    expect(load(text)).toEqual([]);
  });

  it('refuses a skew or domain count below 1, minDomains with ScheduleAnyway, a repeated pair, an empty key, and label keys without a selector (ValidateMaxSkew, validateMinDomains, ValidateSpreadConstraintNotRepeat, ValidateTopologyKey, validateMatchLabelKeysInTopologySpread)', () => {
    const findings = load(
      withContainer(`  topologySpreadConstraints:
    - { maxSkew: 0, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, minDomains: 0 }
    - { maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway, matchLabelKeys: [app] }
    - { maxSkew: 1, topologyKey: "", whenUnsatisfiable: DoNotSchedule, labelSelector: { matchLabels: { app: "a b" } } }
`),
    );
    const c = (i: number) => `/spec/topologySpreadConstraints/${i}`;
    expect(findings.map(at)).toEqual([
      [`${c(0)}/maxSkew`, 'Invalid value: 0: must be greater than zero'],
      [`${c(0)}/minDomains`, 'Invalid value: 0: must be greater than zero'],
      [
        `${c(0)}/minDomains`,
        'Invalid value: 0: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway',
      ],
      // The OpenAPI's list keys report the pair repeated at the repeat, as the API server does.
      [
        c(1),
        'Duplicate value: {"topologyKey":"zone","whenUnsatisfiable":"ScheduleAnyway"} (x-kubernetes-list-type: map, keyed by topologyKey, whenUnsatisfiable)',
      ],
      [`${c(1)}/matchLabelKeys`, 'Forbidden: must not be specified when labelSelector is not set'],
      [`${c(2)}/topologyKey`, 'Required value: can not be empty'],
      [`${c(2)}/labelSelector/matchLabels/app`, `Invalid value: "a b": ${LABEL_VALUE}`],
    ]);
  });
});

describe('tolerations (ValidateTolerations)', () => {
  it('takes the tolerations real DaemonSets carry', () => {
    const text = withContainer(`  tolerations:
    - { operator: Exists }
    - { key: node-role.kubernetes.io/control-plane, operator: Exists, effect: NoSchedule }
    - { key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute, tolerationSeconds: 300 }
    - { key: dedicated, value: gpu, effect: NoSchedule }
`);
    expect(load(text)).toEqual([]);
  });

  it('refuses an empty key without Exists, seconds without NoExecute, a value with Exists, and bad keys and values', () => {
    const findings = load(
      withContainer(`  tolerations:
    - { operator: Equal, value: gpu }
    - { key: dedicated, operator: Exists, value: gpu }
    - { key: dedicated, value: gpu, effect: NoSchedule, tolerationSeconds: 60 }
    - { key: "example.com/a/b", value: "not a label value" }
`),
    );
    const t = (i: number, field: string) => `/spec/tolerations/${i}/${field}`;
    expect(findings.map(at)).toEqual([
      [
        t(0, 'operator'),
        'Invalid value: "Equal": operator must be Exists when `key` is empty, which means "match all values and all keys"',
      ],
      [t(1, 'operator'), `Invalid value: "gpu": value must be empty when \`operator\` is 'Exists'`],
      [
        t(2, 'effect'),
        `Invalid value: "NoSchedule": effect must be 'NoExecute' when \`tolerationSeconds\` is set`,
      ],
      // Reported at `operator`, which is not written: the finding is at the toleration.
      [t(3, 'operator'), `Invalid value: "not a label value": ${LABEL_VALUE}`],
      [
        t(3, 'key'),
        `Invalid value: "example.com/a/b": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    ]);
  });
});

describe('ephemeral containers (validateEphemeralContainers, ValidatePodCreate, ValidatePodTemplateSpec)', () => {
  it('refuses them on a created Pod and in a pod template', () => {
    const debug = '[{ name: debug, image: busybox, targetContainerName: app }]';
    expect(load(container(`  ephemeralContainers: ${debug}\n`)).map(at)).toEqual([
      ['/spec/ephemeralContainers', 'Forbidden: cannot be set on create'],
    ]);
    const deployment = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: app, image: nginx }]
      ephemeralContainers: ${debug}
`;
    expect(load(deployment).map(at)).toEqual([
      [
        '/spec/template/spec/ephemeralContainers',
        'Forbidden: ephemeral containers not allowed in pod template',
      ],
    ]);
    expect(load(container('  ephemeralContainers: []\n'))).toEqual([]);
  });

  it('refuses the fields an ephemeral container may not set, a target that is not a container of the pod, and mount sub-paths (validateFieldAllowList)', () => {
    const findings = load(
      container(`  ephemeralContainers:
    - name: debug
      image: busybox
      targetContainerName: nope
      ports: [{ containerPort: 80 }]
      resources: {}
      readinessProbe: {}
      lifecycle: { preStop: { exec: { command: [sh] } } }
      volumeMounts: [{ name: data, mountPath: /d, subPath: x }]
      securityContext: { runAsUser: -1 }
  volumes: [{ name: data, emptyDir: {} }]
`),
    );
    const ec = '/spec/ephemeralContainers';
    const forbidden = 'Forbidden: cannot be set for an Ephemeral Container';
    expect(findings.map(at)).toEqual([
      [ec, 'Forbidden: cannot be set on create'],
      [`${ec}/0/targetContainerName`, 'Not found: "nope"'],
      [`${ec}/0/ports`, forbidden],
      [`${ec}/0/readinessProbe`, forbidden],
      [`${ec}/0/lifecycle`, forbidden],
      [`${ec}/0/volumeMounts/0/subPath`, forbidden],
      [`${ec}/0/securityContext/runAsUser`, `Invalid value: -1: ${ID_RANGE}`],
    ]);
  });
});

describe('downward API field references (validateObjectFieldSelector, validateDownwardAPIVolumeFile)', () => {
  it("checks a subscript's key as a label key, an annotation key in lower case", () => {
    const findings = load(
      container(`      env:
        - { name: A, valueFrom: { fieldRef: { fieldPath: "metadata.labels['app.kubernetes.io/name']" } } }
        - { name: B, valueFrom: { fieldRef: { fieldPath: "metadata.annotations['Example.COM/Owner']" } } }
        - { name: C, valueFrom: { fieldRef: { fieldPath: "metadata.labels['bad key']" } } }
        - { name: D, valueFrom: { fieldRef: { fieldPath: "metadata.annotations['A//B']" } } }
`),
    );
    const ref = (i: number) => `/spec/containers/0/env/${i}/valueFrom/fieldRef`;
    expect(findings.map(at)).toEqual([
      [ref(2), `Invalid value: "bad key": ${NAME_PART}`],
      [
        ref(3),
        `Invalid value: "a//b": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
    ]);
  });

  it('takes the pod fields a volume file exposes, which are not those of a variable (validDownwardAPIFieldPathExpressions)', () => {
    const findings = load(
      withContainer(`  volumes:
    - name: info
      downwardAPI:
        items:
          - { path: labels, fieldRef: { fieldPath: metadata.labels } }
          - { path: owner, fieldRef: { fieldPath: "metadata.annotations['owner']" } }
          - { path: node, fieldRef: { fieldPath: spec.nodeName } }
          - { path: ip, fieldRef: { fieldPath: status.podIP } }
          - { path: both, fieldRef: { fieldPath: metadata.name }, resourceFieldRef: { containerName: app, resource: limits.cpu } }
          - { path: none }
          - { path: cpu, resourceFieldRef: { resource: limits.cpu } }
    - name: all
      projected:
        sources:
          - downwardAPI: { items: [{ path: ns, fieldRef: { fieldPath: "metadata.labels['bad key']" } }] }
`),
    );
    const item = (i: number) => `/spec/volumes/0/downwardAPI/items/${i}`;
    const exposed =
      'supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"';
    expect(findings.map(at)).toEqual([
      [`${item(2)}/fieldRef/fieldPath`, `Unsupported value: "spec.nodeName": ${exposed}`],
      [`${item(3)}/fieldRef/fieldPath`, `Unsupported value: "status.podIP": ${exposed}`],
      [
        item(4),
        'Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously',
      ],
      [item(5), 'Required value: one of fieldRef and resourceFieldRef is required'],
      [`${item(6)}/resourceFieldRef/containerName`, 'Required value'],
      [
        '/spec/volumes/1/projected/sources/0/downwardAPI/items/0/fieldRef',
        `Invalid value: "bad key": ${NAME_PART}`,
      ],
    ]);
  });
});

const IP = 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)';
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const SUBDOMAIN_WITH_UNDERSCORE =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '_', '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '_?[a-z0-9]([-_a-z0-9]*[a-z0-9])?(\\._?[a-z0-9]([-_a-z0-9]*[a-z0-9])?)*')";

describe('DNS config and host aliases (validatePodDNSConfig, ValidateHostAliases)', () => {
  it('takes the DNS configs and host aliases real pods use', () => {
    const text = withContainer(`  dnsPolicy: None
  dnsConfig:
    nameservers: [10.96.0.10, "2001:db8::53", NAMESERVER]
    searches: [default.svc.cluster.local, svc.cluster.local., cluster.local]
    options: [{ name: ndots, value: "2" }, { name: edns0 }]
  hostAliases:
    - { ip: 127.0.0.1, hostnames: [foo.local, bar.local] }
    - { ip: "::1", hostnames: [localhost6] }
`);
    expect(load(text.replace('NAMESERVER', '10.0.0.1'))).toEqual([]);
    // A leading 0 the legacy parser took: valid up to 1.35; 1.36's strict IP validation refuses
    // it (ip-warnings.test.ts).
    expect(load(text.replace('NAMESERVER', '010.0.0.1'), '1.35')).toEqual([]);
  });

  it('needs a dnsConfig with a nameserver under dnsPolicy None', () => {
    expect(load(withContainer('  dnsPolicy: None\n')).map(at)).toEqual([
      ['/spec/dnsConfig', 'Required value: must provide `dnsConfig` when `dnsPolicy` is None'],
    ]);
    const noNameserver = withContainer('  dnsPolicy: None\n  dnsConfig: { searches: ["a b"] }\n');
    // Go returns at the missing nameserver, before it looks at the searches.
    expect(load(noNameserver).map(at)).toEqual([
      [
        '/spec/dnsConfig/nameservers',
        'Required value: must provide at least one DNS nameserver when `dnsPolicy` is None',
      ],
    ]);
    expect(load(withContainer('  dnsConfig: { searches: [example.com] }\n'))).toEqual([]);
  });

  it('refuses more than 3 nameservers, one that is no IP address, bad search domains and unnamed options', () => {
    const findings = load(
      withContainer(`  dnsConfig:
    nameservers: [1.1.1.1, 8.8.8.8, 9.9.9.9, "fe80::1%eth0"]
    searches: [Example.com, ok.example.]
    options: [{ value: "1" }]
`),
    );
    const d = '/spec/dnsConfig';
    expect(findings.map(at)).toEqual([
      [
        `${d}/nameservers`,
        'Invalid value: []string{"1.1.1.1", "8.8.8.8", "9.9.9.9", "fe80::1%eth0"}: must not have more than 3 nameservers',
      ],
      [`${d}/nameservers/3`, `Invalid value: "fe80::1%eth0": ${IP}`],
      [`${d}/searches/0`, `Invalid value: "Example.com": ${SUBDOMAIN_WITH_UNDERSCORE}`],
      [`${d}/options/0`, 'Required value: must not be empty'],
    ]);
  });

  it('refuses more than 32 search domains and more than 2048 characters of them', () => {
    const many = Array.from({ length: 33 }, (_, i) => `d${i}.example.com`);
    const tooMany = load(withContainer(`  dnsConfig: { searches: [${many.join(', ')}] }\n`));
    const quoted = (list: string[]) => list.map((s) => JSON.stringify(s)).join(', ');
    expect(tooMany.map(at)).toEqual([
      [
        '/spec/dnsConfig/searches',
        `Invalid value: []string{${quoted(many)}}: must not have more than 32 search paths`,
      ],
    ]);
    // 9 domains of 250 characters and the 8 spaces between them: 2258 characters. (A long
    // string in a message is shortened for display, so the values are not compared here.)
    const label = (c: string) => c.repeat(61);
    const long = Array.from(
      { length: 9 },
      (_, i) => `${['a', 'b', 'c', 'd'].map(label).join('.')}.x${i}`,
    );
    expect(long.join(' ').length).toBe(2258);
    const tooLong = load(withContainer(`  dnsConfig: { searches: [${long.join(', ')}] }\n`));
    expect(tooLong.map((f) => f.pointer)).toEqual(['/spec/dnsConfig/searches']);
    expect(tooLong[0]?.message).toMatch(
      /^Invalid value: \[\]string\{"a+\.\.\. \(250 characters\)", .*\}: must not have more than 2048 characters \(including spaces\) in the search list$/,
    );
    const fits = long.slice(0, 8);
    expect(load(withContainer(`  dnsConfig: { searches: [${fits.join(', ')}] }\n`))).toEqual([]);
  });

  it('takes "_" and "." alone in a search domain from 1.33 on (RelaxedDNSSearchValidation)', () => {
    const text = withContainer('  dnsConfig: { searches: [_sip._tcp.example.com, "."] }\n');
    expect(load(text, '1.33')).toEqual([]);
    expect(load(text, '1.32').map(at)).toEqual([
      ['/spec/dnsConfig/searches/0', `Invalid value: "_sip._tcp.example.com": ${SUBDOMAIN}`],
      // A trailing dot is cut first: "." is checked as "".
      ['/spec/dnsConfig/searches/1', `Invalid value: "": ${SUBDOMAIN}`],
    ]);
  });

  it('refuses a host alias whose ip is no IP address or whose hostname is no DNS subdomain', () => {
    const text = withContainer(`  hostAliases:
    - { ip: 300.1.1.1, hostnames: [Foo, ok] }
    - { hostnames: [bar] }
`);
    const a = '/spec/hostAliases';
    expect(load(text).map(at)).toEqual([
      [`${a}/0/ip`, `Invalid value: "300.1.1.1": ${IP}`],
      [`${a}/0/hostnames/0`, `Invalid value: "Foo": ${SUBDOMAIN}`],
      [`${a}/1/ip`, 'Required value'],
    ]);
    // Before 1.31 the OpenAPI does not require an ip: Go finds the empty one.
    expect(load(text, '1.30').map(at)).toContainEqual([`${a}/1/ip`, `Invalid value: "": ${IP}`]);
  });
});

describe('readiness and scheduling gates (validateReadinessGates, validateSchedulingGates)', () => {
  it('takes qualified names and refuses others, a scheduling gate at the gate', () => {
    const good = withContainer(`  readinessGates: [{ conditionType: example.com/ready }]
  schedulingGates: [{ name: example.com/quota }, { name: wait }]
`);
    expect(load(good)).toEqual([]);
    const bad = withContainer(`  readinessGates: [{ conditionType: "a/b/c" }]
  schedulingGates: [{ name: "-wait" }]
`);
    expect(load(bad).map(at)).toEqual([
      [
        '/spec/readinessGates/0/conditionType',
        `Invalid value: "a/b/c": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
      ['/spec/schedulingGates/0', `Invalid value: "-wait": ${NAME_PART}`],
    ]);
  });

  it('reports a scheduling gate named twice once, by the list key', () => {
    const text = withContainer('  schedulingGates: [{ name: wait }, { name: wait }]\n');
    expect(load(text).map(at)).toEqual([
      [
        '/spec/schedulingGates/1',
        'Duplicate value: {"name":"wait"} (x-kubernetes-list-type: map, keyed by name)',
      ],
    ]);
  });
});

describe('Windows hostProcess containers (validateWindowsHostProcessPod)', () => {
  it('takes a host process pod whose containers all are host processes, with hostNetwork', () => {
    const text = pod(`  hostNetwork: true
  securityContext: { windowsOptions: { hostProcess: true, runAsUserName: "NT AUTHORITY\\\\SYSTEM" } }
  initContainers: [{ name: init, image: busybox }]
  containers:
    - name: app
      image: nginx
      securityContext: { windowsOptions: { hostProcess: true } }
`);
    expect(load(text)).toEqual([]);
  });

  it('refuses a container that differs from the pod, a mix of host process and not, and no hostNetwork', () => {
    const text = pod(`  securityContext: { windowsOptions: { hostProcess: true } }
  containers:
    - name: app
      image: nginx
    - name: sidecar
      image: nginx
      securityContext: { windowsOptions: { hostProcess: false } }
`);
    expect(load(text).map(at)).toEqual([
      [
        '/spec',
        'Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
      ],
      [
        '/spec/hostNetwork',
        'Invalid value: false: hostNetwork must be true if pod contains any hostProcess containers',
      ],
      [
        '/spec/containers/1/securityContext/windowsOptions/hostProcess',
        'Invalid value: false: pod hostProcess value must be identical if both are specified, was true',
      ],
    ]);
  });

  it('counts a container that sets hostProcess alone, in a pod template too', () => {
    const text = `apiVersion: apps/v1
kind: DaemonSet
metadata: { name: agent }
spec:
  selector: { matchLabels: { app: agent } }
  template:
    metadata: { labels: { app: agent } }
    spec:
      hostNetwork: true
      containers:
        - name: agent
          image: agent
          securityContext: { windowsOptions: { hostProcess: true } }
        - { name: other, image: nginx }
`;
    expect(load(text).map(at)).toEqual([
      [
        '/spec/template/spec',
        'Invalid value: "": If pod contains any hostProcess containers then all containers must be HostProcess containers',
      ],
    ]);
  });
});

describe('resource field references (validateContainerResourceFieldSelector, validateContainerResourceDivisor)', () => {
  const BYTES = '1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei';
  const RESOURCES =
    'supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"';
  const volume = (items: string) =>
    container(`  volumes:
    - name: info
      downwardAPI:
        items:
${items}`);

  it('takes the divisors Go prints as one its resource takes (1000m is 1, 1024Ki is 1Mi)', () => {
    const text =
      volume(`          - { path: a, resourceFieldRef: { containerName: app, resource: limits.cpu, divisor: 1m } }
          - { path: b, resourceFieldRef: { containerName: app, resource: requests.cpu, divisor: 1000m } }
          - { path: c, resourceFieldRef: { containerName: app, resource: limits.memory, divisor: 1024Ki } }
          - { path: d, resourceFieldRef: { containerName: app, resource: requests.ephemeral-storage, divisor: 1G } }
          - { path: e, resourceFieldRef: { containerName: app, resource: limits.hugepages-2Mi, divisor: 1Mi } }
          - { path: f, resourceFieldRef: { containerName: app, resource: limits.memory, divisor: "0" } }
          - { path: g, resourceFieldRef: { containerName: app, resource: limits.memory, divisor: 1 } }
`);
    expect(load(text)).toEqual([]);
  });

  it("refuses a volume file's resource a container does not have and divisors its resource does not take", () => {
    const text =
      volume(`          - { path: a, resourceFieldRef: { containerName: app, resource: limits.gpu } }
          - { path: b, resourceFieldRef: { containerName: app, resource: limits.cpu, divisor: 1k } }
          - { path: c, resourceFieldRef: { containerName: app, resource: limits.memory, divisor: "1024" } }
          - { path: d, resourceFieldRef: { containerName: app, resource: requests.ephemeral-storage, divisor: 2Mi } }
          - { path: e, resourceFieldRef: { containerName: app, resource: requests.hugepages-1Gi, divisor: "1e3" } }
`);
    const ref = (i: number) => `/spec/volumes/0/downwardAPI/items/${i}/resourceFieldRef`;
    expect(load(text).map(at)).toEqual([
      [`${ref(0)}/resource`, `Unsupported value: "limits.gpu": ${RESOURCES}`],
      [
        `${ref(1)}/divisor`,
        `Invalid value: "limits.cpu": only divisor's values 1m and 1 are supported with the cpu resource`,
      ],
      // A decimal 1024 prints as 1024, not 1Ki.
      [
        `${ref(2)}/divisor`,
        `Invalid value: "limits.memory": only divisor's values ${BYTES} are supported with the memory resource`,
      ],
      [
        `${ref(3)}/divisor`,
        `Invalid value: "requests.ephemeral-storage": only divisor's values ${BYTES} are supported with the local ephemeral storage resource`,
      ],
      // A quantity with an exponent keeps its form: "1e3" prints as 1e3, not 1k.
      [
        `${ref(4)}/divisor`,
        `Invalid value: "requests.hugepages-1Gi": only divisor's values ${BYTES} are supported with the hugepages resource`,
      ],
    ]);
  });

  it("checks an environment variable's divisor too, with no container to name", () => {
    const text = container(`      env:
        - { name: CPU, valueFrom: { resourceFieldRef: { resource: requests.cpu, divisor: 1m } } }
        - { name: MEM, valueFrom: { resourceFieldRef: { resource: limits.memory, divisor: 1m } } }
`);
    expect(load(text).map(at)).toEqual([
      [
        '/spec/containers/0/env/1/valueFrom/resourceFieldRef/divisor',
        `Invalid value: "limits.memory": only divisor's values ${BYTES} are supported with the memory resource`,
      ],
    ]);
  });
});
