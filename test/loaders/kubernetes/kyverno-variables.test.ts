/**
 * A Kyverno ClusterPolicy's variables (`{{ request.object.metadata.name }}`), checked as Kyverno
 * checks them when the policy is written: JMESPath in Kyverno's dialect, naming what Kyverno
 * knows or the rule's context declares; none in a rule's match or exclude; no user in a policy
 * applied in the background. kyverno/policies' 643 policies give no finding but in the one
 * Kyverno refuses (`cost-optimization/schedule-based-quotas`, a `? :`).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { openSpecCrd } from '../../support/open-crd.js';

const CRDS = [
  openSpecCrd('kyverno.io', 'ClusterPolicy', 'clusterpolicies', 'Cluster', 'v1'),
  openSpecCrd('kyverno.io', 'Policy', 'policies', 'Namespaced', 'v1'),
  openSpecCrd('kyverno.io', 'ClusterCleanupPolicy', 'clustercleanuppolicies', 'Cluster', 'v2'),
].join('---\n');

/** A policy of kyverno/policies (`fixtures/real-crds/kyverno/`). */
const policy = (file: string): string =>
  readFileSync(new URL(`../../../fixtures/real-crds/kyverno/${file}`, import.meta.url), 'utf8');

// An API call in its context, a foreach over it, a variable inside another (`regex_match`), one
// inside a JMESPath literal of the API call.
const REPLICAS = policy(
  'other/deployment-replicas-higher-than-pdb/deployment-replicas-higher-than-pdb.yaml',
);
// The user who made a request, in a policy not applied in the background; a multi-select hash
// (single braces) inside a variable; quoted keys.
const CREATION = policy('other/record-creation-details/record-creation-details.yaml');

const load = (text: string) =>
  loadManifests([
    { path: 'crds.yaml', text: CRDS },
    { path: 'policy.yaml', text },
  ]).findings.filter((f) => f.file === 'policy.yaml');

const placed = (text: string) =>
  load(text).map((f) => [f.line, f.col, f.pointer, f.code, f.rule] as const);

describe("a Kyverno policy's variables", () => {
  it("take what Kyverno's own policies write", () => {
    expect(load(REPLICAS)).toEqual([]);
    expect(load(CREATION)).toEqual([]);
  });

  it('refuse a query that is no JMESPath Kyverno reads, at its line, with why', () => {
    const broken = REPLICAS.replace(
      '{{ length(deploymentreplicas) }}',
      '{{ length(deploymentreplicas }}',
    ).replace('{{ element.spec.replicas }}', '{{ element.metadata.labels.app-name }}');
    expect(placed(broken)).toEqual([
      [41, 14, '/spec/rules/0/preconditions/all/1/key', 'schema-violation', 'kyverno-variable'],
      [
        57,
        24,
        '/spec/rules/0/validate/foreach/0/deny/conditions/all/0/value',
        'schema-violation',
        'kyverno-variable',
      ],
    ]);
    const [syntax, dash] = load(broken).map((f) => f.message);
    expect(syntax).toBe(
      'Invalid value: "{{ length(deploymentreplicas }}": Kyverno refuses the policy: invalid JMESPath query: the query ends too soon (an unclosed (, [ or {, or an operator with nothing after it)',
    );
    expect(dash).toContain(
      'JMESPath has no arithmetic operators in Kyverno (a key with "-" is quoted: labels."app-name"',
    );
  });

  it('read a long variable in linear time, knowing a function call anywhere in it', () => {
    // A name of 100000 letters was searched for a call from each of its letters: quadratic.
    const long = 'a'.repeat(100_000);
    const started = performance.now();
    const [finding] = load(REPLICAS.replace('{{ element.spec.replicas }}', `{{ ${long} }}`));
    expect(finding?.message).toContain('is no variable it knows');
    expect(performance.now() - started).toBeLessThan(3000);
    // A function's result is known wherever the call is, after a long name or not.
    expect(
      load(REPLICAS.replace('{{ element.spec.replicas }}', `{{ ${long}.to_string(@) }}`)),
    ).toEqual([]);
  });

  it('refuse a variable that names nothing Kyverno knows, and take what the context declares', () => {
    // A misspelt context entry, and `request` without its dot in a background policy.
    const misspelt = REPLICAS.replace(
      '{{ deploymentreplicas[*].spec.replicas }}',
      '{{ deploymentreplica[*].spec.replicas }}',
    );
    const [finding] = load(misspelt);
    expect([finding?.line, finding?.pointer]).toEqual([45, '/spec/rules/0/validate/message']);
    expect(finding?.message).toBe(
      'Invalid value: "{{ deploymentreplica[*].spec.replicas }}": Kyverno refuses the policy: deploymentreplica[*].spec.replicas is no variable it knows (request, element, elementIndex, images, @, a function\'s result, or the rule\'s context: deploymentreplicas)',
    );
    // The entry named as written, with a dash, in quotes: the quotes are not part of the name.
    const quoted = REPLICAS.replaceAll('deploymentreplicas', 'deployment-replicas').replace(
      '{{ length(deployment-replicas) }}',
      '{{ "deployment-replicas" | length(@) }}',
    );
    expect(load(quoted).map((f) => [f.pointer, f.message.split(':')[1]])).toEqual([
      // Unquoted, a subtraction, which Kyverno does not read.
      ['/spec/rules/0/validate/message', ' "{{ length(deployment-replicas) }}"'],
      ['/spec/rules/0/validate/message', ' "{{ deployment-replicas[*].spec.replicas }}"'],
      // And the foreach's list, which Kyverno reads at each request (kyverno-rules.test.ts).
      ['/spec/rules/0/validate/foreach/0/list', ' "deployment-replicas"'],
    ]);
  });

  it("refuse variables in a rule's match and exclude, once each, and no other finding there", () => {
    const matched = CREATION.replace(
      "          - '*'\n    preconditions:",
      "          - '*'\n          names: ['{{ request.object.metadata.name }}']\n    preconditions:",
    );
    const findings = load(matched);
    expect(findings.map((f) => [f.line, f.pointer])).toEqual([
      [34, '/spec/rules/0/match/any/0/resources/names/0'],
    ]);
    expect(findings[0]?.message).toContain("Kyverno refuses variables in a rule's match");
  });

  it('refuse the user in a policy applied in the background, and user filters in its match', () => {
    // `background: true`, or no `background` at all: its default.
    for (const background of ['  background: true\n', '']) {
      const applied = CREATION.replace('  background: false\n', background);
      // (Its rules match every kind, `*`, which Kyverno refuses in the background too: rule
      // kyverno-policy, kyverno-rules.test.ts.)
      const variables = load(applied).filter((f) => f.rule === 'kyverno-variable');
      expect(variables.map((f) => [f.pointer, f.rule])).toEqual([
        [
          '/spec/rules/0/mutate/patchStrategicMerge/metadata/annotations/kyverno.io~1created-by',
          'kyverno-variable',
        ],
      ]);
      expect(variables[0]?.message).toContain(
        'Kyverno refuses request.userInfo in a policy applied in the background (spec.background, true unless false)',
      );
    }
    const byRole = CREATION.replace(
      "          - '*'\n    preconditions:",
      "          - '*'\n        clusterRoles: [cluster-admin]\n    preconditions:",
    );
    expect(load(byRole)).toEqual([]);
    const byRoleInBackground = byRole.replace('  background: false\n', '');
    expect(load(byRoleInBackground).map((f) => f.pointer)).toContain(
      '/spec/rules/0/match/any/0/clusterRoles',
    );
  });

  it('read an escaped variable as text, and a policy of another group as none', () => {
    const escaped = REPLICAS.replace(
      '{{ element.spec.replicas }}',
      '\\\\{{ element.spec.replicas- }}',
    );
    expect(load(escaped)).toEqual([]);
    const other = CREATION.replace('kyverno.io/v1', 'example.com/v1').replace(
      '{{ request.userInfo.{groups: groups, username: username} | to_string(@) }}',
      '{{ ( }}',
    );
    expect(load(other).map((f) => f.code)).toEqual(['unknown-type']);
  });

  it('refuse a variable in an image reference and in the path of a JSON patch', () => {
    const verify = `apiVersion: kyverno.io/v1
kind: Policy
metadata: { name: verify, namespace: apps }
spec:
  validationFailureAction: Enforce
  rules:
    - name: verify-signature
      match: { any: [{ resources: { kinds: [Pod] } }] }
      verifyImages:
        - imageReferences: ['ghcr.io/{{ request.namespace }}/*']
          attestations:
            - name: sbom
              conditions:
                - all: [{ key: '{{ sbom.components[].name }}', operator: AnyNotIn, value: [x] }]
    - name: patch
      match: { any: [{ resources: { kinds: [Pod] } }] }
      mutate:
        patchesJson6902: |-
          - op: add
            path: /metadata/labels/{{ request.object.metadata.name }}
            value: "{{ request.namespace }}"
`;
    expect(placed(verify).map(([line, , pointer]) => [line, pointer])).toEqual([
      [10, '/spec/rules/0/verifyImages/0/imageReferences/0'],
      [18, '/spec/rules/1/mutate/patchesJson6902'],
    ]);
  });

  it("refuse a context entry's JMESPath that does not parse, a name Kyverno takes, a variable of nothing", () => {
    const entries = (...added: string[]) =>
      REPLICAS.replace(
        '    - name: deploymentreplicas\n',
        `${added.join('')}    - name: deploymentreplicas\n`,
      );
    const broken = entries(
      '    - name: request.deployments\n      variable: { value: 1, default: 2 }\n',
      '    - name: owner\n      variable: {}\n',
      "    - name: app\n      variable: { jmesPath: 'request.object.metadata.labels.app-name', default: x }\n",
    );
    expect(placed(broken).map(([line, , pointer]) => [line, pointer])).toEqual([
      [32, '/spec/rules/0/context/0/name'],
      [33, '/spec/rules/0/context/0/variable/default'],
      [35, '/spec/rules/0/context/1/variable'],
      [37, '/spec/rules/0/context/2/variable/jmesPath'],
    ]);
    // An API call's JMESPath that holds a variable is not parsed: what it substitutes is not known.
    expect(load(REPLICAS.replace('|| `[]`', '|| `[]` ||'))).toEqual([]);
  });

  it("read a JSON patch whose values are unquoted variables without a YAML library's warning", () => {
    // kyverno/policies' openshift/inject-infrastructurename: `value: {{ ... }}` is a flow mapping
    // with a mapping for its key, which the YAML library warns of on the process's stderr.
    const warned = vi.spyOn(process, 'emitWarning');
    try {
      const patch = REPLICAS.replace(
        '    validate:\n',
        [
          '    mutate:',
          '      patchesJson6902: |-',
          '        - op: replace',
          '          path: /metadata',
          "          value: {{ replace_all(to_string(request.object.metadata),'TEMPLATE', infraid) }}",
          '    validate:',
          '',
        ].join('\n'),
      );
      // A rule does one thing (`kyverno-rules.ts`): that is the only finding.
      expect(load(patch).map((f) => f.message)).toEqual([
        "Multiple operations defined in the rule 'deployment-replicas-greater-minAvailable', only one operation (mutate,validate,generate,verifyImages) is allowed per rule (it has mutate, validate)",
      ]);
      expect(warned).not.toHaveBeenCalled();
    } finally {
      warned.mockRestore();
    }
  });

  it("refuse a foreach's element outside a foreach, and an operation Kyverno does not know", () => {
    const outside = REPLICAS.replace(
      'having {{ deploymentreplicas[*].spec.replicas }} replicas.',
      'having {{ element.spec.replicas }} replicas.',
    );
    expect(load(outside).map((f) => [f.line, f.pointer, f.message])).toEqual([
      [
        45,
        '/spec/rules/0/validate/message',
        'Invalid value: "{{ element.spec.replicas }}": Kyverno refuses element outside a foreach (it is what the foreach\'s list holds, and where)',
      ],
    ]);
    const operations = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: { name: block-updates }
spec:
  rules:
    - name: block
      match: { any: [{ resources: { kinds: [ConfigMap] } }] }
      preconditions:
        any:
          - { key: '{{ request.operation }}', operator: AnyIn, value: [Update, DELETE] }
          - { key: '{{request.operation}}', operator: Equals, value: '{{ request.object.data.op }}' }
      validate:
        message: no updates
        deny:
          conditions:
            all: [{ key: '{{ request.operation }}', operator: Equals, value: PATCH }]
`;
    expect(load(operations).map((f) => [f.line, f.pointer, f.message])).toEqual([
      [
        10,
        '/spec/rules/0/preconditions/any/0/value/0',
        'Invalid value: "Update": Kyverno refuses the policy: a request\'s operation is one of CREATE, UPDATE, DELETE or CONNECT (UPDATE, in capitals)',
      ],
      [
        16,
        '/spec/rules/0/validate/deny/conditions/all/0/value',
        'Invalid value: "PATCH": Kyverno refuses the policy: a request\'s operation is one of CREATE, UPDATE, DELETE or CONNECT',
      ],
    ]);
  });

  it("check a cleanup policy's conditions for their JMESPath only, as Kyverno takes any name there", () => {
    const cleanup = policy('cleanup/cleanup-bare-pods/cleanup-bare-pods.yaml');
    expect(load(cleanup)).toEqual([]);
    expect(load(cleanup.replace('ownerReferences[]', 'ownerReferences['))).toHaveLength(1);
    expect(load(cleanup.replace('target.metadata', 'anything.metadata'))).toEqual([]);
  });

  it("refuse target in a mutation target's own fields, and take it in what the rule writes to it", () => {
    // Kyverno's conformance test mutate/.../existing/validation/target-variable-validation.
    const existing = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: { name: target-variable-validation }
spec:
  rules:
    - name: sync
      match: { any: [{ resources: { kinds: [Secret] } }] }
      mutate:
        mutateExistingOnPolicyUpdate: true
        targets:
          - { apiVersion: v1, kind: ConfigMap, name: server, namespace: '{{target.metadata.annotations.dns}}' }
          - { apiVersion: v1, kind: ConfigMap, name: internal, namespace: '{{ request.object.metadata.namespace }}' }
        patchStrategicMerge:
          data: { suffix: '{{ target.metadata.annotations.dns_suffix }}' }
`;
    expect(load(existing).map((f) => [f.line, f.pointer, f.message])).toEqual([
      [
        11,
        '/spec/rules/0/mutate/targets/0/namespace',
        'Invalid value: "{{target.metadata.annotations.dns}}": Kyverno refuses target in a mutation target\'s own apiVersion, kind, name, namespace or selector: they choose what target is',
      ],
    ]);
  });

  it("refuse target in the rule's context and preconditions, read before the targets are found, and take it in a target's own", () => {
    // Kyverno's conformance test policy-validation/cluster-policy/target-context.
    const existing = `apiVersion: kyverno.io/v1
kind: ClusterPolicy
metadata: { name: update-targets }
spec:
  background: false
  rules:
    - name: update-targets
      match: { any: [{ resources: { kinds: [ConfigMap] } }] }
      context:
        - { name: triggerContent, variable: { jmesPath: request.object.data.content } }
        - { name: targetContent, variable: { jmesPath: '{{target.data.content}}' } }
      preconditions:
        all:
          - { key: '{{ target.data.content }}', operator: Equals, value: target }
      mutate:
        targets:
          - apiVersion: v1
            kind: ConfigMap
            namespace: '{{ request.object.metadata.namespace }}'
            name: target*
            context: [{ name: own, variable: { jmesPath: target.data.content } }]
            preconditions: { all: [{ key: '{{ target.metadata.name }}', operator: Equals, value: a }] }
        patchStrategicMerge:
          data: { content: '{{ triggerContent }}', own: '{{ own }}', targetContent: '{{ targetContent }}' }
`;
    const because =
      "Kyverno refuses target in a rule's context and preconditions: they are read before the targets are found; use the target's own context and preconditions (mutate.targets[*].context, .preconditions)";
    expect(load(existing).map((f) => [f.line, f.pointer, f.message])).toEqual([
      [
        11,
        '/spec/rules/0/context/1/variable/jmesPath',
        `Invalid value: "{{target.data.content}}": ${because}`,
      ],
      [
        14,
        '/spec/rules/0/preconditions/all/0/key',
        `Invalid value: "{{ target.data.content }}": ${because}`,
      ],
    ]);
    // Without targets, target is no variable Kyverno knows anywhere: said as such.
    const withoutTargets = existing.replace(/ {8}targets:[\s\S]*?(?= {8}patchStrategicMerge)/, '');
    expect(
      load(withoutTargets)
        .map((f) => f.message)
        .join('\n'),
    ).not.toContain('before the targets');
  });
});
