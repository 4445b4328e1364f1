import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const crd = (descriptionLength: number) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: things.example.com}
spec:
  group: example.com
  names: {kind: Thing, plural: things}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: "${'a'.repeat(descriptionLength)}"
        x-kubernetes-preserve-unknown-fields: true
`;
const load = (text: string) =>
  loadManifests([{ path: 'crd.yaml', text }]).findings.map((f) => [
    f.code,
    f.severity,
    f.line,
    f.col,
    f.message.replace(/\d{6} bytes as JSON/, 'N bytes as JSON'),
  ]);

describe('a CRD too large for client-side kubectl apply (its last-applied annotation over 256 KiB)', () => {
  it('warns that client-side apply cannot take it, and server-side apply can', () => {
    expect(load(crd(270_000))).toEqual([
      [
        'large-definition',
        'warning',
        2,
        7,
        'this CustomResourceDefinition is N bytes as JSON: too large for client-side kubectl apply, whose kubectl.kubernetes.io/last-applied-configuration annotation would hold all of it, over the API server\'s 262144 bytes of annotations ("metadata.annotations: Too long: must have at most 262144 bytes"); apply it with kubectl apply --server-side, or kubectl create',
      ],
    ]);
  });

  it('says nothing of a CRD whose annotation fits', () => {
    expect(load(crd(200_000))).toEqual([]);
  });
});
