import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const load = (text: string) => loadManifests([{ path: 'q.yaml', text }]).findings;
const at = (f: Finding) => [f.line, f.col, f.code, f.pointer, f.message];
const SYNTAX =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const SUFFIX = "unable to parse quantity's suffix";

describe('quantities of built-in kinds, wherever the OpenAPI types a field Quantity (resource.ParseQuantity)', () => {
  it('refuses one that does not parse in a quota, a limit range, a claim template, an emptyDir and an overhead', () => {
    expect(
      load(`apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  selector: {matchLabels: {app: db}}
  serviceName: db
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: c, image: postgres, volumeMounts: [{name: data, mountPath: /data}, {name: tmp, mountPath: /tmp}]}]
      volumes:
      - {name: tmp, emptyDir: {sizeLimit: 1gi}}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 10gi}}}
---
apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec:
  hard: {requests.memory: 10gi, limits.cpu: "4 cores"}
---
apiVersion: v1
kind: LimitRange
metadata: {name: lr}
spec:
  limits:
  - type: Container
    max: {memory: 2gi}
    default: {cpu: half}
---
apiVersion: node.k8s.io/v1
kind: RuntimeClass
metadata: {name: rc}
handler: runc
overhead: {podFixed: {memory: 120mi}}
`)
        .filter((f) => f.code !== 'api-warning')
        .map(at),
    ).toEqual([
      [12, 43, 'schema-violation', '/spec/template/spec/volumes/0/emptyDir/sizeLimit', SYNTAX],
      [
        15,
        74,
        'schema-violation',
        '/spec/volumeClaimTemplates/0/spec/resources/requests/storage',
        SYNTAX,
      ],
      [21, 27, 'schema-violation', '/spec/hard/requests.memory', SYNTAX],
      [21, 45, 'schema-violation', '/spec/hard/limits.cpu', SYNTAX],
      [29, 19, 'schema-violation', '/spec/limits/0/max/memory', SYNTAX],
      [30, 20, 'schema-violation', '/spec/limits/0/default/cpu', SYNTAX],
      [36, 31, 'schema-violation', '/overhead/podFixed/memory', SUFFIX],
    ]);
  });

  it('takes the quantities the API server parses there', () => {
    expect(
      load(`apiVersion: v1
kind: ResourceQuota
metadata: {name: q}
spec:
  hard: {requests.memory: 10Gi, limits.cpu: "4", pods: 10, requests.storage: 1e3, count/deployments.apps: "5"}
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: nginx}]
  overhead: {cpu: 250m}
  volumes: [{name: tmp, emptyDir: {sizeLimit: 0.5Gi}}]
`),
    ).toEqual([]);
  });

  it('refuses one that does not parse in an HPA target, pod-level resources, a divisor and a storage capacity', () => {
    expect(
      load(`apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: hpa}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 5
  metrics:
  - type: Resource
    resource: {name: memory, target: {type: AverageValue, averageValue: 500mi}}
  - type: External
    external:
      metric: {name: queue_depth}
      target: {type: Value, value: "30 msgs"}
---
apiVersion: v1
kind: Pod
metadata: {name: pod-level}
spec:
  resources: {limits: {cpu: "1 core"}}
  containers:
  - name: c
    image: nginx
    env:
    - name: CPU_LIMIT
      valueFrom: {resourceFieldRef: {resource: limits.cpu, divisor: 1x}}
---
apiVersion: storage.k8s.io/v1
kind: CSIStorageCapacity
metadata: {name: cap}
storageClassName: standard
capacity: 10gi
`)
        .filter((f) => f.code !== 'api-warning')
        .map(at),
    ).toEqual([
      [9, 73, 'schema-violation', '/spec/metrics/0/resource/target/averageValue', SUFFIX],
      [13, 36, 'schema-violation', '/spec/metrics/1/external/target/value', SYNTAX],
      [19, 29, 'schema-violation', '/spec/resources/limits/cpu', SYNTAX],
      [
        25,
        69,
        'schema-violation',
        '/spec/containers/0/env/0/valueFrom/resourceFieldRef/divisor',
        SYNTAX,
      ],
      [31, 11, 'schema-violation', '/capacity', SYNTAX],
    ]);
  });

  it('reports one that does not parse in container resources, a claim and a volume once', () => {
    expect(
      load(`apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: nginx, resources: {limits: {memory: 1gi}}}]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: c}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1gi}}
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: v}
spec:
  accessModes: [ReadWriteOnce]
  capacity: {storage: 1gi}
  csi: {driver: d.example.com, volumeHandle: h}
`)
        .filter((f) => f.code !== 'api-warning')
        .map((f) => [f.pointer, f.message]),
    ).toEqual([
      ['/spec/containers/0/resources/limits/memory', SYNTAX],
      ['/spec/resources/requests/storage', SYNTAX],
      ['/spec/capacity/storage', SYNTAX],
    ]);
  });
});
