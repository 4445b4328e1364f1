import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * The label selectors Go validates beyond workloads' (`ValidatePodDisruptionBudgetSpec`,
 * `ValidatePersistentVolumeClaimSpec`, `ValidateClusterRole`), and a claim's class and data
 * sources (`ValidatePersistentVolumeClaimSpec`).
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string) => loadManifests([{ path: 'app.yaml', text }]).findings;
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

describe('label selectors of disruption budgets, claims and aggregated cluster roles', () => {
  it('refuses malformed requirements and values, and an aggregation rule without selectors', () => {
    expect(
      load(`apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: pdb}
spec:
  minAvailable: 1
  selector: {matchExpressions: [{key: app, operator: Exists, values: [web]}]}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: pvc}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  selector: {matchExpressions: [{key: tier, operator: In}]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: aggregate}
aggregationRule:
  clusterRoleSelectors:
  - matchLabels: {"rbac.example.com/aggregate-to-view": "-true"}
rules: []
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: aggregate-empty}
aggregationRule:
  clusterRoleSelectors: []
`).map(at),
    ).toEqual([
      [
        '/spec/selector/matchExpressions/0/values',
        "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'",
      ],
      [
        '/spec/selector/matchExpressions/0/values',
        "Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
      [
        '/aggregationRule/clusterRoleSelectors/0/matchLabels/rbac.example.com~1aggregate-to-view',
        `Invalid value: "-true": ${LABEL_VALUE}`,
      ],
      [
        '/aggregationRule/clusterRoleSelectors',
        'Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
      ],
    ]);
  });

  it("takes kube-prometheus' and knative's aggregated roles and selectors", () => {
    expect(
      load(`apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: {name: knative-serving-admin}
aggregationRule:
  clusterRoleSelectors:
  - matchLabels: {serving.knative.dev/controller: "true"}
rules: []
---
apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: prometheus-k8s}
spec:
  minAvailable: 1
  selector:
    matchLabels: {app.kubernetes.io/name: prometheus}
    matchExpressions: [{key: tier, operator: NotIn, values: [debug]}]
`),
    ).toEqual([]);
  });
});

describe("a claim's storage class and data sources (ValidatePersistentVolumeClaimSpec)", () => {
  it('refuses a class that is no DNS subdomain, in a claim and an ephemeral template, and sources that differ', () => {
    expect(
      load(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: sc}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: Fast_SSD
  resources: {requests: {storage: 1Gi}}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: restore}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  dataSource: {kind: VolumeSnapshot, name: snap-old, apiGroup: snapshot.storage.k8s.io}
  dataSourceRef: {kind: VolumeSnapshot, name: snap-new, apiGroup: snapshot.storage.k8s.io}
---
apiVersion: v1
kind: Pod
metadata: {name: eph}
spec:
  containers: [{name: c, image: nginx}]
  volumes:
  - name: scratch
    ephemeral:
      volumeClaimTemplate:
        spec:
          accessModes: [ReadWriteOnce]
          storageClassName: Fast_SSD
          resources: {requests: {storage: 1Gi}}
`).map(at),
    ).toEqual([
      ['/spec/storageClassName', `Invalid value: "Fast_SSD": ${SUBDOMAIN}`],
      ['/spec', 'Invalid value: spec.dataSource: must match dataSourceRef'],
      [
        '/spec/volumes/0/ephemeral/volumeClaimTemplate/spec/storageClassName',
        `Invalid value: "Fast_SSD": ${SUBDOMAIN}`,
      ],
    ]);
  });

  it('takes the same source written twice, and an empty class (no class at all)', () => {
    expect(
      load(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: restore}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  resources: {requests: {storage: 1Gi}}
  dataSource: {kind: VolumeSnapshot, name: snap, apiGroup: snapshot.storage.k8s.io}
  dataSourceRef: {kind: VolumeSnapshot, name: snap, apiGroup: snapshot.storage.k8s.io}
`),
    ).toEqual([]);
  });

  it('refuses a volume attributes class that is no DNS subdomain from 1.34, when the feature is on', () => {
    const claim = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: vac}
spec:
  accessModes: [ReadWriteOnce]
  volumeAttributesClassName: Gold_IOPS
  resources: {requests: {storage: 1Gi}}
`;
    const on = loadManifests([{ path: 'app.yaml', text: claim }], { kubernetesVersion: '1.34' });
    const off = loadManifests([{ path: 'app.yaml', text: claim }], { kubernetesVersion: '1.33' });
    expect(on.findings.map(at)).toEqual([
      ['/spec/volumeAttributesClassName', `Invalid value: "Gold_IOPS": ${SUBDOMAIN}`],
    ]);
    expect(off.findings.map(at)).toEqual([]);
  });
});
