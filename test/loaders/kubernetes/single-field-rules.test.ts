import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const load = (text: string) =>
  loadManifests([{ path: 'misc.yaml', text }]).findings.filter((f) => f.code !== 'api-warning');
const at = (f: Finding) => [f.line, f.col, f.pointer, f.message];

describe("a PersistentVolumeClaim's data source (validateDataSource)", () => {
  const claim = (source: string) => `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: restore}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
  dataSource: ${source}
`;

  it('refuses a source of the core group that is no claim', () => {
    expect(load(claim('{kind: VolumeSnapshot, name: snap}')).map(at)).toEqual([
      [
        7,
        15,
        '/spec/dataSource',
        'Invalid value: "VolumeSnapshot": must be \'PersistentVolumeClaim\' when referencing the default apiGroup',
      ],
    ]);
  });

  it('takes a snapshot of its group and a claim of the core group', () => {
    expect(
      load(claim('{apiGroup: snapshot.storage.k8s.io, kind: VolumeSnapshot, name: snap}')),
    ).toEqual([]);
    expect(load(claim('{kind: PersistentVolumeClaim, name: src}'))).toEqual([]);
  });
});

describe("a Service port's appProtocol (validateServicePort)", () => {
  const service = (appProtocol: string) => `apiVersion: v1
kind: Service
metadata: {name: svc}
spec:
  selector: {app: a}
  ports: [{port: 80, name: web, appProtocol: ${appProtocol}}]
`;

  it('refuses one that is no qualified name', () => {
    expect(load(service('"HTTP/2 cleartext"')).map(at)).toEqual([
      [
        6,
        46,
        '/spec/ports/0/appProtocol',
        "Invalid value: \"HTTP/2 cleartext\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      [
        6,
        46,
        '/spec/ports/0/appProtocol',
        "Invalid value: \"HTTP/2 cleartext\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ]);
  });

  it('takes a standard or prefixed protocol', () => {
    expect(load(service('kubernetes.io/h2c'))).toEqual([]);
    expect(load(service('HTTP'))).toEqual([]);
  });
});

describe("an autoscaling/v1 HorizontalPodAutoscaler's CPU target (validateMetricTarget)", () => {
  const hpa = (percentage: number) => `apiVersion: autoscaling/v1
kind: HorizontalPodAutoscaler
metadata: {name: h1}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 3
  targetCPUUtilizationPercentage: ${percentage}
`;

  it('refuses a target below 1%', () => {
    expect(load(hpa(0)).map(at)).toEqual([
      [7, 35, '/spec/targetCPUUtilizationPercentage', 'Invalid value: 0: must be greater than 0'],
    ]);
  });

  it('takes a target of 1% and more', () => {
    expect(load(hpa(80))).toEqual([]);
  });
});
