import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import type { KubernetesRelease } from '../../../src/loaders/kubernetes/kubernetes-release.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * What the API server checks of a pod spec in Go beyond the OpenAPI, with its messages and
 * field paths (k8s.io/kubernetes 1.36 `pkg/apis/core/validation/validation.go`; apimachinery
 * `util/validation`): a volume's source, a container's probes and lifecycle hooks, its
 * environment. Each case names the Go function whose check it is.
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string, kubernetesVersion?: KubernetesRelease) =>
  loadManifests([{ path: 'pod.yaml', text }], kubernetesVersion ? { kubernetesVersion } : {})
    .findings;

const pod = (body: string) => `apiVersion: v1
kind: Pod
metadata: { name: p }
spec:
${body}`;
const container = (fields: string) =>
  pod(`  containers:\n    - name: app\n      image: nginx\n${fields}`);

describe('a volume has one source (validateVolumeSource)', () => {
  it('refuses each source after the first, in Go order, at its field', () => {
    const findings = load(
      pod(`  volumes:
    - name: both
      configMap: { name: settings }
      emptyDir: {}
      secret: { secretName: token }
  containers: [{ name: app, image: nginx }]
`),
    );
    // emptyDir comes first in Go's order, whatever the order written (findings in file order).
    expect(findings.map(at)).toEqual([
      ['/spec/volumes/0/configMap', 'Forbidden: may not specify more than 1 volume type'],
      ['/spec/volumes/0/secret', 'Forbidden: may not specify more than 1 volume type'],
    ]);
    expect(findings.map((f) => f.line)).toEqual([7, 9]);
  });

  it('takes a volume with no source: the API server defaults it to an emptyDir (SetDefaults_Volume)', () => {
    const text = pod(`  volumes: [{ name: scratch }, { name: cache, emptyDir: null }]
  containers:
    - { name: app, image: nginx, volumeMounts: [{ name: scratch, mountPath: /s }, { name: cache, mountPath: /c }] }
`);
    expect(load(text)).toEqual([]);
  });

  it('makes a volume with a problem one no mount can name, as ValidateVolumes does', () => {
    const text = pod(`  volumes: [{ name: data, emptyDir: {}, hostPath: { path: /data } }]
  containers:
    - { name: app, image: nginx, volumeMounts: [{ name: data, mountPath: /data }] }
`);
    expect(load(text).map(at)).toEqual([
      ['/spec/volumes/0/hostPath', 'Forbidden: may not specify more than 1 volume type'],
      ['/spec/containers/0/volumeMounts/0/name', 'Not found: "data"'],
    ]);
  });

  it('checks the first source as its own function does (validateSecretVolumeSource, validateConfigMapVolumeSource, validateNFSVolumeSource, validatePersistentClaimVolumeSource)', () => {
    const findings = load(
      pod(`  volumes:
    - { name: a, secret: { defaultMode: 0o1000, items: [{ key: k, path: p, mode: -1 }] } }
    - { name: b, configMap: { defaultMode: 420 } }
    - { name: c, nfs: { server: nas, path: exports/data } }
    - { name: d, persistentVolumeClaim: { claimName: "" } }
    - { name: e, hostPath: { path: "" } }
  containers: [{ name: app, image: nginx }]
`),
    );
    const mode = 'must be a number between 0 and 0777 (octal), both inclusive';
    expect(findings.map(at)).toEqual([
      ['/spec/volumes/0/secret/secretName', 'Required value'],
      ['/spec/volumes/0/secret/defaultMode', `Invalid value: 512: ${mode}`],
      ['/spec/volumes/0/secret/items/0/mode', `Invalid value: -1: ${mode}`],
      ['/spec/volumes/1/configMap/name', 'Required value'],
      ['/spec/volumes/2/nfs/path', 'Invalid value: "exports/data": must be an absolute path'],
      ['/spec/volumes/3/persistentVolumeClaim/claimName', 'Required value'],
      ['/spec/volumes/4/hostPath/path', 'Required value'],
    ]);
  });
});

describe("a volume source's own fields (validateHostPathVolumeSource, validateCSIVolumeSource, validateISCSIVolumeSource, validateAWSElasticBlockStoreVolumeSource, validateFCVolumeSource, validateAzureFile)", () => {
  it('refuses a host path with .., an empty CSI driver, a bad iSCSI name and LUN, no EBS volume ID, no FC target, no Azure secret', () => {
    const findings = load(
      pod(`  containers: [{ name: c, image: x }]
  volumes:
    - { name: b, hostPath: { path: /var/log/../../etc } }
    - { name: c, csi: { driver: "" } }
    - { name: d, iscsi: { targetPortal: "", iqn: bad, lun: 300 } }
    - { name: e, awsElasticBlockStore: { volumeID: "" } }
    - { name: h, fc: { lun: 1 } }
    - { name: i, azureFile: { secretName: "", shareName: s } }
    - { name: j, fc: { targetWWNs: [500a0982991b8dc5], wwids: [w] } }
`),
    );
    const v = '/spec/volumes';
    expect(findings.map((f) => [f.pointer, f.message, f.line])).toEqual([
      [`${v}/0/hostPath/path`, `Invalid value: "/var/log/../../etc": must not contain '..'`, 7],
      [`${v}/1/csi/driver`, 'Required value', 8],
      [`${v}/2/iscsi/targetPortal`, 'Required value', 9],
      [
        `${v}/2/iscsi/iqn`,
        'Invalid value: "bad": must be valid format starting with iqn, eui, or naa',
        9,
      ],
      [`${v}/2/iscsi/lun`, 'Invalid value: 300: must be between 0 and 255, inclusive', 9],
      [`${v}/3/awsElasticBlockStore/volumeID`, 'Required value', 10],
      [
        `${v}/4/fc/targetWWNs`,
        'Required value: must specify either targetWWNs or wwids, but not both',
        11,
      ],
      [`${v}/5/azureFile/secretName`, 'Required value', 12],
      [`${v}/6/fc/lun`, 'Required value: lun is required if targetWWNs is specified', 13],
      [
        `${v}/6/fc/targetWWNs`,
        'Invalid value: []string{"500a0982991b8dc5"}: targetWWNs and wwids can not be specified simultaneously',
        13,
      ],
    ]);
    expect(findings[0]?.col).toBe(36);
  });

  it('takes the sources as the Kubernetes examples write them', () => {
    const text = pod(`  containers: [{ name: c, image: x }]
  volumes:
    - { name: b, hostPath: { path: /var/log/..data, type: Directory } }
    - { name: c, csi: { driver: inline.storage.kubernetes.io, volumeAttributes: { foo: bar } } }
    - { name: d, iscsi: { targetPortal: "10.0.2.15:3260", iqn: "iqn.2001-04.com.example:storage.kube.sys1.xyz", lun: 0, fsType: ext4 } }
    - { name: e, fc: { targetWWNs: [500a0982991b8dc5, 500a0982891b8dc5], lun: 2, fsType: ext4 } }
    - { name: f, iscsi: { targetPortal: "10.0.2.15:3260", iqn: naa.6001405ab0000000000000000000000a, lun: 255 } }
`);
    expect(load(text).filter((f) => f.severity === 'error')).toEqual([]);
  });
});

describe("a volume's items (validateKeyToPath, validateDownwardAPIVolumeFile, ValidateLocalNonReservedPath)", () => {
  it('refuses an empty key, and a path that is absolute, contains .. or starts with it, at the field', () => {
    const findings = load(
      pod(`  containers: [{ name: app, image: nginx }]
  volumes:
    - name: cm
      configMap: { name: c, items: [{ key: a, path: ../x }, { key: "", path: b }, { key: c, path: /abs }] }
    - name: sec
      secret: { secretName: s, items: [{ key: a, path: "a/../../b" }, { key: b, path: ..data }] }
    - name: d
      downwardAPI: { items: [{ path: "../l", fieldRef: { fieldPath: metadata.labels } }] }
    - name: p
      projected:
        sources:
          - configMap: { name: c, items: [{ key: a, path: .. }] }
          - secret: { name: s, items: [{ key: a, path: "" }] }
          - downwardAPI: { items: [{ path: /n, fieldRef: { fieldPath: metadata.name } }] }
`),
    );
    const v = '/spec/volumes';
    expect(findings.map((f) => [f.pointer, f.message, f.line])).toEqual([
      [`${v}/0/configMap/items/0/path`, `Invalid value: "../x": must not contain '..'`, 8],
      [`${v}/0/configMap/items/1/key`, 'Required value', 8],
      [`${v}/0/configMap/items/2/path`, 'Invalid value: "/abs": must be a relative path', 8],
      [`${v}/1/secret/items/0/path`, `Invalid value: "a/../../b": must not contain '..'`, 10],
      [`${v}/1/secret/items/1/path`, `Invalid value: "..data": must not start with '..'`, 10],
      [`${v}/2/downwardAPI/items/0/path`, `Invalid value: "../l": must not contain '..'`, 12],
      [
        `${v}/3/projected/sources/0/configMap/items/0/path`,
        `Invalid value: "..": must not contain '..'`,
        16,
      ],
      [
        `${v}/3/projected/sources/0/configMap/items/0/path`,
        `Invalid value: "..": must not start with '..'`,
        16,
      ],
      [`${v}/3/projected/sources/1/secret/items/0/path`, 'Required value', 17],
      [
        `${v}/3/projected/sources/2/downwardAPI/items/0/path`,
        'Invalid value: "/n": must be a relative path',
        18,
      ],
    ]);
    expect(findings[0]?.col).toBe(53);
  });

  it('takes relative paths below the volume, dots inside names included', () => {
    const text = pod(`  containers: [{ name: app, image: nginx }]
  volumes:
    - name: cm
      configMap: { name: c, items: [{ key: a.conf, path: conf/a.conf }, { key: b, path: .hidden/b..c }] }
    - name: d
      downwardAPI: { items: [{ path: labels, fieldRef: { fieldPath: metadata.labels } }] }
`);
    expect(load(text)).toEqual([]);
  });
});

describe("a container's volume mounts and a projected token (ValidateVolumeMounts, validateProjectionSources)", () => {
  it('refuses absolute or climbing sub-paths, both sub-path kinds, device overlaps, unprivileged Bidirectional', () => {
    const findings = load(
      pod(`  volumes:
    - { name: data, emptyDir: {} }
    - name: token
      projected:
        sources:
          - serviceAccountToken: { path: token, expirationSeconds: 300 }
          - serviceAccountToken: { path: long, expirationSeconds: 4294967297 }
  containers:
    - name: app
      image: nginx
      volumeDevices: [{ name: raw, devicePath: /dev/xvda }]
      volumeMounts:
        - { name: data, mountPath: /a, subPath: /etc }
        - { name: data, mountPath: /b, subPath: logs/../../etc, subPathExpr: $(POD_NAME) }
        - { name: data, mountPath: /dev/xvda, mountPropagation: Bidirectional }
        - { name: token, mountPath: /var/run/token, subPathExpr: $(POD_NAME)/.. }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/volumes/1/projected/sources/0/serviceAccountToken/expirationSeconds',
        'Invalid value: 300: may not specify a duration less than 10 minutes',
      ],
      [
        '/spec/volumes/1/projected/sources/1/serviceAccountToken/expirationSeconds',
        'Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
      ],
      // The device (written before the mounts): its volume is not there, its path is a mount's.
      ['/spec/containers/0/volumeDevices/0/name', 'Not found: "raw"'],
      [
        '/spec/containers/0/volumeDevices/0/devicePath',
        'Invalid value: "/dev/xvda": must not already exist as a path in volumeMounts',
      ],
      [
        '/spec/containers/0/volumeMounts/0/subPath',
        'Invalid value: "/etc": must be a relative path',
      ],
      [
        '/spec/containers/0/volumeMounts/1/subPath',
        `Invalid value: "logs/../../etc": must not contain '..'`,
      ],
      [
        '/spec/containers/0/volumeMounts/1/subPathExpr',
        'Invalid value: "$(POD_NAME)": subPathExpr and subPath are mutually exclusive',
      ],
      [
        '/spec/containers/0/volumeMounts/2/mountPath',
        'Invalid value: "/dev/xvda": must not already exist as a path in volumeDevices',
      ],
      [
        '/spec/containers/0/volumeMounts/2/mountPropagation',
        'Forbidden: Bidirectional mount propagation is available only to privileged containers',
      ],
      // The token volume has problems: as in Go, no mount can name it.
      ['/spec/containers/0/volumeMounts/3/name', 'Not found: "token"'],
      [
        '/spec/containers/0/volumeMounts/3/subPathExpr',
        `Invalid value: "$(POD_NAME)/..": must not contain '..'`,
      ],
    ]);
  });

  it('takes relative sub-paths, a privileged Bidirectional mount and a token of an hour', () => {
    const text = pod(`  volumes:
    - { name: data, emptyDir: {} }
    - { name: token, projected: { sources: [{ serviceAccountToken: { path: t, expirationSeconds: 3600 } }] } }
  containers:
    - name: app
      image: nginx
      securityContext: { privileged: true }
      volumeMounts:
        - { name: data, mountPath: /etc/app.conf, subPath: conf/app.conf }
        - { name: data, mountPath: /logs, subPathExpr: $(POD_NAME), mountPropagation: Bidirectional }
        - { name: token, mountPath: /var/run/token, readOnly: true }
`);
    expect(load(text)).toEqual([]);
  });
});

describe('repeated volumes, mount paths and devices (ValidateVolumes, ValidateVolumeMounts, ValidateVolumeDevices)', () => {
  it("says each repeat in Go's words at the field it repeats, not as a repeated list item", () => {
    const text = pod(`  volumes:
    - { name: data, emptyDir: {} }
    - { name: data, emptyDir: {} }
    - { name: disk, persistentVolumeClaim: { claimName: d } }
    - { name: tmp, emptyDir: {} }
    - { name: scratch, ephemeral: { volumeClaimTemplate: { spec: { accessModes: [ReadWriteOnce], resources: { requests: { storage: 1Gi } } } } } }
  containers:
    - name: app
      image: nginx
      volumeMounts:
        - { name: data, mountPath: /data }
        - { name: data, mountPath: /data, subPath: x }
      volumeDevices:
        - { name: disk, devicePath: /dev/xvda }
        - { name: disk, devicePath: /dev/xvda }
        - { name: tmp, devicePath: /dev/../xvdb }
        - { name: gone, devicePath: /dev/xvdc }
        - { name: scratch, devicePath: /dev/xvdd }
  initContainers:
    - name: init
      image: busybox
      volumeMounts: [{ name: data, mountPath: /data }]
`);
    expect(load(text).map(at)).toEqual([
      ['/spec/volumes/1/name', 'Duplicate value: "data"'],
      ['/spec/containers/0/volumeMounts/1/mountPath', 'Invalid value: "/data": must be unique'],
      ['/spec/containers/0/volumeDevices/1/name', 'Invalid value: "disk": must be unique'],
      [
        '/spec/containers/0/volumeDevices/1/devicePath',
        'Invalid value: "/dev/xvda": must be unique',
      ],
      [
        '/spec/containers/0/volumeDevices/2/name',
        'Invalid value: "tmp": can only use volume source type of PersistentVolumeClaim or Ephemeral for block mode',
      ],
      [
        '/spec/containers/0/volumeDevices/2/devicePath',
        `Invalid value: "/dev/../xvdb": can not contain backsteps ('..')`,
      ],
      ['/spec/containers/0/volumeDevices/3/name', 'Not found: "gone"'],
    ]);
  });

  it('takes one path per mount in each container, and devices of claims at distinct paths', () => {
    const text = pod(`  volumes:
    - { name: data, emptyDir: {} }
    - { name: disk, persistentVolumeClaim: { claimName: d } }
  containers:
    - name: app
      image: nginx
      volumeMounts: [{ name: data, mountPath: /data }, { name: data, mountPath: /logs }]
      volumeDevices: [{ name: disk, devicePath: /dev/xvda }]
    - name: sidecar
      image: nginx
      volumeMounts: [{ name: data, mountPath: /data }]
`);
    expect(load(text)).toEqual([]);
  });
});

describe("a container's probes (validateProbe, validateLivenessProbe, validateReadinessProbe, validateStartupProbe)", () => {
  it('takes the probes of a real workload', () => {
    const text =
      container(`      livenessProbe: { httpGet: { path: /healthz, port: http }, periodSeconds: 10, successThreshold: 1 }
      readinessProbe: { tcpSocket: { port: 8080 }, initialDelaySeconds: 0, successThreshold: 3 }
      startupProbe: { exec: { command: [cat, /ready] }, failureThreshold: 30 }
      ports: [{ name: http, containerPort: 8080 }]
`);
    expect(load(text)).toEqual([]);
  });

  it('needs exactly one handler (validateHandler)', () => {
    const findings = load(
      container(`      livenessProbe: { periodSeconds: 5 }
      readinessProbe: { exec: { command: [check] }, httpGet: { port: 0 }, grpc: { port: 9000 } }
`),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/containers/0/livenessProbe', 'Required value: must specify a handler type'],
      // The handlers after the first are not checked further (httpGet's port 0 is not reported).
      [
        '/spec/containers/0/readinessProbe/httpGet',
        'Forbidden: may not specify more than 1 handler type',
      ],
      [
        '/spec/containers/0/readinessProbe/grpc',
        'Forbidden: may not specify more than 1 handler type',
      ],
    ]);
  });

  it('refuses negative counts, a liveness or startup successThreshold other than 1, and a readiness grace period (ValidateNonnegativeField)', () => {
    const findings = load(
      container(`      livenessProbe: { exec: { command: [check] }, successThreshold: -1, timeoutSeconds: -2 }
      startupProbe: { exec: { command: [check] }, successThreshold: 2, terminationGracePeriodSeconds: 0 }
      readinessProbe: { exec: { command: [check] }, periodSeconds: -3, terminationGracePeriodSeconds: 30 }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/containers/0/livenessProbe/successThreshold',
        'Invalid value: -1: must be greater than or equal to 0',
      ],
      ['/spec/containers/0/livenessProbe/successThreshold', 'Invalid value: -1: must be 1'],
      [
        '/spec/containers/0/livenessProbe/timeoutSeconds',
        'Invalid value: -2: must be greater than or equal to 0',
      ],
      ['/spec/containers/0/startupProbe/successThreshold', 'Invalid value: 2: must be 1'],
      [
        '/spec/containers/0/startupProbe/terminationGracePeriodSeconds',
        'Invalid value: 0: must be greater than 0',
      ],
      [
        '/spec/containers/0/readinessProbe/periodSeconds',
        'Invalid value: -3: must be greater than or equal to 0',
      ],
      [
        '/spec/containers/0/readinessProbe/terminationGracePeriodSeconds',
        'Invalid value: 30: must not be set for readinessProbes',
      ],
    ]);
  });

  it('takes zero counts: the API server defaults them before validating (SetDefaults_Probe)', () => {
    const text = container(
      '      livenessProbe: { exec: { command: [check] }, successThreshold: 0, periodSeconds: 0, timeoutSeconds: 0 }\n',
    );
    expect(load(text)).toEqual([]);
  });

  it("checks a handler's command, ports and headers (validateExecAction, validateHTTPGetAction, ValidatePortNumOrName, validateGRPCAction)", () => {
    const findings = load(
      container(`      livenessProbe: { exec: { command: [] } }
      readinessProbe: { httpGet: { port: Web_1, httpHeaders: [{ name: "X Token", value: a }] } }
      startupProbe: { grpc: { port: 70000 } }
      lifecycle: { preStop: { tcpSocket: { port: 0 } } }
`),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/containers/0/livenessProbe/exec/command', 'Required value'],
      [
        '/spec/containers/0/readinessProbe/httpGet/port',
        'Invalid value: "Web_1": must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
      ],
      [
        '/spec/containers/0/readinessProbe/httpGet/httpHeaders',
        `Invalid value: "X Token": a valid HTTP header must consist of alphanumeric characters or '-' (e.g. 'X-Header-Name', regex used for validation is '[-A-Za-z0-9]+')`,
      ],
      [
        '/spec/containers/0/startupProbe/grpc/port',
        'Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
      [
        '/spec/containers/0/lifecycle/preStop/tcpSocket/port',
        'Invalid value: 0: must be between 1 and 65535, inclusive',
      ],
    ]);
  });

  it("needs one handler in a lifecycle hook, where sleep takes grpc's place (validateLifecycle)", () => {
    const findings = load(
      container(`      lifecycle:
        postStart: {}
        preStop: { sleep: { seconds: 5 }, exec: { command: [drain] } }
`),
    );
    expect(findings.map(at)).toEqual([
      ['/spec/containers/0/lifecycle/postStart', 'Required value: must specify a handler type'],
      [
        '/spec/containers/0/lifecycle/preStop/sleep',
        'Forbidden: may not specify more than 1 handler type',
      ],
    ]);
  });

  it("bounds a hook's sleep by the pod's grace period, 30 s unless set (validateSleepAction)", () => {
    const text = (grace: string, seconds: number) =>
      pod(`${grace}  containers:
    - { name: app, image: nginx, lifecycle: { preStop: { sleep: { seconds: ${seconds} } } } }
`);
    expect(load(text('', 30))).toEqual([]);
    expect(load(text('', 31)).map(at)).toEqual([
      [
        '/spec/containers/0/lifecycle/preStop/sleep',
        'Invalid value: 31: must be non-negative and less than terminationGracePeriodSeconds (30)',
      ],
    ]);
    expect(load(text('  terminationGracePeriodSeconds: 60\n', 45))).toEqual([]);
    // A zero sleep from 1.33 on (PodLifecycleSleepActionAllowZero); not before.
    expect(load(text('', 0))).toEqual([]);
    expect(load(text('', 0), '1.32').map(at)).toEqual([
      [
        '/spec/containers/0/lifecycle/preStop/sleep',
        'Invalid value: 0: must be greater than 0 and less than terminationGracePeriodSeconds (30). Enable AllowPodLifecycleSleepActionZeroValue feature gate for zero sleep.',
      ],
    ]);
  });

  it('refuses probes and hooks on an init container unless it is a sidecar (validateInitContainers)', () => {
    const findings = load(
      pod(`  initContainers:
    - { name: setup, image: busybox, readinessProbe: { exec: { command: [check] } }, lifecycle: { preStop: { exec: { command: [x] } } } }
    - { name: proxy, image: envoy, restartPolicy: Always, livenessProbe: { tcpSocket: { port: 0 } } }
  containers: [{ name: app, image: nginx }]
`),
    );
    const notForInit = 'Forbidden: may not be set for init containers without restartPolicy=Always';
    expect(findings.map(at)).toEqual([
      ['/spec/initContainers/0/readinessProbe', notForInit],
      ['/spec/initContainers/0/lifecycle', notForInit],
      [
        '/spec/initContainers/1/livenessProbe/tcpSocket/port',
        'Invalid value: 0: must be between 1 and 65535, inclusive',
      ],
    ]);
  });

  it("checks a workload's pod template the same way", () => {
    const text = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: app, image: nginx, livenessProbe: { periodSeconds: 5 } }]
`;
    expect(load(text).map(at)).toEqual([
      [
        '/spec/template/spec/containers/0/livenessProbe',
        'Required value: must specify a handler type',
      ],
    ]);
  });
});

describe("a container's environment (ValidateEnv, validateEnvVarValueFrom, ValidateEnvFrom)", () => {
  const env = (entries: string) => container(`      env:\n${entries}`);

  it('takes any printable ASCII name but = from Kubernetes 1.32 on (IsRelaxedEnvVarName)', () => {
    const text = env(
      '        - { name: "1st var.x", value: a }\n        - { name: "A=B", value: b }\n',
    );
    expect(load(text).map(at)).toEqual([
      [
        '/spec/containers/0/env/1/name',
        `Invalid value: "A=B": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      ],
    ]);
    expect(load(text, '1.32').map((f) => f.pointer)).toEqual(['/spec/containers/0/env/1/name']);
  });

  it('takes C-identifier-like names only before 1.32 (IsEnvVarName)', () => {
    const text = env(
      '        - { name: "1st", value: a }\n        - { name: "..x", value: b }\n        - { name: MY_VAR.name-1, value: c }\n',
    );
    const message =
      "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";
    expect(load(text, '1.31').map(at)).toEqual([
      ['/spec/containers/0/env/0/name', `Invalid value: "1st": ${message}`],
      ['/spec/containers/0/env/1/name', `Invalid value: "..x": must not start with '..'`],
    ]);
  });

  it('requires a name that is not empty', () => {
    expect(load(env('        - { name: "", value: a }\n')).map(at)).toEqual([
      ['/spec/containers/0/env/0/name', 'Required value'],
    ]);
  });

  it('needs exactly one valueFrom source, and no value beside it (validateEnvVarValueFrom)', () => {
    const findings = load(
      env(`        - { name: A, valueFrom: {} }
        - { name: B, value: x, valueFrom: { fieldRef: { fieldPath: metadata.name } } }
        - { name: C, valueFrom: { secretKeyRef: { name: s, key: k }, configMapKeyRef: { name: c, key: k } } }
        - { name: D, valueFrom: { fieldRef: { fieldPath: metadata.namespace } } }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/containers/0/env/0/valueFrom',
        'Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef`, `secretKeyRef` or `fileKeyRef`',
      ],
      [
        '/spec/containers/0/env/1/valueFrom',
        'Invalid value: "": may not be specified when `value` is not empty',
      ],
      [
        '/spec/containers/0/env/2/valueFrom',
        'Invalid value: "": may not have more than one field specified at a time',
      ],
    ]);
  });

  it('takes fileKeyRef as a source from 1.35, where EnvFiles is on by default (kubernetes/website envars-file-container.yaml)', () => {
    const text =
      env(`        - { name: A, valueFrom: { fileKeyRef: { volumeName: config, path: config.env, key: DB_ADDRESS } } }
        - { name: B, valueFrom: { fileKeyRef: { volumeName: config, path: config.env, key: "a=b" } } }
`);
    expect(load(text).map(at)).toEqual([
      [
        '/spec/containers/0/env/1/valueFrom/fileKeyRef/key',
        `Invalid value: "a=b": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      ],
    ]);
    // 1.34's API server drops the field (the gate is off): no source is left.
    expect(load(text, '1.34').map(at)).toContainEqual([
      '/spec/containers/0/env/0/valueFrom',
      'Invalid value: "": must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`',
    ]);
  });

  it('checks a key reference and a resource reference (validateConfigMapKeySelector, validateContainerResourceFieldSelector)', () => {
    const findings = load(
      env(`        - { name: A, valueFrom: { configMapKeyRef: { name: c, key: "a b" } } }
        - { name: B, valueFrom: { secretKeyRef: { name: s, key: "" } } }
        - { name: C, valueFrom: { resourceFieldRef: { resource: limits.gpu } } }
        - { name: D, valueFrom: { resourceFieldRef: { resource: limits.hugepages-2Mi } } }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/containers/0/env/0/valueFrom/configMapKeyRef/key',
        `Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')`,
      ],
      ['/spec/containers/0/env/1/valueFrom/secretKeyRef/key', 'Required value'],
      [
        '/spec/containers/0/env/2/valueFrom/resourceFieldRef/resource',
        'Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"',
      ],
    ]);
  });

  it("checks a fieldRef's path against what the downward API gives a variable (validateObjectFieldSelector, ConvertDownwardAPIFieldLabel)", () => {
    const findings = load(
      env(`        - { name: A, valueFrom: { fieldRef: { fieldPath: status.phase } } }
        - { name: B, valueFrom: { fieldRef: { fieldPath: spec.containers } } }
        - { name: C, valueFrom: { fieldRef: { fieldPath: "spec.nodeName['x']" } } }
        - { name: D, valueFrom: { fieldRef: { apiVersion: v2, fieldPath: metadata.name } } }
        - { name: E, valueFrom: { fieldRef: { fieldPath: "" } } }
        - { name: F, valueFrom: { fieldRef: { fieldPath: "metadata.labels['app']" } } }
        - { name: G, valueFrom: { fieldRef: { fieldPath: spec.host } } }
        - { name: H, valueFrom: { fieldRef: { fieldPath: status.podIPs } } }
`),
    );
    const at0 = (i: number) => `/spec/containers/0/env/${i}/valueFrom/fieldRef/fieldPath`;
    expect(findings.map(at)).toEqual([
      [
        at0(0),
        'Unsupported value: "status.phase": supported values: "metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName", "status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs"',
      ],
      [
        at0(1),
        'Invalid value: "spec.containers": error converting fieldPath: field label not supported: spec.containers',
      ],
      [
        at0(2),
        `Invalid value: "spec.nodeName['x']": error converting fieldPath: field label does not support subscript: spec.nodeName['x']`,
      ],
      [
        at0(3),
        'Invalid value: "metadata.name": error converting fieldPath: unsupported pod version: v2',
      ],
      [at0(4), 'Required value'],
    ]);
  });

  it('needs exactly one envFrom source, reported at the list, and checks its prefix (ValidateEnvFrom)', () => {
    const findings = load(
      container(`      envFrom:
        - { prefix: "APP=", configMapRef: { name: settings } }
        - { configMapRef: { name: a }, secretRef: { name: b } }
        - { secretRef: { name: "" } }
`),
    );
    expect(findings.map(at)).toEqual([
      [
        '/spec/containers/0/envFrom',
        'Invalid value: "": may not have more than one field specified at a time',
      ],
      [
        '/spec/containers/0/envFrom/0/prefix',
        `Invalid value: "APP=": a valid environment variable name must consist only of printable ASCII characters other than '='`,
      ],
      ['/spec/containers/0/envFrom/2/secretRef/name', 'Required value'],
    ]);
    expect(load(container('      envFrom: [{ prefix: X_ }]\n')).map(at)).toEqual([
      [
        '/spec/containers/0/envFrom',
        'Invalid value: "": must specify one of: `configMapRef` or `secretRef`',
      ],
    ]);
  });
});

describe("a container's ConfigMap and Secret references (validateConfigMapKeySelector, validateSecretKeySelector, validateConfigMapEnvSource, validateSecretEnvSource)", () => {
  const subdomain = (value: string) =>
    `Invalid value: "${value}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;

  it('refuses a reference name that is no DNS-1123 subdomain, an empty or missing key reference name too', () => {
    const findings = load(
      container(`      env:
        - { name: PASSWORD, valueFrom: { secretKeyRef: { name: DB_Secret, key: password } } }
        - { name: MODE, valueFrom: { configMapKeyRef: { name: "", key: mode } } }
        - { name: LEVEL, valueFrom: { configMapKeyRef: { key: level } } }
      envFrom:
        - configMapRef: { name: App_Config }
        - secretRef: { name: "" }
`),
    );
    const c = '/spec/containers/0';
    expect(findings.map((f) => [f.pointer, f.message, f.line])).toEqual([
      [`${c}/env/0/valueFrom/secretKeyRef/name`, subdomain('DB_Secret'), 9],
      [`${c}/env/1/valueFrom/configMapKeyRef/name`, subdomain(''), 10],
      [`${c}/env/2/valueFrom/configMapKeyRef/name`, subdomain(''), 11],
      [`${c}/envFrom/0/configMapRef/name`, subdomain('App_Config'), 13],
      [`${c}/envFrom/1/secretRef/name`, 'Required value', 14],
    ]);
    expect(findings.map((f) => f.col).slice(0, 2)).toEqual([64, 63]);
  });

  it('takes valid names, and an envFrom name ending in a dash, which Go checks as a prefix (MaskTrailingDash)', () => {
    const text = container(`      env:
        - { name: PASSWORD, valueFrom: { secretKeyRef: { name: db.credentials, key: password, optional: true } } }
        - { name: MODE, valueFrom: { configMapKeyRef: { name: app-config, key: mode } } }
      envFrom:
        - configMapRef: { name: app- }
        - secretRef: { name: web-secrets }
`);
    expect(load(text)).toEqual([]);
  });
});

describe("a container's resources (ValidateContainerResourceRequirements)", () => {
  it('refuses names a container cannot request, fractional or overcommitted extended resources, huge pages alone', () => {
    const findings = load(
      container(`      resources:
        limits: { cpus: "1", nvidia.com/gpu: "2", example.com/fpga: 500m }
        requests: { storage: 1Gi, nvidia.com/gpu: "1", vendor.io/thing: "1" }
    - name: pages
      image: nginx
      resources: { limits: { hugepages-2Mi: 100Mi } }
`),
    );
    expect(findings.map(at)).toEqual([
      // vendor.io/thing: requested without a limit (at the limits, where it is missing).
      [
        '/spec/containers/0/resources/limits',
        'Required value: Limit must be set for non overcommitable resources',
      ],
      [
        '/spec/containers/0/resources/limits/cpus',
        'Invalid value: "cpus": must be a standard resource type or fully qualified',
      ],
      [
        '/spec/containers/0/resources/limits/cpus',
        'Invalid value: "cpus": must be a standard resource for containers',
      ],
      [
        '/spec/containers/0/resources/limits/example.com~1fpga',
        'Invalid value: "500m": must be an integer',
      ],
      [
        '/spec/containers/0/resources/requests',
        'Invalid value: "1": must be equal to nvidia.com/gpu limit of 2',
      ],
      [
        '/spec/containers/0/resources/requests/storage',
        'Invalid value: "storage": must be a standard resource for containers',
      ],
      ['/spec/containers/1/resources', 'Forbidden: HugePages require cpu or memory'],
    ]);
  });

  it('takes GPUs as limits, with equal requests, and huge pages beside memory', () => {
    const text = container(`      resources:
        limits: { cpu: "2", memory: 4Gi, nvidia.com/gpu: "1", hugepages-2Mi: 100Mi }
        requests: { cpu: 500m, memory: 1Gi, nvidia.com/gpu: "1", hugepages-2Mi: 100Mi }
`);
    expect(load(text)).toEqual([]);
  });
});

describe("a pod spec's names and scalars (ValidatePodSpec)", () => {
  const subdomain = (value: string) =>
    `Invalid value: "${value}": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`;

  it('refuses a service account, priority class, runtime class or node name that is no DNS-1123 subdomain, and a hostname or subdomain that is no DNS-1123 label', () => {
    const findings = load(`apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      serviceAccountName: Web_SA
      priorityClassName: High_Priority
      runtimeClassName: gVisor
      hostname: web.host
      subdomain: my_subdomain
      nodeName: Node_1
      containers: [{ name: c, image: nginx }]
`);
    const at = '/spec/template/spec';
    expect(findings.map((f) => [f.pointer, f.message, f.line, f.col])).toEqual([
      [`${at}/serviceAccountName`, subdomain('Web_SA'), 9, 27],
      [`${at}/priorityClassName`, subdomain('High_Priority'), 10, 26],
      [`${at}/runtimeClassName`, subdomain('gVisor'), 11, 25],
      [`${at}/hostname`, 'Invalid value: "web.host": must not contain dots', 12, 17],
      [
        `${at}/subdomain`,
        `Invalid value: "my_subdomain": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
        13,
        18,
      ],
      [`${at}/nodeName`, subdomain('Node_1'), 14, 17],
    ]);
  });

  it('takes valid names, and empty ones where Go skips them', () => {
    const text = pod(`  serviceAccountName: web-sa
  priorityClassName: ""
  runtimeClassName: gvisor
  hostname: web-0
  subdomain: web
  nodeName: ip-10-0-0-1.ec2.internal
  activeDeadlineSeconds: 600
  containers: [{ name: app, image: nginx }]
`);
    expect(load(text)).toEqual([]);
  });

  it('refuses an activeDeadlineSeconds below 1', () => {
    const findings = load(
      pod(`  activeDeadlineSeconds: 0\n  containers: [{ name: app, image: nginx }]\n`),
    );
    expect(findings.map((f) => [f.pointer, f.message, f.line, f.col])).toEqual([
      [
        '/spec/activeDeadlineSeconds',
        'Invalid value: 0: must be between 1 and 2147483647, inclusive',
        5,
        26,
      ],
    ]);
  });
});

describe('host ports (checkHostPortConflicts)', () => {
  it('refuses a protocol, host IP and host port two containers take, at the later one', () => {
    const findings = load(
      pod(`  containers:
    - { name: a, image: x, ports: [{ containerPort: 80, hostPort: 8080 }] }
    - { name: b, image: x, ports: [{ containerPort: 81, hostPort: 8080, protocol: TCP }] }
`),
    );
    expect(findings.map((f) => [f.pointer, f.message, f.line])).toEqual([
      ['/spec/containers/1/ports/0/hostPort', 'Duplicate value: "TCP//8080"', 7],
    ]);
  });

  it('takes the same host port with another protocol or host IP, and init containers that reuse a port', () => {
    const text = pod(`  initContainers:
    - { name: i, image: x, ports: [{ containerPort: 80, hostPort: 8080 }] }
  containers:
    - { name: a, image: x, ports: [{ containerPort: 80, hostPort: 8080 }] }
    - { name: b, image: x, ports: [{ containerPort: 80, hostPort: 8080, protocol: UDP }] }
    - { name: c, image: x, ports: [{ containerPort: 81, hostPort: 8080, hostIP: 10.0.0.1 }] }
`);
    expect(load(text).filter((f) => f.severity === 'error')).toEqual([]);
  });
});

describe("an init container's restartPolicy (validateInitContainers)", () => {
  const text = pod(`  initContainers:
    - { name: i, image: x, restartPolicy: OnFailure }
    - { name: s, image: x, restartPolicy: Always }
  containers: [{ name: app, image: nginx }]
`);

  it('refuses anything but Always from 1.29 to 1.34', () => {
    for (const release of ['1.29', '1.34'] as const) {
      expect(load(text, release).map((f) => [f.pointer, f.message, f.line])).toEqual([
        [
          '/spec/initContainers/0/restartPolicy',
          'Unsupported value: "OnFailure": supported values: "Always"',
          6,
        ],
      ]);
    }
  });

  it('leaves it alone on 1.28, which drops the field, and from 1.35', () => {
    expect(load(text, '1.28').filter((f) => f.pointer.includes('restartPolicy'))).toEqual([]);
    expect(load(text, '1.36')).toEqual([]);
  });
});

describe('host ports with hostNetwork (validatePodSpecNetworkDeps)', () => {
  const MUST_MATCH = 'must match `containerPort` when `hostNetwork` is true';

  it("refuses a host port that is not the container port, a Pod's and a DaemonSet template's", () => {
    const findings = load(`apiVersion: apps/v1
kind: DaemonSet
metadata: { name: node-exporter }
spec:
  selector: { matchLabels: { app: ne } }
  template:
    metadata: { labels: { app: ne } }
    spec:
      hostNetwork: true
      containers:
        - name: c
          image: quay.io/prometheus/node-exporter
          ports: [{ containerPort: 9100, hostPort: 9101 }]
---
${pod(`  hostNetwork: true
  containers:
    - { name: c, image: nginx, ports: [{ containerPort: 80, hostPort: 81 }] }
`)}`);
    expect(findings.map((f) => [f.pointer, f.message, f.line, f.col])).toEqual([
      [
        '/spec/template/spec/containers/0/ports/0/hostPort',
        `Invalid value: 9101: ${MUST_MATCH}`,
        13,
        52,
      ],
      ['/spec/containers/0/ports/0/hostPort', `Invalid value: 81: ${MUST_MATCH}`, 21, 71],
    ]);
  });

  it('takes a host port equal to the container port or left out (defaulted), and any without hostNetwork', () => {
    const text = pod(`  hostNetwork: true
  containers:
    - { name: c, image: nginx, ports: [{ containerPort: 80, hostPort: 80 }, { containerPort: 443 }] }
---
${pod(`  containers:
    - { name: c, image: nginx, ports: [{ containerPort: 80, hostPort: 8080 }] }
`).replace('name: p', 'name: q')}`);
    expect(load(text)).toEqual([]);
  });
});

describe("a Pod's images (validateContainerOnlyForPod)", () => {
  it("refuses a Pod's image with space around it, as Go's TrimSpace sees space", () => {
    const text = pod(`  initContainers: [{ name: init, image: "busybox\\t" }]
  containers:
    - { name: app, image: " nginx:1.27" }
    - { name: side, image: "redis\\u0085" }
    - { name: bom, image: "\\uFEFFnginx" }
`);
    expect(load(text).map(at)).toEqual([
      [
        '/spec/initContainers/0/image',
        'Invalid value: "busybox\\t": must not have leading or trailing whitespace',
      ],
      [
        '/spec/containers/0/image',
        'Invalid value: " nginx:1.27": must not have leading or trailing whitespace',
      ],
      [
        '/spec/containers/1/image',
        'Invalid value: "redis\\u0085": must not have leading or trailing whitespace',
      ],
    ]);
  });

  it("takes a workload template's padded image, a placeholder the API server leaves alone", () => {
    const text = `apiVersion: apps/v1
kind: Deployment
metadata: { name: web }
spec:
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers: [{ name: app, image: " " }]
`;
    expect(load(text)).toEqual([]);
  });
});
