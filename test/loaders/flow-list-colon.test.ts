import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/loaders/load-manifests.js';

/**
 * A flow list's plain item that ends in `:` right before `,` or `]`: kubectl (go-yaml v2) reads
 * the string, YAML 1.2 a one-key mapping. Istio's own test data has a valid ServiceEntry with
 * `addresses: [1.2.3.4, 001:db8::]` (`pkg/config/validation/testdata/crds/serviceentry-valid.yaml`).
 */
describe('a flow list item ending in ":"', () => {
  const load = (text: string) =>
    loadManifests([{ path: 'a.yaml', text }]).findings.map((f) => [f.code, f.pointer, f.message]);

  it('is the string kubectl reads in a Kubernetes object, and said', () => {
    const service = `apiVersion: v1
kind: Service
metadata: { name: db, namespace: default }
spec:
  externalIPs: [203.0.113.7, 2001:db8::]
  ports: [{ port: 80 }]
`;
    expect(load(service)).toEqual([
      [
        'yaml-warning',
        '/spec/externalIPs/1',
        '"2001:db8::" ends in ":" inside a flow list: kubectl (go-yaml) reads the string "2001:db8::", YAML 1.2 a key with no value; quote it',
      ],
    ]);
    const [resource] = loadManifests([{ path: 'a.yaml', text: service }]).resources;
    expect(JSON.stringify(resource)).toContain('"externalIPs":["203.0.113.7","2001:db8::"]');
  });

  it('stays a mapping where go-yaml makes one too: a key and a value, or braces', () => {
    const pod = `apiVersion: v1
kind: Pod
metadata: { name: p, namespace: default }
spec:
  containers: [{ name: c, image: nginx, args: [a:, "b", { k: v }] }]
`;
    const findings = load(pod);
    expect(findings).toContainEqual([
      'yaml-warning',
      '/spec/containers/0/args/0',
      '"a:" ends in ":" inside a flow list: kubectl (go-yaml) reads the string "a:", YAML 1.2 a key with no value; quote it',
    ]);
    expect(findings).toContainEqual([
      'schema-violation',
      '/spec/containers/0/args/2',
      'must be string',
    ]);
  });
});
