/**
 * A Kyverno policy's spec as Kyverno checks it when it is written, beyond its CRD's schema: the
 * cases of Kyverno's own conformance suite (`test/conformance/chainsaw/policy-validation`, and
 * its mutate-existing and generate validations), each a policy it expects refused.
 */
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { openSpecCrd } from '../../support/open-crd.js';

const CRDS = [
  openSpecCrd('kyverno.io', 'ClusterPolicy', 'clusterpolicies', 'Cluster', 'v1'),
  openSpecCrd('kyverno.io', 'Policy', 'policies', 'Namespaced', 'v1'),
].join('---\n');

const load = (text: string) =>
  loadManifests([
    { path: 'crds.yaml', text: CRDS },
    { path: 'policy.yaml', text },
  ])
    .findings.filter((f) => f.file === 'policy.yaml')
    .map((f) => [f.line, f.pointer, f.message]);

/** A policy of one validating rule, with `spec` lines added before its rules. */
const policy = (spec = '', kind = 'ClusterPolicy', rules = VALIDATE) => `apiVersion: kyverno.io/v1
kind: ${kind}
metadata: { name: deny${kind === 'Policy' ? ', namespace: apps' : ''} }
spec:
${spec}  rules:
${rules}`;

const VALIDATE = `    - name: deny
      match: { any: [{ resources: { kinds: [Pod] } }] }
      validate: { failureAction: Audit, deny: {} }
`;

const MUTATE = `    - name: label
      match: { any: [{ resources: { kinds: [Secret] } }] }
      mutate:
        mutateExistingOnPolicyUpdate: true
        patchStrategicMerge: { metadata: { labels: { a: b } } }
`;

describe("a Kyverno policy's spec", () => {
  it('takes a policy with none of these faults', () => {
    expect(load(policy())).toEqual([]);
    expect(load(policy('  admission: false\n'))).toEqual([]);
    expect(load(policy('  webhookConfiguration: { timeoutSeconds: 30 }\n'))).toEqual([]);
  });

  it('refuses a webhook timeout out of 1 to 30 seconds, in either field', () => {
    expect(load(policy('  webhookConfiguration: { timeoutSeconds: 31 }\n'))).toEqual([
      [
        5,
        '/spec/webhookConfiguration/timeoutSeconds',
        'Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      ],
    ]);
    expect(load(policy('  webhookTimeoutSeconds: -1\n')).map(([, pointer]) => pointer)).toEqual([
      '/spec/webhookTimeoutSeconds',
    ]);
    // Both set: the deprecated one must go.
    expect(
      load(policy('  webhookTimeoutSeconds: 5\n  webhookConfiguration: { timeoutSeconds: 5 }\n')),
    ).toEqual([
      [
        5,
        '/spec/webhookTimeoutSeconds',
        'Forbidden: remove the deprecated field and use spec.webhookConfiguration.timeoutSeconds instead',
      ],
    ]);
  });

  it('refuses two rules of one name, and a mutation of existing resources without targets', () => {
    expect(load(policy('', 'ClusterPolicy', VALIDATE + VALIDATE))).toEqual([
      [9, '/spec/rules/1/name', `Invalid value: "deny": Duplicate rule name: 'deny'`],
    ]);
    expect(load(policy('', 'ClusterPolicy', MUTATE))).toEqual([
      [
        9,
        '/spec/rules/0/mutate/mutateExistingOnPolicyUpdate',
        'Forbidden: rules[0].mutate.targets has to be specified when mutateExistingOnPolicyUpdate is set',
      ],
    ]);
    const withTargets = MUTATE.replace(
      '        patchStrategicMerge',
      '        targets: [{ apiVersion: v1, kind: Secret, name: s, namespace: apps }]\n        patchStrategicMerge',
    );
    expect(load(policy('', 'ClusterPolicy', withTargets))).toEqual([]);
  });

  it('refuses a policy applied neither on admission nor in the background, or in the background only and mutating', () => {
    expect(load(policy('  admission: false\n  background: false\n'))).toEqual([
      [5, '/spec/admission', 'disabling both admission and background processing is not allowed'],
    ]);
    expect(load(policy('  admission: false\n', 'ClusterPolicy', MUTATE + VALIDATE))).toContainEqual(
      [
        5,
        '/spec/admission',
        'disabling admission processing is only allowed with validation policies (rules[0] does not only validate)',
      ],
    );
  });

  it("refuses a namespaced Policy's failure action overrides, and the deprecated generate-existing field", () => {
    const overrides =
      '  validationFailureActionOverrides: [{ action: Enforce, namespaces: [apps] }]\n';
    expect(load(policy(overrides))).toEqual([]);
    expect(load(policy(overrides, 'Policy'))).toEqual([
      [
        5,
        '/spec/validationFailureActionOverrides',
        'Forbidden: Use of validationFailureActionOverrides is supported only with ClusterPolicy',
      ],
    ]);
    expect(load(policy('  generateExistingOnPolicyUpdate: false\n')).map(([, p]) => p)).toEqual([
      '/spec/generateExistingOnPolicyUpdate',
    ]);
  });
});

describe("a Kyverno ClusterPolicy's failure action overrides", () => {
  const overrides = (...items: string[]) =>
    policy(
      `  validationFailureActionOverrides:\n${items.map((item) => `    - ${item}\n`).join('')}`,
    );

  it('take namespaces audited apart from those enforced', () => {
    expect(
      load(
        overrides(
          '{ action: Audit, namespaces: [dev, test-*] }',
          '{ action: Enforce, namespaces: [prod] }',
        ),
      ),
    ).toEqual([]);
  });

  it('refuse a namespace both audited and enforced, by name or by a pattern', () => {
    expect(
      load(
        overrides(
          '{ action: Enforce, namespaces: [prod, dev] }',
          '{ action: Audit, namespaces: [dev] }',
        ),
      ),
    ).toEqual([
      [
        7,
        '/spec/validationFailureActionOverrides/1/namespaces',
        'conflicting namespaces found in path: spec.validationFailureActionOverrides[1].namespaces: dev',
      ],
    ]);
    expect(
      load(
        overrides(
          '{ action: Enforce, namespaces: [prod-eu] }',
          '{ action: audit, namespaces: [prod-*] }',
        ),
      ).map(([, , m]) => m),
    ).toEqual([
      "path: spec.validationFailureActionOverrides[1].namespaces: wildcard pattern 'prod-*' matches with namespace 'prod-eu'",
    ]);
    expect(
      load(
        overrides(
          '{ action: Enforce, namespaces: [prod-*] }',
          '{ action: Audit, namespaces: ["prod-e?"] }',
        ),
      ).map(([, , m]) => m),
    ).toEqual([
      "path: spec.validationFailureActionOverrides[1].namespaces: wildcard pattern 'prod-*' conflicts with the pattern 'prod-e?'",
    ]);
    // A rule's own overrides, likewise.
    const rule = policy(
      '',
      'ClusterPolicy',
      VALIDATE.replace(
        'validate: { failureAction: Audit, deny: {} }',
        'validate: { failureAction: Audit, deny: {}, failureActionOverrides: [{ action: Enforce, namespaces: [a] }, { action: Audit, namespaces: [a] }] }',
      ),
    );
    expect(load(rule).map(([, pointer]) => pointer)).toEqual([
      '/spec/rules/0/validate/failureActionOverrides/1/namespaces',
    ]);
  });
});
