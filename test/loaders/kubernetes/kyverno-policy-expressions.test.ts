/**
 * Kyverno's CEL policies (`ValidatingPolicy` and the other kinds of `policies.kyverno.io`) and the
 * CEL of its older `ClusterPolicy` rules: their expressions are parsed, as Kyverno compiles them
 * when the policy is written, so one that does not parse is reported at its line. Only parsed:
 * the variables and libraries Kyverno declares differ by kind and release. kyverno/policies'
 * 712 expressions all parse.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { openSpecCrd } from '../../support/open-crd.js';

/** The kinds of Kyverno's CRDs, their specs taken as they come (Kyverno's own CRDs are large). */
const CRDS = [
  openSpecCrd('policies.kyverno.io', 'ValidatingPolicy', 'validatingpolicies'),
  openSpecCrd('policies.kyverno.io', 'MutatingPolicy', 'mutatingpolicies'),
  openSpecCrd('policies.kyverno.io', 'ImageValidatingPolicy', 'imagevalidatingpolicies'),
  openSpecCrd('kyverno.io', 'ClusterPolicy', 'clusterpolicies'),
].join('---\n');

// kyverno/policies' other-vpol/limit-hostpath-vols (optional syntax, macros).
const POLICY = readFileSync(
  new URL(
    '../../../fixtures/real-crds/kyverno/other-vpol/limit-hostpath-vols/limit-hostpath-vols.yaml',
    import.meta.url,
  ),
  'utf8',
);

const load = (text: string) =>
  loadManifests([
    { path: 'crds.yaml', text: CRDS },
    { path: 'policy.yaml', text },
  ]).findings.filter((f) => f.file === 'policy.yaml');

describe("Kyverno's CEL policies", () => {
  it("take what Kyverno's own policies write", () => {
    expect(load(POLICY)).toEqual([]);
  });

  it('refuse an expression that does not parse, at its line, in any of its fields', () => {
    const broken = POLICY.replace(
      'volume.hostPath.path.split',
      'volume.hostPath.path.split(',
    ).replace('orValue([])', 'orValue([)');
    expect(load(broken).map((f) => [f.code, f.line, f.pointer])).toEqual([
      ['schema-violation', 34, '/spec/matchConditions/0/expression'],
      ['schema-violation', 36, '/spec/validations/0/expression'],
    ]);
    expect(load(broken)[1]?.message).toContain('compilation failed: <input>:1:');
  });

  it("refuse the same in an older ClusterPolicy's CEL rule, and leave its JMESPath alone", () => {
    const policy = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: { name: disallow-latest }
spec:
  rules:
    - name: check-image
      match: { any: [{ resources: { kinds: [Pod] } }] }
      preconditions:
        all:
          - key: "{{ request.operation || 'BACKGROUND' }}"
            operator: NotEquals
            value: DELETE
      validate:
        cel:
          expressions:
            - expression: "object.spec.containers.all(c, !c.image.endsWith(':latest')"
              message: an image tagged latest is not allowed
`;
    expect(
      load(policy.replace('kyverno.io/v1', 'kyverno.io/v1alpha1')).map((f) => [f.line, f.pointer]),
    ).toEqual([[16, '/spec/rules/0/validate/cel/expressions/0/expression']]);
  });
});

describe("Kyverno's CEL policies, as Kyverno checks them when written", () => {
  it('refuse a policy that matches no resource rule', () => {
    // validating-policies/validation-checks/missing-match-constraints: Kyverno's words, exactly.
    const unmatched = POLICY.replace(/ {2}matchConstraints:[\s\S]*?(?=\n {2}[a-z])/, '');
    expect(unmatched).not.toContain('matchConstraints');
    expect(load(unmatched).map((f) => [f.pointer, f.message])).toEqual([
      [
        '/spec/matchConstraints',
        "Required value: a matchConstraints with at least one resource rule is required (Kyverno's admission webhook refuses a policy that would see no request; `kyverno apply` evaluates one anyway, on the payloads given it)",
      ],
    ]);
    // An ImageValidatingPolicy too (Kyverno's image verification evaluator).
    const images = `apiVersion: policies.kyverno.io/v1alpha1
kind: ImageValidatingPolicy
metadata: { name: verify }
spec:
  matchImageReferences: [{ glob: 'ghcr.io/*' }]
  attestors: [{ name: notary, notary: { certs: { value: c } } }]
  validations: [{ expression: 'images.containers.map(image, verifyImageSignatures(image, [attestors.notary])).all(e, e > 0)' }]
`;
    expect(load(images).map((f) => f.pointer)).toEqual(['/spec/matchConstraints']);
  });

  it('refuse a mutating policy evaluated neither on admission nor on existing resources', () => {
    // mutating-policies/existing/reject-all-modes-disabled.
    const mutating = (mutateExisting: boolean) => `apiVersion: policies.kyverno.io/v1alpha1
kind: MutatingPolicy
metadata: { name: test-mpol-all-modes-disabled }
spec:
  evaluation:
    admission: { enabled: false }
    mutateExisting: { enabled: ${mutateExisting} }
  matchConstraints:
    resourceRules: [{ apiGroups: [''], apiVersions: [v1], operations: [CREATE], resources: [configmaps] }]
  mutations:
    - patchType: ApplyConfiguration
      applyConfiguration: { expression: 'Object{metadata: Object.metadata{labels: {"foo": "bar"}}}' }
`;
    expect(load(mutating(false)).map((f) => [f.line, f.pointer, f.message])).toEqual([
      [
        5,
        '/spec/evaluation',
        'Forbidden: disabling both admission and mutateExisting evaluation modes is not allowed',
      ],
    ]);
    expect(load(mutating(true))).toEqual([]);
  });
});
