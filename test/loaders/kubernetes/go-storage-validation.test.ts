import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * What the API server refuses of PersistentVolumes (k8s.io/kubernetes `pkg/apis/core/validation`
 * `ValidatePersistentVolumeSpec`), StorageClasses, VolumeAttributesClasses and CSIDrivers
 * (`pkg/apis/storage/validation`) that their OpenAPI passes.
 */

const at = (f: Finding) => [f.pointer, f.message];
const loadAll = (text: string) => loadManifests([{ path: 'storage.yaml', text }]).findings;
/** The errors: the API server's warnings (a Recycle policy) are the last block's. */
const load = (text: string) => loadAll(text).filter((f) => f.code !== 'api-warning');

let n = 0;
const volume = (spec: string) =>
  `---\napiVersion: v1\nkind: PersistentVolume\nmetadata: { name: pv${++n} }\nspec:\n${spec}`;

describe("a PersistentVolume's spec (ValidatePersistentVolumeSpec)", () => {
  it('takes what real volumes write: a host path, NFS, CSI with secrets, a local disk with node affinity', () => {
    expect(
      load(
        volume(`  capacity: { storage: 10Gi }
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Recycle
  storageClassName: manual
  hostPath: { path: /mnt/data }
`) +
          volume(`  capacity: { storage: 1Mi }
  accessModes: [ReadWriteMany]
  nfs: { server: nfs.example.com, path: "/" }
  mountOptions: [nfsvers=4.1]
`) +
          volume(`  capacity: { storage: 5Gi }
  accessModes: [ReadWriteOncePod]
  csi:
    driver: ebs.csi.aws.com
    volumeHandle: vol-0123
    nodePublishSecretRef: { name: creds, namespace: kube-system }
`) +
          volume(`  capacity: { storage: 100Gi }
  accessModes: [ReadWriteOnce]
  local: { path: /mnt/disks/ssd1 }
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions: [{ key: kubernetes.io/hostname, operator: In, values: [node-1] }]
`),
      ),
    ).toEqual([]);
  });

  it('needs access modes, a capacity of storage above zero and one source', () => {
    expect(
      load(
        volume(`  capacity: { storage: "0", cpu: "1" }
  accessModes: []
`) +
          volume(`  accessModes: [ReadWriteOncePod, ReadWriteOnce]
  hostPath: { path: /data/../etc }
  nfs: { server: nfs, path: exports }
`),
      ).map(at),
    ).toEqual([
      ['/spec', 'Required value: must specify a volume type'],
      [
        '/spec/capacity',
        'Unsupported value: map[string]string{"cpu":"1", "storage":"0"}: supported values: "storage"',
      ],
      ['/spec/capacity/storage', 'Invalid value: "0": must be greater than zero'],
      ['/spec/accessModes', 'Required value'],
      ['/spec/capacity', 'Required value'],
      ['/spec/capacity', 'Unsupported value: map[string]string{}: supported values: "storage"'],
      ['/spec/accessModes', 'Forbidden: may not use ReadWriteOncePod with other access modes'],
      ['/spec/hostPath/path', `Invalid value: "/data/../etc": must not contain '..'`],
      ['/spec/nfs', 'Forbidden: may not specify more than 1 volume type'],
    ]);
  });

  it("checks a local volume's node affinity, a CSI source, a host path / recycled, the class name", () => {
    expect(
      load(
        volume(`  capacity: { storage: 1Gi }
  accessModes: [ReadWriteOnce]
  storageClassName: Fast_SSD
  local: { path: /mnt/disk }
`) +
          volume(`  capacity: { storage: 1Gi }
  accessModes: [ReadWriteOnce]
  nodeAffinity: {}
  csi:
    driver: Bad_Driver
    volumeHandle: ""
    controllerPublishSecretRef: { name: creds }
`) +
          volume(`  capacity: { storage: 1Gi }
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Recycle
  hostPath: { path: // }
`),
      ).map(at),
    ).toEqual([
      ['/spec/nodeAffinity', 'Required value: Local volume requires node affinity'],
      [
        '/spec/storageClassName',
        `Invalid value: "Fast_SSD": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      ['/spec/nodeAffinity/required', 'Required value: must specify required node constraints'],
      [
        '/spec/csi/driver',
        `Invalid value: "Bad_Driver": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
      ['/spec/csi/volumeHandle', 'Required value'],
      ['/spec/csi/controllerPublishSecretRef/namespace', 'Required value'],
      [
        '/spec/persistentVolumeReclaimPolicy',
        "Forbidden: may not be 'recycle' for a hostPath mount of '/'",
      ],
    ]);
  });
});

describe('a StorageClass (ValidateStorageClass)', () => {
  const storageClass = (fields: string) =>
    `---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: { name: sc${++n} }\n${fields}`;

  it('takes in-tree and CSI provisioners, parameters and allowed topologies', () => {
    expect(
      load(
        storageClass(`provisioner: kubernetes.io/aws-ebs
parameters: { type: gp2, fsType: ext4 }
reclaimPolicy: Retain
volumeBindingMode: WaitForFirstConsumer
allowedTopologies:
  - matchLabelExpressions:
      - { key: topology.kubernetes.io/zone, values: [us-east-1a, us-east-1b] }
  - matchLabelExpressions:
      - { key: topology.kubernetes.io/zone, values: [us-east-1c] }
`) + storageClass('provisioner: Ebs.CSI.AWS.com\n'),
      ),
    ).toEqual([]);
  });

  it('refuses a provisioner that is no qualified name, Recycle, and bad topologies', () => {
    expect(
      load(
        storageClass(`provisioner: example.com/nfs/v2
reclaimPolicy: Recycle
parameters: { "": x }
allowedTopologies:
  - matchLabelExpressions:
      - { key: zone, values: [] }
      - { key: zone, values: [a, a] }
  - matchLabelExpressions: []
  - matchLabelExpressions:
      - { key: zone, values: [a] }
  - matchLabelExpressions:
      - { key: zone, values: [a] }
`),
      ).map(at),
    ).toEqual([
      [
        '/provisioner',
        `Invalid value: "example.com/nfs/v2": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
      ],
      ['/reclaimPolicy', 'Unsupported value: "Recycle": supported values: "Delete", "Retain"'],
      ['/parameters', 'Invalid value: "": field can not be empty.'],
      ['/allowedTopologies/0/matchLabelExpressions/0/values', 'Required value'],
      ['/allowedTopologies/0/matchLabelExpressions/1/key', 'Duplicate value: "zone"'],
      ['/allowedTopologies/0/matchLabelExpressions/1/values/1', 'Duplicate value: "a"'],
      // No expressions, and the same expressions as the first term (its second `zone` won).
      ['/allowedTopologies/1/matchLabelExpressions', 'Duplicate value: ""'],
      ['/allowedTopologies/2/matchLabelExpressions', 'Duplicate value: ""'],
      ['/allowedTopologies/3/matchLabelExpressions', 'Duplicate value: ""'],
    ]);
  });
});

describe('a VolumeAttributesClass (ValidateVolumeAttributesClass)', () => {
  const attributesClass = (fields: string) =>
    `---\napiVersion: storage.k8s.io/v1\nkind: VolumeAttributesClass\nmetadata: { name: vac${++n} }\n${fields}`;

  it('names its driver as a provisioner and has a parameter at least', () => {
    expect(
      load(attributesClass('driverName: pd.csi.storage.gke.io\nparameters: { iops: "3000" }\n')),
    ).toEqual([]);
    expect(
      load(
        attributesClass('driverName: example.com/csi/v2\nparameters: { iops: "3000" }\n') +
          attributesClass('driverName: ebs.csi.aws.com\n'),
      ).map((f) => [f.pointer, f.message.slice(0, 60)]),
    ).toEqual([
      ['/driverName', 'Invalid value: "example.com/csi/v2": a qualified name must c'],
      ['/parameters', 'Required value: must contain at least one key/value pair'],
    ]);
  });
});

describe("a CSIDriver's spec (validateCSIDriverSpec)", () => {
  const driver = (spec: string) =>
    `---\napiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: { name: d${++n}.csi.example.com }\nspec:\n${spec}`;

  it('takes what the hostpath driver writes', () => {
    expect(
      load(
        driver(`  attachRequired: false
  podInfoOnMount: true
  fsGroupPolicy: File
  volumeLifecycleModes: [Persistent, Ephemeral]
  tokenRequests:
    - audience: ""
    - audience: vault
      expirationSeconds: 600
  nodeAllocatableUpdatePeriodSeconds: 60
`),
      ),
    ).toEqual([]);
  });

  it('refuses an unknown group policy or mode, a duplicate audience, a token too short- or long-lived, updates too often', () => {
    expect(
      load(
        driver(`  fsGroupPolicy: ReadWriteMany
  volumeLifecycleModes: [Persistent, Inline]
  tokenRequests:
    - { audience: vault, expirationSeconds: 60 }
    - { audience: gcp, expirationSeconds: 4294967297 }
    - { audience: vault, expirationSeconds: 1 }
  nodeAllocatableUpdatePeriodSeconds: 5
`),
      ).map(at),
    ).toEqual([
      [
        '/spec/fsGroupPolicy',
        'Unsupported value: "ReadWriteMany": supported values: "File", "None", "ReadWriteOnceWithFSType"',
      ],
      [
        '/spec/volumeLifecycleModes/1',
        'Unsupported value: "Inline": supported values: "Persistent", "Ephemeral"',
      ],
      [
        '/spec/tokenRequests/0/expirationSeconds',
        'Invalid value: 60: may not specify a duration less than 10 minutes',
      ],
      [
        '/spec/tokenRequests/1/expirationSeconds',
        'Invalid value: 4294967297: may not specify a duration larger than 2^32 seconds',
      ],
      // A duplicate is not checked further.
      ['/spec/tokenRequests/2/audience', 'Duplicate value: "vault"'],
      [
        '/spec/nodeAllocatableUpdatePeriodSeconds',
        'Invalid value: 5: must be greater than or equal to 10 seconds',
      ],
    ]);
  });
});

describe("the API server's warnings for a claim and a volume (GetWarningsForPersistentVolumeClaim, GetWarningsForPersistentVolume)", () => {
  const warnings = (text: string) =>
    loadAll(text)
      .filter((f) => f.code === 'api-warning')
      .map((f) => [f.severity, f.pointer, f.message]);

  it('name the beta storage class annotation and a fractional storage request or limit', () => {
    expect(
      warnings(`apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  annotations: { volume.beta.kubernetes.io/storage-class: fast }
spec:
  accessModes: [ReadWriteOnce]
  resources: { requests: { storage: 1.5Ki }, limits: { storage: 500m } }
`),
    ).toEqual([
      [
        'warning',
        '/metadata/annotations/volume.beta.kubernetes.io~1storage-class',
        'deprecated since v1.8; use "storageClassName" attribute instead',
      ],
      [
        'warning',
        '/spec/resources/limits/storage',
        'fractional byte value "500m" is invalid, must be an integer',
      ],
    ]);
  });

  it("name a volume's Recycle policy, deprecated node labels and deprecated plugins", () => {
    expect(
      warnings(
        volume(`  capacity: { storage: 1Gi }
  accessModes: [ReadWriteOnce]
  persistentVolumeReclaimPolicy: Recycle
  rbd: { monitors: [10.0.0.1:6789], image: disk }
  nodeAffinity:
    required:
      nodeSelectorTerms:
        - matchExpressions: [{ key: failure-domain.beta.kubernetes.io/zone, operator: In, values: [a] }]
`),
      ),
    ).toEqual([
      [
        'warning',
        '/spec/persistentVolumeReclaimPolicy',
        'The Recycle reclaim policy is deprecated. Instead, the recommended approach is to use dynamic provisioning.',
      ],
      ['warning', '/spec/rbd', 'deprecated in v1.28, non-functional in v1.31+'],
      [
        'warning',
        '/spec/nodeAffinity/required/nodeSelectorTerms/0/matchExpressions/0/key',
        'failure-domain.beta.kubernetes.io/zone is deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
      ],
    ]);
  });
});
