import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

const VAP = (apiVersion: string) => `apiVersion: ${apiVersion}
kind: ValidatingAdmissionPolicy
metadata: {name: replicas}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}]
  validations: [{expression: "object.spec.replicas <= 5"}]
`;
const load = (text: string, kubernetesVersion: '1.29' | '1.30') =>
  loadManifests([{ path: 'vap.yaml', text }], { kubernetesVersion }).findings.map((f) => [
    f.code,
    f.severity,
    f.line,
    f.col,
    f.message,
  ]);

describe('API versions a default API server does not serve (alpha, and betas off by default)', () => {
  it('warns of a beta version that is off by default, at the apiVersion', () => {
    expect(load(VAP('admissionregistration.k8s.io/v1beta1'), '1.29')).toEqual([
      [
        'api-warning',
        'warning',
        1,
        13,
        'admissionregistration.k8s.io/v1beta1 is a beta API that is off by default: an API server serves it only when started with --runtime-config=admissionregistration.k8s.io/v1beta1=true, else it refuses the object (no matches for kind ValidatingAdmissionPolicy in version admissionregistration.k8s.io/v1beta1)',
      ],
    ]);
  });

  it('warns of an alpha version', () => {
    expect(load(VAP('admissionregistration.k8s.io/v1alpha1'), '1.30').map((f) => f[4])).toEqual([
      'admissionregistration.k8s.io/v1alpha1 is an alpha API: an API server serves it only when started with --runtime-config=admissionregistration.k8s.io/v1alpha1=true, else it refuses the object (no matches for kind ValidatingAdmissionPolicy in version admissionregistration.k8s.io/v1alpha1)',
    ]);
  });

  it('says nothing of a GA version', () => {
    expect(load(VAP('admissionregistration.k8s.io/v1'), '1.30')).toEqual([]);
  });
});
