import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const load = (text: string) => loadManifests([{ path: 'q.yaml', text }]).findings;
const at = (f: Finding) => [f.line, f.col, f.code, f.pointer, f.message];
const SYNTAX =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
const SUFFIX = "unable to parse quantity's suffix";

describe('quantities outside container resources, claims and volumes (resource.ParseQuantity)', () => {
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
});
