import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/loaders/load-manifests.js';
import { templateVariableAt } from '../../src/loaders/template-variables.js';

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

const at = (value: unknown) => templateVariableAt({ spec: { replicas: value } }, '/spec/replicas');

describe('templateVariableAt', () => {
  it('gives the variable a value holds, with its default', () => {
    expect(at('${WORKER_MACHINE_COUNT}')).toBe('${WORKER_MACHINE_COUNT}');
    expect(at('x-${NAME:-a-${B}}-y')).toBe('${NAME:-a-${B}');
    expect(at('${1X}')).toBeUndefined();
    expect(at('${NAME:-open')).toBeUndefined();
    expect(at(3)).toBeUndefined();
  });

  it('reads a long value of variables that never close in linear time', () => {
    // Each `${A+` was read to the end of the value again: 110 KB took 3 s.
    const open = '${A+'.repeat(100_000);
    const started = performance.now();
    expect(at(open)).toBeUndefined();
    expect(at(`${open}}`)).toBe(`${open}}`);
    expect(at(`\${B}${open}`)).toBe('${B}');
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
