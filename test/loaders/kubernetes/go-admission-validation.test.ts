import { describe, expect, it } from 'vitest';
import type { Finding } from '../../../src/loaders/finding.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';

/**
 * What the API server refuses of webhook configurations (k8s.io/kubernetes
 * `pkg/apis/admissionregistration/validation` `ValidateValidatingWebhookConfiguration` and
 * `ValidateMutatingWebhookConfiguration`) that their OpenAPI passes.
 */

const at = (f: Finding) => [f.pointer, f.message];
const load = (text: string) => loadManifests([{ path: 'webhooks.yaml', text }]).findings;

let n = 0;
const configuration = (kind: string, webhooks: string) =>
  `---\napiVersion: admissionregistration.k8s.io/v1\nkind: ${kind}\nmetadata: { name: hooks${++n} }\nwebhooks:\n${webhooks}`;

describe('a webhook configuration (ValidateValidatingWebhookConfiguration)', () => {
  it('takes what cert-manager and kyverno install: a service with a path, a URL, selectors', () => {
    expect(
      load(
        configuration(
          'ValidatingWebhookConfiguration',
          `  - name: webhook.cert-manager.io
    rules:
      - apiGroups: [cert-manager.io, acme.cert-manager.io]
        apiVersions: [v1]
        operations: [CREATE, UPDATE]
        resources: ["*/*"]
    admissionReviewVersions: [v1]
    matchPolicy: Equivalent
    timeoutSeconds: 30
    failurePolicy: Fail
    sideEffects: None
    namespaceSelector:
      matchExpressions: [{ key: cert-manager.io/disable-validation, operator: NotIn, values: ["true"] }]
    clientConfig:
      service: { name: cert-manager-webhook, namespace: cert-manager, path: /validate }
`,
        ) +
          configuration(
            'MutatingWebhookConfiguration',
            `  - name: mutate.policy.example.com
    rules:
      - { apiGroups: ["*"], apiVersions: ["*"], operations: ["*"], resources: ["*", "pods/status"] }
    admissionReviewVersions: [v1beta1, v1]
    sideEffects: NoneOnDryRun
    reinvocationPolicy: IfNeeded
    clientConfig: { url: "https://policy.example.com:8443/mutate" }
`,
          ),
      ),
    ).toEqual([]);
  });

  it('refuses a short or repeated name, side effects, a timeout, review versions and rules', () => {
    expect(
      load(
        configuration(
          'ValidatingWebhookConfiguration',
          `  - name: validate
    sideEffects: Some
    timeoutSeconds: 31
    admissionReviewVersions: [v1, v1, V2]
    clientConfig: { service: { name: hooks, namespace: default, port: 0 } }
    rules:
      - { apiGroups: [apps, "*"], apiVersions: [v1, ""], operations: [], resources: ["*", deployments, "deployments/*", "deployments/scale"] }
  - name: validate.example.com
    sideEffects: None
    admissionReviewVersions: [v1]
    clientConfig: { url: "https://hooks.example.com/validate" }
  - name: validate.example.com
    sideEffects: None
    admissionReviewVersions: [v1]
    clientConfig: { url: "https://hooks.example.com/validate" }
`,
        ),
      ).map(at),
    ).toEqual([
      [
        '/webhooks/0/name',
        'Invalid value: "validate": should be a domain with at least three segments separated by dots',
      ],
      [
        '/webhooks/0/sideEffects',
        'Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      ],
      [
        '/webhooks/0/timeoutSeconds',
        'Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      ],
      ['/webhooks/0/admissionReviewVersions/1', 'Invalid value: "v1": duplicate version'],
      [
        '/webhooks/0/admissionReviewVersions/2',
        `Invalid value: "V2": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
      ],
      [
        '/webhooks/0/clientConfig/service/port',
        'Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive',
      ],
      [
        '/webhooks/0/rules/0/apiGroups',
        `Invalid value: []string{"apps", "*"}: if '*' is present, must not specify other API groups`,
      ],
      ['/webhooks/0/rules/0/apiVersions/1', 'Required value'],
      ['/webhooks/0/rules/0/operations', 'Required value'],
      [
        '/webhooks/0/rules/0/resources',
        `Invalid value: []string{"*", "deployments", "deployments/*", "deployments/scale"}: if '*' is present, must not specify other resources without subresources`,
      ],
      [
        '/webhooks/0/rules/0/resources/3',
        `Invalid value: "deployments/scale": if 'deployments/*' is present, must not specify deployments/scale`,
      ],
      // Go's own duplicate check (`ValidateValidatingWebhookConfiguration`), at the name.
      ['/webhooks/2/name', 'Duplicate value: "validate.example.com"'],
    ]);
  });

  it('needs a client config of one kind: an https URL with a host, or a service with a clean path', () => {
    expect(
      load(
        configuration(
          'MutatingWebhookConfiguration',
          [
            '',
            'url: "https://a.example.com", service: { name: s, namespace: ns }',
            'url: "http://user@hooks.example.com/m?x=1#top"',
            'url: hooks.example.com/mutate',
            'service: { name: s, namespace: ns, path: "mutate//Pods" }',
          ]
            .map(
              (config, i) => `  - name: m${i}.example.com
    sideEffects: None
    admissionReviewVersions: [v1]
    clientConfig: { ${config} }
`,
            )
            .join(''),
        ),
      ).map(at),
    ).toEqual([
      ['/webhooks/0/clientConfig', 'Required value: exactly one of url or service is required'],
      ['/webhooks/1/clientConfig', 'Required value: exactly one of url or service is required'],
      [
        '/webhooks/2/clientConfig/url',
        `Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      ],
      [
        '/webhooks/2/clientConfig/url',
        'Invalid value: "user": user information is not permitted in the URL',
      ],
      [
        '/webhooks/2/clientConfig/url',
        'Invalid value: "top": fragments are not permitted in the URL',
      ],
      [
        '/webhooks/2/clientConfig/url',
        'Invalid value: "x=1": query parameters are not permitted in the URL',
      ],
      [
        '/webhooks/3/clientConfig/url',
        `Invalid value: "": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
      ],
      [
        '/webhooks/3/clientConfig/url',
        'Invalid value: "": host must be specified; desired format: https://host[/path]',
      ],
      [
        '/webhooks/4/clientConfig/service/path',
        `Invalid value: "mutate//Pods": must start with a '/'`,
      ],
      [
        '/webhooks/4/clientConfig/service/path',
        'Invalid value: "mutate//Pods": segment[1] may not be empty',
      ],
      [
        '/webhooks/4/clientConfig/service/path',
        `Invalid value: "mutate//Pods": segment[2]: a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ]);
  });
});

describe('admission expressions, compiled by the API server when the object is written', () => {
  const policy = (spec: string) =>
    `---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: { name: policy${++n} }\nspec:\n${spec}`;

  it('takes the expressions of the Kubernetes docs, optional syntax and macros included', () => {
    expect(
      load(
        policy(`  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments] }
  variables:
    - { name: replicas, expression: "object.spec.?replicas.orValue(1)" }
  validations:
    - expression: "variables.replicas <= 5 && object.spec.template.spec.containers.all(c, c.image.startsWith('registry.example.com/'))"
      messageExpression: "'replicas: ' + string(variables.replicas)"
  auditAnnotations:
    - { key: high-replica-count, valueExpression: "'Deployment spec.replicas set to ' + string(object.spec.replicas)" }
`),
      ),
    ).toEqual([]);
  });

  it('takes the variables each field declares: authorizer, namespaceObject, params with a paramKind', () => {
    expect(
      load(
        policy(`  failurePolicy: Fail
  paramKind: { apiVersion: v1, kind: ConfigMap }
  matchConstraints:
    resourceRules:
      - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments] }
  matchConditions:
    - { name: not-leases, expression: "!(request.resource.group == 'coordination.k8s.io') && params != null" }
  variables:
    - { name: env, expression: "namespaceObject.metadata.?labels.env.orValue('dev')" }
  validations:
    - expression: "authorizer.group('apps').resource('deployments').check('scale').allowed() || object.spec.replicas <= int(params.data.max)"
      messageExpression: "'too many replicas in ' + variables.env + ' for ' + request.userInfo.username"
    - expression: "object.spec.template.spec.containers.all(i, c, c.name != '' && i >= 0) && oldObject == null"
  auditAnnotations:
    - { key: env, valueExpression: "variables.env" }
`),
      ),
    ).toEqual([]);
  });

  it('refuses a variable its field does not declare, as cel-go words it', () => {
    const findings = load(
      policy(`  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments] }
  matchConditions:
    - { name: uses-variables, expression: "variables.x" }
  validations:
    - expression: "objec.spec.replicas <= 5"
      messageExpression: "authorizer.group('').resource('pods').check('get').reason()"
    - expression: "params.max > object.spec.replicas"
`) +
        configuration(
          'ValidatingWebhookConfiguration',
          `  - name: check.example.com
    sideEffects: None
    admissionReviewVersions: [v1]
    clientConfig: { url: "https://hooks.example.com/check" }
    matchConditions:
      - { name: uses-params, expression: "params.enabled" }
`,
        ),
    );
    // No paramKind: no params; no variables, and never in match conditions; no authorizer in a
    // message expression (pkg/apis/admissionregistration/validation).
    expect(findings.map((f) => [f.pointer, f.message])).toEqual([
      [
        '/spec/matchConditions/0/expression',
        `Invalid value: "variables.x": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')`,
      ],
      [
        '/spec/validations/0/expression',
        `Invalid value: "objec.spec.replicas <= 5": compilation failed: ERROR: <input>:1:1: undeclared reference to 'objec' (in container '')`,
      ],
      [
        '/spec/validations/0/messageExpression',
        `Invalid value: "authorizer.group('').resource('pods').check('get').reason()": compilation failed: ERROR: <input>:1:1: undeclared reference to 'authorizer' (in container '')`,
      ],
      [
        '/spec/validations/1/expression',
        `Invalid value: "params.max > object.spec.replicas": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')`,
      ],
      [
        '/webhooks/0/matchConditions/0/expression',
        `Invalid value: "params.enabled": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')`,
      ],
    ]);
  });

  it('refuses a validation, message or audit value that is only a field of an untyped variable (kubernetes#120239)', () => {
    const findings = load(
      policy(`  failurePolicy: Fail
  paramKind: { apiVersion: v1, kind: ConfigMap }
  matchConstraints:
    resourceRules:
      - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments] }
  matchConditions:
    - { name: enabled, expression: "params.data['enabled']" }
  validations:
    - expression: "object.spec.paused"
      messageExpression: "object.metadata.name"
    - expression: "object.spec.paused == true && has(object.spec.replicas)"
      messageExpression: "'paused: ' + object.metadata.name"
  auditAnnotations:
    - { key: owner, valueExpression: "object.metadata.labels['owner']" }
    - { key: name, valueExpression: "'name: ' + object.metadata.name" }
`),
    );
    // Their type is dyn, which the API server's compiler never takes for a bool or a string.
    expect(findings.map((f) => [f.pointer, f.message])).toEqual([
      [
        '/spec/matchConditions/0/expression',
        `Invalid value: "params.data['enabled']": must evaluate to bool`,
      ],
      [
        '/spec/validations/0/expression',
        'Invalid value: "object.spec.paused": must evaluate to bool',
      ],
      [
        '/spec/validations/0/messageExpression',
        'Invalid value: "object.metadata.name": must evaluate to string',
      ],
      [
        '/spec/auditAnnotations/0/valueExpression',
        `Invalid value: "object.metadata.labels['owner']": must evaluate to one of [string null_type]`,
      ],
    ]);
  });

  it("refuses the global exists() of capsule's documented policy (projectcapsule/capsule#1829)", () => {
    // Its policy, with the test of the tolerations written in two ways.
    const capsule = (exists: string) =>
      load(
        policy(`  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - { apiGroups: [""], apiVersions: [v1], resources: [pods], operations: [CREATE, UPDATE], scope: Namespaced }
  validations:
    - expression: >
        !has(object.spec.tolerations) ||
        !${exists}
          t.key in ['node-role.kubernetes.io/master','node-role.kubernetes.io/control-plane']
        )
      message: "Pods may not tolerate control-plane taints"
`),
      );
    // exists is a macro of a list only: as a function its variable is a name nothing declares.
    expect(
      capsule('exists(object.spec.tolerations, t,').map((f) => [
        f.pointer,
        f.message.replace(/^.*compilation failed: /, ''),
      ]),
    ).toEqual([
      [
        '/spec/validations/0/expression',
        "ERROR: <input>:1:67: undeclared reference to 't' (in container '')",
      ],
    ]);
    // The fix its maintainers took passes.
    expect(capsule('object.spec.tolerations.exists(t,')).toEqual([]);
  });

  it("refuses an expression that does not parse, at its field, in a policy or a webhook's match conditions", () => {
    const findings = load(
      policy(`  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - { apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments] }
  validations:
    - expression: "object.spec.replicas <="
    - expression: "true"
      messageExpression: "'unclosed"
`) +
        configuration(
          'ValidatingWebhookConfiguration',
          `  - name: check.example.com
    sideEffects: None
    admissionReviewVersions: [v1]
    clientConfig: { url: "https://hooks.example.com/check" }
    matchConditions:
      - { name: not-system, expression: "!(request.userInfo.username in ['system:admin']" }
`,
        ),
    );
    // The positions and wording are those of the CEL parser cosi uses; cel-go words them its way.
    expect(findings.map((f) => [f.pointer, f.message])).toEqual([
      [
        '/spec/validations/0/expression',
        'Invalid value: "object.spec.replicas <=": compilation failed: <input>:1:22: found < but expecting end of input',
      ],
      [
        '/spec/validations/1/messageExpression',
        expect.stringMatching(
          /^Invalid value: "'unclosed": compilation failed: <input>:1:1: found ' but expecting /,
        ),
      ],
      [
        '/webhooks/0/matchConditions/0/expression',
        `Invalid value: "!(request.userInfo.username in ['system:admin']": compilation failed: <input>:1:48: found end of input but expecting ')'`,
      ],
    ]);
  });
});
