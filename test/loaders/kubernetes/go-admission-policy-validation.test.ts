import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * What the API server refuses of ValidatingAdmissionPolicies and their bindings, and of the match
 * conditions of webhooks and policies (k8s.io/kubernetes `pkg/apis/admissionregistration/validation`
 * `validateValidatingAdmissionPolicySpec`, `validateValidatingAdmissionPolicyBindingSpec`,
 * `validateMatchCondition`), that their OpenAPI passes.
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string) => loadManifests([{ path: 'policies.yaml', text }]).findings;
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

const RULES = `  matchConstraints:
    resourceRules:
    - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}
`;

describe('a ValidatingAdmissionPolicy (validateValidatingAdmissionPolicySpec)', () => {
  it('takes the policy and binding of the Kubernetes docs, with params', () => {
    expect(
      load(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: demo-policy.example.com}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: rules.example.com/v1, kind: ReplicaLimit}
${RULES}  matchConditions:
  - {name: exclude-leases, expression: "!(request.resource.group == 'coordination.k8s.io')"}
  variables:
  - {name: replicas, expression: "object.spec.replicas"}
  validations:
  - expression: "variables.replicas <= params.maxReplicas"
    messageExpression: "'too many replicas: ' + string(variables.replicas)"
    reason: Invalid
  auditAnnotations:
  - {key: high-replica-count, valueExpression: "'Deployment spec.replicas set to ' + string(object.spec.replicas)"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: demo-binding}
spec:
  policyName: demo-policy.example.com
  validationActions: [Deny, Audit]
  paramRef: {name: demo-params, namespace: default, parameterNotFoundAction: Deny}
  matchResources:
    namespaceSelector: {matchLabels: {environment: test}}
`),
    ).toEqual([]);
  });

  it('refuses a bad param kind, variable name, reason, blank expression, multi-line message and audit key', () => {
    expect(
      load(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: replicas-limit}
spec:
  paramKind: {apiVersion: "v1/x/y", kind: Replica_Limit}
${RULES}  variables:
  - {name: "1replicas", expression: "object.spec.replicas"}
  - {name: "in", expression: " "}
  validations:
  - {expression: "object.spec.replicas <= 5", reason: Bogus}
  - {expression: "  "}
  - {expression: "true", message: "line one\\nline two", messageExpression: " "}
  auditAnnotations:
  - {key: "bad key!", valueExpression: "'x'"}
  - {key: "bad key!", valueExpression: ""}
`).map(at),
    ).toEqual([
      [
        '/spec/paramKind/apiVersion',
        'Invalid value: "v1/x/y": unexpected GroupVersion string: v1/x/y',
      ],
      [
        '/spec/paramKind/kind',
        "Invalid value: \"Replica_Limit\": may have mixed case, but should otherwise match: a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
      ],
      ['/spec/variables/0/name', 'Invalid value: "1replicas": name is not a valid CEL identifier'],
      ['/spec/variables/1/name', 'Invalid value: "in": name is not a valid CEL identifier'],
      ['/spec/variables/1/expression', 'Required value: expression is not specified'],
      [
        '/spec/validations/0/reason',
        'Unsupported value: "Bogus": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge"',
      ],
      ['/spec/validations/1/expression', 'Required value: expression is not specified'],
      [
        '/spec/validations/2/message',
        'Invalid value: "line one\\nline two": message must not contain line breaks',
      ],
      [
        '/spec/validations/2/messageExpression',
        'Invalid value: " ": must be non-empty if specified',
      ],
      ['/spec/auditAnnotations/0/key', `Invalid value: "replicas-limit/bad key!": ${NAME_PART}`],
      ['/spec/auditAnnotations/1/key', `Invalid value: "replicas-limit/bad key!": ${NAME_PART}`],
      ['/spec/auditAnnotations/1/key', 'Duplicate value: "bad key!"'],
      [
        '/spec/auditAnnotations/1/valueExpression',
        'Required value: valueExpression is not specified',
      ],
    ]);
  });

  it('needs match constraints with resource rules, and something to validate or audit', () => {
    expect(
      load(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: a}
spec:
  validations: [{expression: "true"}]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: b}
spec:
  matchConstraints: {namespaceSelector: {matchExpressions: [{key: env, operator: In}]}}
`).map(at),
    ).toEqual([
      ['/spec/matchConstraints', 'Required value'],
      [
        '/spec/validations',
        'Required value: validations or auditAnnotations must contain at least one item',
      ],
      [
        '/spec/auditAnnotations',
        'Required value: validations or auditAnnotations must contain at least one item',
      ],
      ['/spec/matchConstraints/resourceRules', 'Required value'],
      [
        '/spec/matchConstraints/namespaceSelector/matchExpressions/0/values',
        "Required value: must be specified when `operator` is 'In' or 'NotIn'",
      ],
    ]);
  });
});

describe('a ValidatingAdmissionPolicyBinding (validateValidatingAdmissionPolicyBindingSpec)', () => {
  let n = 0;
  const binding = (spec: string) =>
    `---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: b${++n}}\nspec:\n${spec}`;

  it('refuses no policy or action, Deny with Warn, a name beside a selector, no parameterNotFoundAction', () => {
    expect(
      load(
        binding('  policyName: ""\n  validationActions: []\n') +
          binding(
            '  policyName: p\n  validationActions: [Deny, Warn]\n  paramRef: {name: limits, selector: {}}\n',
          ) +
          binding(
            '  policyName: p\n  validationActions: [Deny]\n  paramRef: {parameterNotFoundAction: Skip}\n',
          ),
      ).map(at),
    ).toEqual([
      ['/spec/policyName', 'Required value'],
      ['/spec/validationActions', 'Required value: at least one validation action is required'],
      [
        '/spec/validationActions',
        'Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
      ],
      ['/spec/paramRef/parameterNotFoundAction', 'Required value'],
      ['/spec/paramRef/name', 'Forbidden: name and selector are mutually exclusive'],
      ['/spec/paramRef/selector', 'Forbidden: name and selector are mutually exclusive'],
      ['/spec/paramRef', 'Required value: one of name or selector must be specified'],
      [
        '/spec/paramRef/parameterNotFoundAction',
        'Unsupported value: "Skip": supported values: "Deny", "Allow"',
      ],
    ]);
  });

  it('says what a binding that leaves out its actions lacks', () => {
    expect(load(binding('  policyName: p\n')).map(at)).toEqual([
      ['/spec/validationActions', 'Required value: at least one validation action is required'],
    ]);
  });
});

describe('match conditions (validateMatchCondition)', () => {
  it("refuses a name that is no qualified name, is empty or is repeated, in a webhook's and a policy's", () => {
    expect(
      load(`apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: vwc}
webhooks:
- name: v.example.com
  admissionReviewVersions: [v1]
  sideEffects: None
  clientConfig: {url: "https://example.com/v"}
  matchConditions:
  - {name: "exclude leases", expression: "true"}
  - {name: "", expression: "true"}
  - {name: blank, expression: "   "}
  - {name: blank, expression: "true"}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: vap}
spec:
${RULES}  matchConditions:
  - {name: "not kube-system!", expression: "true"}
  validations: [{expression: "true"}]
---
apiVersion: admissionregistration.k8s.io/v1beta1
kind: MutatingAdmissionPolicy
metadata: {name: map}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [pods]}
  matchConditions:
  - {name: once, expression: "true"}
  - {name: once, expression: "true"}
  mutations:
  - patchType: ApplyConfiguration
    applyConfiguration: {expression: "Object{}"}
  reinvocationPolicy: Never
`)
        .filter((f) => f.code !== 'api-warning')
        .map(at),
    ).toEqual([
      ['/webhooks/0/matchConditions/0/name', `Invalid value: "exclude leases": ${NAME_PART}`],
      ['/webhooks/0/matchConditions/1/name', 'Required value'],
      ['/webhooks/0/matchConditions/2/expression', 'Required value'],
      ['/webhooks/0/matchConditions/3/name', 'Duplicate value: "blank"'],
      ['/spec/matchConditions/0/name', `Invalid value: "not kube-system!": ${NAME_PART}`],
      ['/spec/matchConditions/1/name', 'Duplicate value: "once"'],
    ]);
  });
});
