import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/loaders/load-manifests.js';

/** A Cluster API template's `${VARIABLE}`s are checked as written, and their findings say what they are. */

describe('a value holding an unrendered template variable', () => {
  it('says it is one, at each finding about it, and nowhere else', () => {
    const text = `apiVersion: apps/v1
kind: Deployment
metadata: { name: "\${CLUSTER_NAME}-md-0", namespace: "\${NAMESPACE:=default}" }
spec:
  replicas: \${WORKER_MACHINE_COUNT}
  selector: { matchLabels: { app: w } }
  template:
    metadata: { labels: { app: w } }
    spec:
      containers: [{ name: c, image: nginx, args: ["\${HOME}"], ports: [{ containerPort: 0 }] }]
`;
    const findings = loadManifests([{ path: 'cluster-template.yaml', text }]).findings;
    expect(
      findings.map((f) => [
        f.pointer,
        f.message.match(/\(\$\{[^}]*\} is a template variable/)?.[0] ?? f.message.slice(0, 30),
      ]),
    ).toEqual([
      ['/metadata/name', '(${CLUSTER_NAME} is a template variable'],
      ['/metadata/namespace', '(${NAMESPACE:=default} is a template variable'],
      ['/spec/replicas', '(${WORKER_MACHINE_COUNT} is a template variable'],
      ['/spec/template/spec/containers/0/ports/0/containerPort', 'Required value'],
    ]);
    expect(findings[2]?.message).toBe(
      'must be integer (${WORKER_MACHINE_COUNT} is a template variable: check what the template renders, e.g. clusterctl generate yaml or envsubst)',
    );
  });
});
