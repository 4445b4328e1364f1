/**
 * Gatekeeper's ConstraintTemplates define their constraints' kind, as the CRD Gatekeeper makes
 * of each does: a constraint's parameters are checked against its template's schema, its match
 * against Gatekeeper's. Before, every constraint was `unknown-type`, and nothing of it checked.
 */
import { describe, expect, it } from 'vitest';
import { readDefinitionPaths } from '../../../src/loaders/definition-paths.js';
import { loadManifests } from '../../../src/loaders/load-manifests.js';
import { temporaryDirectory } from '../../support/temporary-directory.js';
import { writeBelow } from '../../support/write-below.js';

// The shape of gatekeeper-library's templates (library/general/allowedrepos/template.yaml).
const TEMPLATE = `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata:
  name: k8sallowedrepos
spec:
  crd:
    spec:
      names:
        kind: K8sAllowedRepos
      validation:
        openAPIV3Schema:
          type: object
          properties:
            repos:
              type: array
              items:
                type: string
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: |
        package k8sallowedrepos
`;

const CONSTRAINT = `apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sAllowedRepos
metadata:
  name: repo-is-openpolicyagent
spec:
  enforcementAction: dryrun
  match:
    kinds:
      - apiGroups: [""]
        kinds: ["Pod"]
    namespaces: ["default", "kube-*"]
    labelSelector:
      matchExpressions: [{ key: app, operator: In, values: [web] }]
  parameters:
    repos: ["openpolicyagent/"]
`;

const load = (...texts: string[]) =>
  loadManifests(texts.map((text, i) => ({ path: `m${i}.yaml`, text })));

const where = (findings: ReturnType<typeof load>['findings']) =>
  findings.map((f) => `${f.file}:${f.line}:${f.col} ${f.code} ${f.pointer}`);

describe("a ConstraintTemplate's constraints", () => {
  it('are checked against its parameters schema and Gatekeeper’s match, cluster-scoped', () => {
    const { findings, resources } = load(
      TEMPLATE,
      CONSTRAINT,
      `apiVersion: constraints.gatekeeper.sh/v1alpha1
kind: K8sAllowedRepos
metadata: { name: typo, namespace: team-a }
spec:
  match:
    namespaces: ["Team_A"]
    source: Everything
  parameters:
    repos: "openpolicyagent/"
    repoz: [a]
`,
    );
    // The template itself is a resource of a kind only Gatekeeper's own CRDs define.
    expect(findings.map((f) => [f.code, f.file, f.pointer])).toEqual([
      ['unknown-type', 'm0.yaml', '/kind'],
      ['ignored-namespace', 'm2.yaml', '/metadata/namespace'],
      ['schema-violation', 'm2.yaml', '/spec/match/namespaces/0'],
      ['schema-violation', 'm2.yaml', '/spec/match/source'],
      ['schema-violation', 'm2.yaml', '/spec/parameters/repos'],
      ['schema-violation', 'm2.yaml', '/spec/parameters/repoz'],
    ]);
    expect(findings.find((f) => f.pointer === '/spec/parameters/repoz')?.message).toContain(
      'unknown field "repoz" (did you mean "repos"?)',
    );
    expect(resources.map((r) => [r.resource.metadata.type, r.resource.metadata.namespace])).toEqual(
      [['K8sAllowedRepos.constraints.gatekeeper.sh', 'default']],
    );
  });

  it('are served as v1beta1 and v1alpha1, as Gatekeeper serves them', () => {
    const { findings } = load(TEMPLATE, CONSTRAINT.replace('/v1beta1', '/v1'));
    expect(findings.find((f) => f.file === 'm1.yaml')?.message).toBe(
      'kind K8sAllowedRepos has no version v1 in constraints.gatekeeper.sh: its CustomResourceDefinition serves v1beta1, v1alpha1',
    );
  });

  it("keep any parameter under a legacy schema (a v1beta1 template's default), unless it says otherwise", () => {
    const legacy = TEMPLATE.replace(
      'templates.gatekeeper.sh/v1',
      'templates.gatekeeper.sh/v1beta1',
    );
    const extra = CONSTRAINT.replace('repos: [', 'extra: { any: 1 }\n    repos: [');
    expect(load(legacy, extra).findings.map((f) => f.code)).toEqual(['unknown-type']);
    const strict = legacy.replace(
      '      validation:\n',
      '      validation:\n        legacySchema: false\n',
    );
    expect(where(load(strict, extra).findings)).toEqual([
      'm0.yaml:2:7 unknown-type /kind',
      'm1.yaml:15:5 schema-violation /spec/parameters/extra',
    ]);
    // A v1 template is strict by default; a template without a schema takes no parameters.
    expect(load(TEMPLATE, extra).findings.map((f) => f.pointer)).toContain(
      '/spec/parameters/extra',
    );
    const noSchema = TEMPLATE.replace(/ {6}validation:[^]*?(?= {2}targets)/, '');
    expect(load(noSchema, CONSTRAINT).findings.map((f) => f.pointer)).toContain('/spec/parameters');
  });
});

describe('a ConstraintTemplate Gatekeeper refuses', () => {
  it('is reported in the template, once, and its constraints say where', () => {
    const broken = TEMPLATE.replace(
      '            repos:\n',
      '            bad:\n              properties: { x: { type: string } }\n            repos:\n',
    );
    const { findings } = load(broken, CONSTRAINT);
    expect(where(findings)).toEqual([
      'm0.yaml:2:7 unknown-type /kind',
      'm0.yaml:15:15 invalid-schema /spec/crd/spec/validation/openAPIV3Schema/properties/bad',
      'm1.yaml:2:7 unknown-type /kind',
    ]);
    expect(findings[2]?.message).toBe(
      'kind K8sAllowedRepos of constraints.gatekeeper.sh/v1beta1 is not defined: its CustomResourceDefinition at m0.yaml:9:15 is invalid',
    );
  });

  it('names its constraint kind in lower case, and names one', () => {
    const misnamed = load(
      TEMPLATE.replace('name: k8sallowedrepos', 'name: allowed-repos'),
      CONSTRAINT,
    );
    expect(misnamed.findings.map((f) => [f.code, f.file, f.pointer, f.message])).toContainEqual([
      'invalid-definition',
      'm0.yaml',
      '/metadata/name',
      'Gatekeeper refuses a ConstraintTemplate whose name is not its constraint kind in lower case: name it k8sallowedrepos (spec.crd.spec.names.kind is K8sAllowedRepos)',
    ]);
    expect(misnamed.findings.filter((f) => f.file === 'm1.yaml').map((f) => f.code)).toEqual([
      'unknown-type',
    ]);
    // A kind the API server would refuse as a CRD's is reported where the template names it.
    const badKind = load(
      TEMPLATE.replace('name: k8sallowedrepos', 'name: k8s_repos').replace(
        'kind: K8sAllowedRepos',
        'kind: K8s_Repos',
      ),
    );
    expect(where(badKind.findings)).toContainEqual(
      'm0.yaml:9:15 invalid-definition /spec/crd/spec/names/kind',
    );
    const nameless = load(TEMPLATE.replace('kind: K8sAllowedRepos', 'shortNames: [ar]'));
    expect(nameless.findings.map((f) => [f.code, f.pointer])).toContainEqual([
      'invalid-definition',
      '/spec/crd/spec/names/kind',
    ]);
  });
});

describe("a ConstraintTemplate's CEL (K8sNativeValidation)", () => {
  // The shape of gatekeeper-library's CEL code (library/pod-security-policy/host-process).
  const celTemplate = (source: string) =>
    TEMPLATE.replace(
      '      rego: |\n        package k8sallowedrepos\n',
      `      code:\n        - engine: K8sNativeValidation\n          source:\n${source}`,
    );
  const GOOD = `            variables:
              - name: containers
                expression: 'has(variables.anyObject.spec.containers) ? variables.anyObject.spec.containers : []'
              - name: repos
                expression: 'params.spec.parameters.repos'
            matchCondition:
              - name: not-deleting
                expression: 'request.operation != "DELETE"'
            validations:
              - expression: 'variables.containers.all(c, variables.params.repos.exists(r, c.image.startsWith(r)))'
                messageExpression: '"image not allowed in " + object.metadata.name'
`;

  it('compiles as Gatekeeper compiles it: variables see params, the rest variables', () => {
    expect(load(celTemplate(GOOD)).findings.map((f) => f.code)).toEqual(['unknown-type']);
  });

  it('reports what does not compile where it is, which Gatekeeper only finds at each review', () => {
    const bad = GOOD.replace(
      "expression: 'params.spec.parameters.repos'",
      "expression: 'params.spec.parameters.repos +'",
    )
      .replace('\'request.operation != "DELETE"\'', '\'requst.operation != "DELETE"\'')
      .replace('\'"image not allowed in " + object', "'params.spec.message + object");
    const { findings } = load(celTemplate(bad));
    expect(findings.map((f) => [f.code, f.line, f.pointer])).toEqual([
      ['unknown-type', 2, '/kind'],
      ['cel-invalid-rule', 27, '/spec/targets/0/code/0/source/variables/1/expression'],
      ['cel-invalid-rule', 30, '/spec/targets/0/code/0/source/matchCondition/0/expression'],
      ['cel-invalid-rule', 33, '/spec/targets/0/code/0/source/validations/0/messageExpression'],
    ]);
    expect(findings[1]?.message).toContain(
      'compilation failed: <input>:1:30: found + but expecting end of input',
    );
    expect(findings[2]?.message).toContain("undeclared reference to 'requst'");
    expect(findings[3]?.message).toContain("undeclared reference to 'params'");
  });
});

describe('--definitions with ConstraintTemplates', () => {
  it('takes their constraint kinds, as a CRD bundle', async () => {
    const dir = await temporaryDirectory('cosi-gatekeeper-');
    await writeBelow(dir, 'policies/template.yaml', TEMPLATE);
    const { definitions, findings } = await readDefinitionPaths(['policies'], { cwd: dir });
    expect(findings).toEqual([]);
    expect(definitions.map((d) => d.kubernetes?.apiVersion)).toEqual([
      'constraints.gatekeeper.sh/v1beta1',
      'constraints.gatekeeper.sh/v1alpha1',
    ]);
  });
});
