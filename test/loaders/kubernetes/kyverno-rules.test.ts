/**
 * A Kyverno policy's rules, match filters and generate targets, a cleanup policy and a policy
 * exception, as Kyverno checks them when they are written: the cases of Kyverno's own conformance
 * suite (`test/conformance/chainsaw`), each a policy it expects refused, beside the one it takes.
 * Kinds' scopes come from the built-in kinds and the CRDs of the load.
 */
import { describe, expect, it } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { openSpecCrd } from '../../support/open-crd.js';

const CRDS = [
  openSpecCrd('kyverno.io', 'ClusterPolicy', 'clusterpolicies', 'Cluster', 'v1'),
  openSpecCrd('kyverno.io', 'Policy', 'policies', 'Namespaced', 'v1'),
  openSpecCrd('kyverno.io', 'ClusterCleanupPolicy', 'clustercleanuppolicies', 'Cluster', 'v2'),
  openSpecCrd('kyverno.io', 'CleanupPolicy', 'cleanuppolicies', 'Namespaced', 'v2'),
  openSpecCrd('kyverno.io', 'PolicyException', 'policyexceptions', 'Namespaced', 'v2'),
  // Crossplane's AWS Role: cluster-scoped, where RBAC's Role is namespaced.
  openSpecCrd('iam.aws.crossplane.io', 'Role', 'roles', 'Cluster', 'v1beta1'),
].join('---\n');

const load = (text: string) =>
  loadManifests([
    { path: 'crds.yaml', text: CRDS },
    { path: 'policy.yaml', text },
  ])
    .findings.filter((f) => f.file === 'policy.yaml')
    .map((f) => [f.line, f.pointer, f.message]);

const messages = (text: string) => load(text).map(([, , message]) => message);

/** A policy whose one rule is `rule` (indented as a rule's fields). */
const policy = (rule: string, { kind = 'ClusterPolicy', spec = '', namespace = 'default' } = {}) =>
  `apiVersion: kyverno.io/v1
kind: ${kind}
metadata: { name: p${kind === 'Policy' && namespace !== '' ? `, namespace: ${namespace}` : ''} }
spec:
${spec}  rules:
    - name: r
${rule}`;

const VALIDATE = `      validate: { failureAction: Audit, message: m, pattern: { metadata: { labels: { team: '?*' } } } }
`;
const matching = (filter: string) => `      match:
        any:
          - ${filter}
`;

describe("a Kyverno policy's rules", () => {
  it('take a rule that does one thing to the kinds it matches', () => {
    expect(load(policy(matching('resources: { kinds: [Pod] }') + VALIDATE))).toEqual([]);
  });

  it('refuse a rule that does nothing, or two things', () => {
    expect(messages(policy(matching('resources: { kinds: [Pod] }')))).toEqual([
      "No operation defined in the rule 'r'.(supported operations: mutate,validate,generate,verifyImages)",
    ]);
    const both = `${matching('resources: { kinds: [Pod] }')}${VALIDATE}      mutate: { patchStrategicMerge: { metadata: { labels: { a: b } } } }
`;
    expect(load(policy(both))).toEqual([
      [
        10,
        '/spec/rules/0/validate',
        "Multiple operations defined in the rule 'r', only one operation (mutate,validate,generate,verifyImages) is allowed per rule (it has mutate, validate)",
      ],
    ]);
  });

  it("refuse a subject of a kind Kyverno does not know, a role not namespace:name, and a match's filter without kinds", () => {
    // policy-validation/cluster-policy/invalid-subject-kind.
    const subject = matching(
      'resources: { kinds: [ConfigMap] }\n            subjects: [{ name: foo, kind: Foo }]',
    );
    expect(load(policy(subject + VALIDATE, { spec: '  background: false\n' }))).toEqual([
      [
        11,
        '/spec/rules/0/match/any/0/subjects/0/kind',
        `Invalid value: "Foo": kind must be 'User', 'Group', or 'ServiceAccount'`,
      ],
    ]);
    const role = matching('resources: { kinds: [Pod] }\n            roles: [foo-role]');
    expect(messages(policy(role + VALIDATE, { spec: '  background: false\n' }))).toEqual([
      'Invalid value: "foo-role": Role is expected to be in namespace:name format',
    ]);
    // Kyverno's words differ by what the rule reads: metadata only, or more.
    const kindless = policy(matching('resources: { namespaces: [a] }') + VALIDATE);
    expect(messages(kindless)).toEqual([
      'at least one element must be specified in a kind block, the kind attribute is mandatory when working with the resources element',
    ]);
    expect(messages(kindless.replace('metadata: { labels', 'spec: { labels'))).toEqual([
      'policy can only deal with the metadata field of the resource if the rule does not match any kind',
    ]);
    expect(messages(policy(matching('subjects: [{ kind: User, name: a }]') + VALIDATE))).toContain(
      'match resources not specified',
    );
  });

  it('refuse a rule matching every kind in the background, or to verify images', () => {
    // validate/clusterpolicy/standard/wildcard/block-verifyimage.
    const verify = `${matching("resources: { kinds: ['*'] }")}      verifyImages:
        - imageReferences: ['ghcr.io/kyverno/test-verify-image:*']
          attestors: [{ entries: [{ keys: { publicKeys: k } }] }]
`;
    expect(load(policy(verify, { spec: '  background: false\n' }))).toEqual([
      [
        10,
        '/spec/rules/0/match/any/0/resources/kinds/0',
        'Invalid value: "*": wildcard policy does not support rule type',
      ],
      // In Audit (the default), the digest mutated (true unless false): refused too.
      [
        12,
        '/spec/rules/0/verifyImages/0/mutateDigest',
        'Invalid value: true: mutateDigest must be set to false for ‘Audit’ failure action (it is true unless false; an audit changes nothing)',
      ],
    ]);
    expect(messages(policy(matching("resources: { kinds: ['*'] }") + VALIDATE))).toEqual([
      'Invalid value: "*": wildcard policy not allowed in background mode. Set spec.background=false to disable background mode for this policy rule',
    ]);
    // Only metadata, in admission: taken.
    const wildcard = policy(matching("resources: { kinds: ['*'] }") + VALIDATE, {
      spec: '  background: false\n',
    });
    expect(load(wildcard)).toEqual([]);
    expect(messages(wildcard.replace('metadata: { labels', 'spec: { labels'))).toEqual([
      'Invalid value: "*": policy can only deal with the metadata field of the resource if the rule does not match any kind',
    ]);
  });

  it('refuse an exclude written with its own fields that covers all the match does, as Kyverno reads it', () => {
    const legacy = (match: string, exclude: string) =>
      policy(`      match: ${match}
      exclude: ${exclude}
${VALIDATE}`);
    const because =
      'Forbidden: Rule is matching an empty set: its exclude covers all its match does (an exclude of any filters beside a match of its own fields is read as one)';
    expect(
      load(legacy('{ resources: { kinds: [Pod] } }', '{ resources: { kinds: [Pod] } }')),
    ).toEqual([[8, '/spec/rules/0/exclude', because]]);
    // The exclude names namespaces the match does not: it leaves the others.
    expect(
      load(
        legacy(
          '{ resources: { kinds: [Pod] } }',
          '{ resources: { kinds: [Pod], namespaces: [kube-system] } }',
        ),
      ),
    ).toEqual([]);
    // A name pattern covering a matched name.
    expect(
      messages(
        legacy(
          '{ resources: { kinds: [Pod], names: [app-1] } }',
          "{ resources: { names: ['app-*'] } }",
        ),
      ),
    ).toEqual([because]);
    expect(
      load(
        legacy(
          '{ resources: { kinds: [Pod], names: [web] } }',
          "{ resources: { names: ['app-*'] } }",
        ),
      ),
    ).toEqual([]);
    // An exclude of any filters beside a match of its own fields: Kyverno refuses it.
    expect(
      messages(
        legacy(
          '{ resources: { kinds: [Pod] } }',
          '{ any: [{ resources: { namespaces: [kube-system] } }] }',
        ),
      ),
    ).toEqual([because]);
  });

  it('refuse a subresource in a validating rule applied in the background', () => {
    // policy-validation/cluster-policy/background-subresource; kyverno/policies'
    // tekton/require-tekton-securitycontext names `tekton.dev/v1beta1/TaskRun.status` so.
    const subresources = policy(
      matching(
        "resources: { kinds: [Pod/exec, '*/status', '*/*', 'tekton.dev/v1beta1/TaskRun.status', v1/Pod, apps/v1/Deployment] }",
      ) + VALIDATE,
    );
    const named = ['Pod/exec', '*/status', '*/*', 'tekton.dev/v1beta1/TaskRun.status'];
    expect(load(subresources).map(([, pointer]) => pointer)).toEqual(
      named.map((_, i) => `/spec/rules/0/match/any/0/resources/kinds/${i}`),
    );
    messages(subresources).forEach((message, i) =>
      expect(message).toContain(`background scan enabled with subresource ${named[i]}`),
    );
    expect(messages(subresources)[0]).toContain(
      'reviews existing resources, not requests to their exec subresource; set spec.background: false',
    );
    expect(
      load(
        policy(matching('resources: { kinds: [Pod/exec] }') + VALIDATE, {
          spec: '  background: false\n',
        }),
      ),
    ).toEqual([]);
  });

  it('refuse an exclude that is one of the match filters: the rule matches nothing', () => {
    const rule = `${matching('resources: { kinds: [Pod] }')}      exclude:
        any:
          - resources: { kinds: [Pod] }
${VALIDATE}`;
    expect(load(policy(rule))).toEqual([
      [
        12,
        '/spec/rules/0/exclude/any/0',
        'Forbidden: Rule is matching an empty set: it excludes match.any[0], which it matches',
      ],
    ]);
    expect(
      load(
        policy(
          rule.replace(
            'kinds: [Pod] }\n      validate',
            'kinds: [Pod], names: [a] }\n      validate',
          ),
        ),
      ),
    ).toEqual([]);
  });

  it('refuse in a namespaced Policy a cluster-scoped kind, a namespaces filter, and a target in another namespace', () => {
    // webhooks/policy-clusterscope-resource.
    const crd = policy(matching('resources: { kinds: [CustomResourceDefinition] }') + VALIDATE, {
      kind: 'Policy',
    });
    expect(load(crd)).toEqual([
      [
        9,
        '/spec/rules/0/match/any/0/resources/kinds/0',
        "Forbidden: Cluster wide resource 'CustomResourceDefinition' not allowed in namespaced policy",
      ],
    ]);
    // A kind named with its group and version, and a kind of a CRD of the load.
    expect(
      messages(
        policy(matching('resources: { kinds: [v1/Namespace, Role] }') + VALIDATE, {
          kind: 'Policy',
        }),
      ),
    ).toEqual([
      "Forbidden: Cluster wide resource 'v1/Namespace' not allowed in namespaced policy",
      // Kyverno reads a kind by its name alone as cluster-scoped when one of that name is.
      "Forbidden: Cluster wide resource 'Role' not allowed in namespaced policy",
    ]);
    expect(
      messages(
        policy(matching('resources: { kinds: [Pod], namespaces: [a] }') + VALIDATE, {
          kind: 'Policy',
        }),
      ),
    ).toEqual(['Forbidden: Filtering namespaces not allowed in namespaced policies']);
    const targets = `${matching('resources: { kinds: [Secret] }')}      mutate:
        targets:
          - { apiVersion: v1, kind: ConfigMap, name: a, namespace: default }
          - { apiVersion: v1, kind: ConfigMap, name: b, namespace: other }
        patchStrategicMerge: { metadata: { labels: { a: b } } }
`;
    expect(load(policy(targets, { kind: 'Policy', spec: '  background: false\n' }))).toEqual([
      [
        14,
        '/spec/rules/0/mutate/targets/1/namespace',
        'Invalid value: "other": This field can be ignored or should have value of the namespace where the policy is being created',
      ],
    ]);
    // A ClusterPolicy may.
    expect(load(policy(targets, { spec: '  background: false\n' }))).toEqual([]);
  });
});

describe('what a Kyverno rule does', () => {
  const pod = matching('resources: { kinds: [Pod] }');

  it('refuses celPreconditions beside anything but validate.cel', () => {
    // policy-validation/cluster-policy/cel-preconditions: its three policies.
    const preconditions = `      celPreconditions:
        - { name: require-app-nginx, expression: "object.metadata.labels.app == 'nginx'" }
`;
    expect(load(policy(pod + preconditions + VALIDATE))).toEqual([
      [10, '/spec/rules/0/celPreconditions', 'celPrecondition can only be used with validate.cel'],
    ]);
    const cel = `      validate: { cel: { expressions: [{ expression: 'true' }] } }
`;
    expect(load(policy(pod + preconditions + cel))).toEqual([]);
  });

  it('refuses a validation that gives no check, or two, and a foreach item without its list', () => {
    expect(messages(policy(`${pod}      validate: { message: m }\n`))).toEqual([
      'one of pattern, anyPattern, deny, foreach, cel must be specified',
    ]);
    expect(
      messages(policy(`${pod}      validate: { pattern: { metadata: {} }, deny: {} }\n`)),
    ).toEqual(['only one of pattern, anyPattern, deny, foreach, cel can be specified']);
    const foreach = `${pod}      validate:
        foreach:
          - { pattern: { name: a } }
          - { list: request.object.spec.containers, pattern: { name: a }, deny: {} }
`;
    expect(load(policy(foreach))).toEqual([
      [12, '/spec/rules/0/validate/foreach/0/list', 'foreach.list is required'],
      [
        13,
        '/spec/rules/0/validate/foreach/1',
        'only one of pattern, anyPattern, deny, or a nested foreach can be specified',
      ],
    ]);
  });

  it("refuses an anchor that adds in a validation's pattern, an existence anchor over no list, and anchors in generated data", () => {
    const adds = `${pod}      validate:
        pattern:
          spec:
            +(dnsPolicy): ClusterFirst
            ^(containers): { name: a }
`;
    expect(load(policy(adds))).toEqual([
      [
        13,
        '/spec/rules/0/validate/pattern/spec/+(dnsPolicy)',
        'unsupported anchor +(dnsPolicy): +() adds a field in a mutation; a validation checks with (), ^(), =(), X() and <()',
      ],
      [
        14,
        '/spec/rules/0/validate/pattern/spec/^(containers)',
        'existence anchor should have value of type list',
      ],
    ]);
    const generated = `${matching('resources: { kinds: [Namespace] }')}      generate:
        { apiVersion: v1, kind: ConfigMap, name: a, namespace: b, data: { data: { =(a): b } } }
`;
    expect(messages(policy(generated))).toEqual([
      'anchors not supported on generate resources: unsupported anchor =(a)',
    ]);
  });

  it('refuses a context entry with no source or two, or without what its source needs, and context beside a CEL validation', () => {
    const context = (entries: string) => policy(`${pod}      context:\n${entries}${VALIDATE}`);
    expect(
      load(context('        - { name: a, configMap: { name: b }, variable: { value: c } }\n')),
    ).toEqual([
      [
        11,
        '/spec/rules/0/context/0',
        'exactly one of configMap or apiCall or imageRegistry or variable is required for context entries (it has configMap, variable)',
      ],
      [
        11,
        '/spec/rules/0/context/0/configMap/namespace',
        'a namespace is required for configMap context entry',
      ],
    ]);
    expect(
      messages(
        context(
          "        - { name: a, apiCall: { urlPath: /api/v1/pods, service: { url: 'https://x' } } }\n",
        ),
      ),
    ).toEqual(['a URLPath cannot be used for service API calls']);
    expect(
      messages(context('        - { name: a, imageRegistry: { jmesPath: "config.user" } }\n')),
    ).toEqual(['a ref is required for imageRegistry context entry']);
    // policy-validation/cluster-policy/cel-expressions' third policy (Kyverno's #13393).
    const cel = `${pod}      context: [{ name: objName, variable: { jmesPath: request.object.metadata.name } }]
      validate: { cel: { expressions: [{ expression: 'object.spec.replicas > 1', message: '{{ objName }} must be replicated' }] } }
`;
    expect(messages(policy(cel))).toEqual([
      'context variables are not supported for CEL expressions in validate rules (a CEL validation declares its own variables: validate.cel.variables)',
    ]);
  });

  it("reports a foreach list Kyverno cannot read: the policy is taken, and each request's rule fails", () => {
    const foreach = (list: string) =>
      policy(`${pod}      validate:
        foreach:
          - list: ${JSON.stringify(list)}
            deny: {}
`);
    expect(
      load(foreach('request.object.spec.[ephemeralContainers, initContainers, containers][]')),
    ).toEqual([]);
    expect(load(foreach('request.object.spec.containers[?name == nginx'))).toEqual([
      [
        12,
        '/spec/rules/0/validate/foreach/0/list',
        `Invalid value: "request.object.spec.containers[?name == nginx": Kyverno takes the policy but fails each request's rule on this list: invalid JMESPath query: the query ends too soon (an unclosed (, [ or {, or an operator with nothing after it)`,
      ],
    ]);
    expect(messages(foreach('to_upper(request.object.spec.containers)')).join('')).toBe('');
    expect(messages(foreach('toUpper(request.object.spec.containers)'))).toEqual([
      `Invalid value: "toUpper(request.object.spec.containers)": Kyverno has no function toUpper (did you mean to_upper?): each request's rule fails on it`,
    ]);
    // A variable is substituted first: known only when a request comes.
    expect(load(foreach('{{ request.object.spec.containers'))).toEqual([]);
  });

  it('refuses a Pod Security exclusion without the images or values it needs, and a restricted control at baseline', () => {
    // policy-validation/cluster-policy/invalid-pod-security-rule and -exceptions.
    const podSecurity = (level: string, exclude: string) =>
      policy(`${pod}      validate:
        podSecurity:
          level: ${level}
          exclude:
${exclude}`);
    expect(
      load(
        podSecurity(
          'baseline',
          `            - { controlName: /proc Mount Type, images: [nginx], restrictedField: "spec.containers[*].securityContext.procMount" }
            - { controlName: Privileged Containers }
            - { controlName: Host Namespaces, images: [nginx] }
            - { controlName: Running as Non-root }
            - { controlName: Seccomp }
`,
        ),
      ),
    ).toEqual([
      [14, '/spec/rules/0/validate/podSecurity/exclude/0/values', 'Forbidden: values is required'],
      [
        15,
        '/spec/rules/0/validate/podSecurity/exclude/1/controlName',
        'Invalid value: "Privileged Containers": exclude.images must be specified for the container level control',
      ],
      [
        16,
        '/spec/rules/0/validate/podSecurity/exclude/2/controlName',
        'Invalid value: "Host Namespaces": exclude.images must not be specified for the pod level control',
      ],
      [
        17,
        '/spec/rules/0/validate/podSecurity/exclude/3/controlName',
        'Invalid value: "Running as Non-root": Invalid control name defined at the given level (a control of the restricted level, which a baseline rule does not check)',
      ],
    ]);
    expect(
      load(podSecurity('restricted', '            - { controlName: Running as Non-root }\n')),
    ).toEqual([]);
    const exception = `apiVersion: kyverno.io/v2
kind: PolicyException
metadata: { name: exception-1, namespace: default }
spec:
  exceptions: [{ policyName: psa, ruleNames: [restricted] }]
  match: { all: [{ resources: { kinds: [Pod] } }] }
  podSecurity:
    - controlName: Capabilities
    - { controlName: Seccomp, values: [RuntimeDefault] }
`;
    expect(load(exception)).toEqual([
      [
        8,
        '/spec/podSecurity/0/controlName',
        'Invalid value: "Capabilities": exclude.images must be specified for the container level control',
      ],
      [9, '/spec/podSecurity/1/restrictedField', 'Forbidden: restrictedField is required'],
    ]);
  });

  it('refuses an image verification that mutates digests in Audit, names no image, or whose attestors lack what they need', () => {
    const verify = (spec: string, verification: string) =>
      policy(`${pod}      verifyImages:\n${verification}`, { spec });
    const keyed = `        - imageReferences: ['ghcr.io/kyverno/*']
          attestors: [{ entries: [{ keys: { publicKeys: k } }] }]
`;
    // kyverno/policies' other/verify-image-gcpkms and six more: Audit (the default), and the
    // digest mutated (true unless false). Kyverno 1.10 refuses them (kyverno/kyverno#6757).
    expect(load(verify('  validationFailureAction: Audit\n', keyed))).toEqual([
      [
        12,
        '/spec/rules/0/verifyImages/0/mutateDigest',
        'Invalid value: true: mutateDigest must be set to false for ‘Audit’ failure action (it is true unless false; an audit changes nothing)',
      ],
    ]);
    expect(load(verify('  validationFailureAction: Enforce\n', keyed))).toEqual([]);
    // The digest left alone, or its own failure action Enforce (over the policy's): taken.
    for (const field of ['mutateDigest: false', 'failureAction: Enforce']) {
      const given = keyed.replace(
        "['ghcr.io/kyverno/*']",
        `['ghcr.io/kyverno/*']\n          ${field}`,
      );
      expect(load(verify('', given))).toEqual([]);
    }
    const attestors = `        - imageReferences: []
          failureAction: Enforce
          attestors:
            - count: 2
              entries:
                - { keys: { kms: x }, keyless: { rekor: { url: u } } }
                - { keys: {} }
                - { keyless: { issuer: i } }
                - { certificates: {} }
            - entries: []
`;
    expect(messages(verify('', attestors))).toEqual([
      'An image reference is required',
      'keys, certificates, keyless, or a nested attestor is required (one of them: it has keys, keyless)',
      'A public key, kms key or secret is required',
      'Either Rekor URL or roots are required',
      'cert or certChain required',
      'An entry is required',
    ]);
  });

  it('refuses an operator Kyverno does not have and a condition missing a field, and warns of a deprecated operator', () => {
    // policy-validation/cluster-policy/deprecated-operations: both policies.
    const deny = (condition: string) =>
      policy(`${pod}      validate:
        failureAction: Enforce
        deny:
          conditions:
            any:
              - ${condition}
`);
    const invalid = deny(
      "{ key: ['{{request.object.metadata.labels.app}}'], operator: Invalid, value: [busybox] }",
    );
    expect(load(invalid)).toEqual([
      [
        15,
        '/spec/rules/0/validate/deny/conditions/any/0/operator',
        'Invalid value: "Invalid": entered value of `operator` is invalid. valid values: Equal, Equals, NotEqual, NotEquals, In, AnyIn, AllIn, NotIn, AnyNotIn, AllNotIn, GreaterThanOrEquals, GreaterThan, LessThanOrEquals, LessThan, DurationGreaterThanOrEquals, DurationGreaterThan, DurationLessThanOrEquals, DurationLessThan',
      ],
    ]);
    // Kyverno matches operators as written: `equals` is none, and `Equals` is meant.
    expect(
      messages(
        deny("{ key: '{{ request.object.metadata.name }}', operator: equals, value: a }"),
      )[0],
    ).toContain('entered value of `operator` is invalid (did you mean Equals?)');
    expect(
      messages(deny("{ key: '{{ request.object.metadata.name }}', operator: Equals }")),
    ).toEqual(['entered value of `key`, `value` or `operator` is missing or misspelled']);
    const deprecated = loadManifests([
      { path: 'crds.yaml', text: CRDS },
      {
        path: 'policy.yaml',
        text: deny("{ key: '{{ request.object.metadata.name }}', operator: NotIn, value: [a] }"),
      },
    ]).findings.filter((f) => f.file === 'policy.yaml');
    expect(deprecated.map((f) => [f.code, f.severity, f.message])).toEqual([
      [
        'api-warning',
        'warning',
        'Operator NotIn has been deprecated and will be removed soon. Use these instead: AllNotIn or AnyNotIn',
      ],
    ]);
    // A foreach's conditions: the operator only.
    const foreach = `${pod}      validate:
        foreach:
          - list: request.object.spec.containers
            preconditions: { all: [{ key: '{{ element.name }}', operator: AnyIn }] }
            deny: { conditions: { any: [{ key: '{{ element.image }}', operator: Contains, value: latest }] } }
`;
    expect(load(policy(foreach)).map(([, pointer]) => pointer)).toEqual([
      '/spec/rules/0/validate/foreach/0/deny/conditions/any/0/operator',
    ]);
  });

  it('refuses a label or annotation a pattern or patch writes that is not a string, as YAML reads true or 1.0', () => {
    const labels = policy(`${pod}      validate:
        pattern:
          metadata: { labels: { team: '?*', managed: true } }
          spec: { template: { metadata: { annotations: { version: 1.0 } } } }
`);
    const because =
      'labels and annotations supports only string values, "use double quotes around the non string values"';
    expect(load(labels)).toEqual([
      [
        12,
        '/spec/rules/0/validate/pattern/metadata/labels/managed',
        `Invalid value: true: ${because}`,
      ],
      [
        13,
        '/spec/rules/0/validate/pattern/spec/template/metadata/annotations/version',
        `Invalid value: 1: ${because}`,
      ],
    ]);
    expect(
      load(
        labels
          .replace('managed: true', "managed: 'true'")
          .replace('version: 1.0', "version: '1.0'"),
      ),
    ).toEqual([]);
    const patch = policy(
      `${pod}      mutate: { patchStrategicMerge: { metadata: { annotations: { replicas: 3 } } } }\n`,
    );
    expect(messages(patch)).toEqual([`Invalid value: 3: ${because}`]);
  });

  it('refuses a mutation with two ways to patch, and a foreach item with none', () => {
    const both = `${pod}      mutate:
        patchStrategicMerge: { metadata: { labels: { a: b } } }
        patchesJson6902: '[{"op": "add", "path": "/metadata/labels/c", "value": "d"}]'
`;
    expect(messages(policy(both))).toEqual([
      'only one of `patchStrategicMerge` or `patchesJson6902` is allowed',
    ]);
    const foreach = `${pod}      mutate:
        foreach:
          - { list: request.object.spec.containers }
          - list: request.object.spec.containers
            foreach: [{ list: element.ports, patchStrategicMerge: {} }]
`;
    expect(load(policy(foreach))).toEqual([
      [
        12,
        '/spec/rules/0/mutate/foreach/0',
        'only one of `patchStrategicMerge` or `patchesJson6902` is allowed',
      ],
    ]);
    expect(
      messages(
        policy(
          foreach.replace(
            '{ list: request.object.spec.containers }',
            '{ list: a, patchesJson6902: x }',
          ),
        ),
      ),
    ).toEqual([]);
  });
});

/** A rule generating `generate` (indented as its fields) for each Namespace. */
const generating = (generate: string, match = 'Namespace') =>
  `${matching(`resources: { kinds: [${match}] }`)}      generate:
${generate}`;

describe("a Kyverno rule's generate", () => {
  it('takes a target whose namespace follows its kind', () => {
    const configMap = generating(
      "        { apiVersion: v1, kind: ConfigMap, name: a, namespace: '{{request.object.metadata.name}}', data: {} }\n",
    );
    expect(load(policy(configMap))).toEqual([]);
    // An unknown kind's scope is not known: no finding.
    const unknown = generating(
      '        { apiVersion: example.com/v1, kind: Thing, name: a, data: {} }\n',
    );
    expect(load(policy(unknown))).toEqual([]);
  });

  it("refuses a namespace that does not follow the target kind's scope", () => {
    // generate/validation/clusterpolicy/target-namespace-scope: fail-1 and fail-2.
    const noNamespace = generating(
      '        { apiVersion: v1, kind: ConfigMap, name: a, data: {} }\n',
    );
    expect(load(policy(noNamespace))).toEqual([
      [
        11,
        '/spec/rules/0/generate/namespace',
        'Forbidden: target namespace must be set for a namespaced resource',
      ],
    ]);
    const clusterRole = generating(
      "        { apiVersion: iam.aws.crossplane.io/v1beta1, kind: Role, name: a, namespace: '{{request.object.metadata.name}}', data: {} }\n",
    );
    expect(messages(policy(clusterRole))).toEqual([
      'Forbidden: target namespace must not be set for a cluster-wide resource',
    ]);
    // RBAC's Role is namespaced: taken (policy-pass-1).
    expect(
      load(
        policy(
          clusterRole.replace('iam.aws.crossplane.io/v1beta1', 'rbac.authorization.k8s.io/v1'),
        ),
      ),
    ).toEqual([]);
  });

  it('refuses in a namespaced Policy a target out of its namespace, and a cluster-scoped one', () => {
    // generate/validation/policy/target-namespace-scope.
    const other = generating(
      '        { apiVersion: v1, kind: ConfigMap, name: a, namespace: test, data: {} }\n',
      'Secret',
    );
    expect(messages(policy(other, { kind: 'Policy' }))).toEqual([
      'Forbidden: target resource scope mismatched: a namespaced policy cannot generate resources in other namespaces, expected: default, received: test',
    ]);
    expect(
      load(policy(other.replace('namespace: test', 'namespace: default'), { kind: 'Policy' })),
    ).toEqual([]);
    const variable = other.replace(
      'namespace: test',
      "namespace: '{{request.object.metadata.name}}'",
    );
    // Without the policy's namespace in its manifest, a variable still is never it.
    expect(messages(policy(variable, { kind: 'Policy', namespace: '' }))).toEqual([
      "Forbidden: target resource scope mismatched: a namespaced policy cannot generate resources in other namespaces, expected: the policy's own, received: {{request.object.metadata.name}}",
    ]);
    const cluster = generating(
      '        { apiVersion: iam.aws.crossplane.io/v1beta1, kind: Role, name: a, namespace: default, data: {} }\n',
      'Secret',
    );
    expect(messages(policy(cluster, { kind: 'Policy' }))).toEqual([
      'Forbidden: target resource scope mismatched: the target must be a namespaced resource: iam.aws.crossplane.io/v1beta1/Role',
      'Forbidden: target namespace must not be set for a cluster-wide resource',
    ]);
  });

  it('refuses a cloneList of mixed scopes, or without the namespace its kinds need', () => {
    // generate/validation/clusterpolicy/cloneList: fail-1, fail-2 and fail-3.
    const cloneList = (list: string) =>
      policy(
        generating(`        namespace: '{{request.object.metadata.name}}'
        cloneList: ${list}
`),
      );
    expect(
      load(cloneList('{ kinds: [v1/Secret, rbac.authorization.k8s.io/v1/ClusterRole] }')),
    ).toEqual([
      [
        12,
        '/spec/rules/0/generate/cloneList/namespace',
        'Forbidden: namespace is required for namespaced target resources',
      ],
      [
        12,
        '/spec/rules/0/generate/cloneList/kinds/1',
        'Forbidden: mixed scope of target resources is forbidden',
      ],
    ]);
    expect(
      messages(
        cloneList('{ namespace: default, kinds: [rbac.authorization.k8s.io/v1/ClusterRole] }'),
      ),
    ).toEqual(['Forbidden: namespace is forbidden for cluster-wide target resources']);
    expect(load(cloneList('{ namespace: default, kinds: [v1/Secret, v1/ConfigMap] }'))).toEqual([]);
  });

  it('refuses two ways to generate, a target without a name, and the kind the rule matches', () => {
    expect(
      messages(
        policy(
          generating(
            '        { apiVersion: v1, kind: ConfigMap, name: a, namespace: b, data: {}, clone: { namespace: c, name: d } }\n',
          ),
        ),
      ),
    ).toEqual([
      'Forbidden: only one of generate patterns(data, clone, cloneList and foreach) can be specified',
    ]);
    expect(
      messages(
        policy(generating('        { apiVersion: v1, kind: ConfigMap, namespace: b, data: {} }\n')),
      ),
    ).toEqual(['Forbidden: name can not be empty']);
    const legacy = `      match: { resources: { kinds: [ConfigMap] } }
      generate: { apiVersion: v1, kind: ConfigMap, name: a, namespace: b, data: {} }
`;
    expect(messages(policy(legacy))).toEqual([
      'Invalid value: "ConfigMap": generation kind and match resource kind should not be the same',
    ]);
  });
});

describe('a Kyverno cleanup policy and policy exception', () => {
  const cleanup = (spec: string, kind = 'ClusterCleanupPolicy') => `apiVersion: kyverno.io/v2
kind: ${kind}
metadata: { name: cleanuppolicy${kind === 'CleanupPolicy' ? ', namespace: default' : ''} }
spec:
  match: { any: [{ resources: { kinds: [Pod] } }] }
${spec}`;

  it('takes a cleanup policy on a cron schedule', () => {
    expect(load(cleanup("  schedule: '*/1 * * * *'\n"))).toEqual([]);
  });

  it('refuses a schedule that is no cron schedule, a config map in its context, and a user in its match', () => {
    // cleanup/validation: cron-format, not-supported-attributes-in-context, no-user-info-in-match.
    expect(load(cleanup("  schedule: 'invalid-schedule'\n", 'CleanupPolicy'))).toEqual([
      [
        6,
        '/spec/schedule',
        'Invalid value: "invalid-schedule": schedule spec in the cleanupPolicy is not in proper cron format (expected exactly 5 fields, found 1: [invalid-schedule])',
      ],
    ]);
    expect(
      messages(
        cleanup(
          "  schedule: '* * * * *'\n  context: [{ name: c, configMap: { name: a, namespace: b } }]\n",
        ),
      ),
    ).toEqual([
      'Forbidden: ConfigMap is not allowed in CleanUp Policy (only apiCall, globalReference and variable entries)',
    ]);
    const roles = cleanup("  schedule: '* * * * *'\n").replace(
      '[{ resources: { kinds: [Pod] } }]',
      '[{ resources: { kinds: [Pod] }, roles: [admin] }]',
    );
    expect(load(roles)).toEqual([
      [
        5,
        '/spec/match/any/0/roles',
        'Forbidden: Usage of user info is forbidden (a cleanup policy runs on a schedule, with no request and no user)',
      ],
    ]);
    // A namespaced CleanupPolicy cleans no cluster-scoped kind.
    expect(
      messages(
        cleanup("  schedule: '* * * * *'\n", 'CleanupPolicy').replace(
          'kinds: [Pod]',
          'kinds: [Namespace]',
        ),
      ),
    ).toEqual(["Forbidden: Cluster wide resource 'Namespace' not allowed in namespaced policy"]);
  });

  it('refuses an exception applied in the background that names a user', () => {
    // exceptions/background-mode/standard/exception-rejected.
    const exception = (background: string) => `apiVersion: kyverno.io/v2
kind: PolicyException
metadata: { name: polex-wrong, namespace: default }
spec:
${background}  exceptions: [{ policyName: test, ruleNames: [test] }]
  match:
    any:
      - resources: { kinds: [Pod] }
        subjects: [{ kind: User, name: chip }]
`;
    expect(load(exception('  background: true\n'))).toEqual([
      [
        10,
        '/spec/match/any/0/subjects',
        'Forbidden: Usage of user info is forbidden (an exception applied in the background (spec.background, true unless false) sees existing resources with no user; set spec.background: false)',
      ],
    ]);
    expect(load(exception('  background: false\n'))).toEqual([]);
  });

  it("refuses a policy's name of more than 63 characters, and autogen for all controllers", () => {
    const long = policy(matching('resources: { kinds: [Pod] }') + VALIDATE).replace(
      'name: p }',
      `name: ${'p'.repeat(64)}, annotations: { pod-policies.kyverno.io/autogen-controllers: all } }`,
    );
    expect(messages(long)).toEqual([
      "Too long: may not be more than 63 bytes (a policy's name is a label's value in its reports)",
      "Forbidden: Autogen annotation does not support 'all' anymore, remove the annotation or set it to a valid value",
    ]);
  });
});
