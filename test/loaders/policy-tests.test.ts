/**
 * Policy tests met while walking a policy repository, Gatekeeper's (`gator verify` suites) and
 * Kyverno's (`kyverno test`): the test is set aside, its templates, constraints and policies are
 * read, and the objects its cases review are checked each on its own. Before, each suite was
 * `unknown-type`, and each case's object a duplicate of the others' (gatekeeper-library: 1,612 of
 * 1,734 resources failed, 5 of 387 in its `library/` with Gatekeeper's CRDs after).
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readPolicyTest } from '../../src/loaders/policy-tests.js';
import { readManifests } from '../../src/loaders/manifest-reader.js';
import { walkManifestTree } from '../../src/loaders/walk-manifest-tree.js';
import { cli } from '../cli/run-cli.js';
import { temporaryDirectory } from '../support/temporary-directory.js';
import { writeBelow } from '../support/write-below.js';
import { openSpecCrd } from '../support/open-crd.js';

// The shape of gatekeeper-library's suites (library/general/uniqueingresshost/suite.yaml).
const SUITE = `kind: Suite
apiVersion: test.gatekeeper.sh/v1alpha1
metadata:
  name: allowedrepos
tests:
- name: allowed-repos
  template: template.yaml
  constraint: samples/repos/constraint.yaml
  cases:
  - name: example-allowed
    object: samples/repos/example_allowed.yaml
    assertions:
    - violations: no
  - name: container-disallowed
    object: samples/repos/example_disallowed.yaml
    inventory:
    - samples/repos/inventory.yaml
    assertions:
    - violations: yes
  - name: update
    object: samples/repos/update.yaml
    assertions:
    - violations: yes
- name: strict-repos
  template: template.yaml
  constraint: samples/strict/constraint.yaml
  cases:
  - name: old-api
    object: samples/strict/old_api.yaml
    assertions:
    - violations: yes
- name: broken-parameters
  template: template.yaml
  constraint: samples/broken/constraint.yaml
  invalid: true
`;

const TEMPLATE = `apiVersion: templates.gatekeeper.sh/v1
kind: ConstraintTemplate
metadata: { name: k8sallowedrepos }
spec:
  crd:
    spec:
      names: { kind: K8sAllowedRepos }
      validation:
        openAPIV3Schema:
          type: object
          properties:
            repos: { type: array, items: { type: string } }
  targets:
    - target: admission.k8s.gatekeeper.sh
      rego: package k8sallowedrepos
`;

const constraint = (repos: string) => `apiVersion: constraints.gatekeeper.sh/v1beta1
kind: K8sAllowedRepos
metadata: { name: repo-is-openpolicyagent }
spec:
  match:
    kinds: [{ apiGroups: [""], kinds: ["Pod"] }]
  parameters:
    repos: ${repos}
`;

const pod = (image: string, extra = '') => `apiVersion: v1
kind: Pod
metadata: { name: nginx }
spec:
  containers:
    - { name: nginx, image: ${image} }${extra}
`;

const policyRepository = async () => {
  const dir = await temporaryDirectory('cosi-gator-');
  const write = (file: string, text: string) => writeBelow(dir, `allowedrepos/${file}`, text);
  await write('suite.yaml', SUITE);
  await write('template.yaml', TEMPLATE);
  await write('samples/repos/constraint.yaml', constraint('["openpolicyagent/"]'));
  await write('samples/strict/constraint.yaml', constraint('["openpolicyagent/nginx"]'));
  await write('samples/broken/constraint.yaml', constraint('"openpolicyagent/"'));
  await write('samples/repos/example_allowed.yaml', pod('openpolicyagent/nginx'));
  // What no API server admits (two containers of one name) is the policy's to review.
  await write(
    'samples/repos/example_disallowed.yaml',
    pod('nginx', '\n    - { name: nginx, image: nginx }'),
  );
  await write('samples/repos/inventory.yaml', pod('nginx'));
  await write(
    'samples/repos/update.yaml',
    'kind: AdmissionReview\napiVersion: admission.k8s.io/v1\nrequest:\n  operation: UPDATE\n  object: {}\n',
  );
  await write(
    'samples/strict/old_api.yaml',
    'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: { name: old }\nspec: {}\n',
  );
  return dir;
};

describe('readPolicyTest (a gator suite)', () => {
  it("names its tests' constraints, its cases' objects and inventories, and the constraints meant to be refused", () => {
    const suite = readPolicyTest(SUITE, '/repo/p/suite.yaml');
    expect(suite).toEqual({
      tool: 'gator',
      policies: ['/repo/p/template.yaml'],
      wholes: ['/repo/p/samples/repos/constraint.yaml', '/repo/p/samples/strict/constraint.yaml'],
      cases: [
        '/repo/p/samples/repos/example_allowed.yaml',
        '/repo/p/samples/repos/example_disallowed.yaml',
        '/repo/p/samples/repos/inventory.yaml',
        '/repo/p/samples/repos/update.yaml',
        '/repo/p/samples/strict/old_api.yaml',
      ],
      aside: [
        {
          file: '/repo/p/samples/broken/constraint.yaml',
          operation:
            'tests as a constraint its template refuses (invalid: true): invalid on purpose',
        },
      ],
    });
  });

  it('is no test for another kind, another group, or YAML that does not parse', () => {
    expect(
      readPolicyTest('kind: Suite\napiVersion: example.org/v1\n', '/suite.yaml'),
    ).toBeUndefined();
    expect(readPolicyTest('suites: [a, b]\n', '/suite.yaml')).toBeUndefined();
    expect(readPolicyTest('kind: [Suite\n', '/suite.yaml')).toBeUndefined();
    // A kyverno-test.yaml of the older shape, without apiVersion and kind, is one; a suite.yaml not.
    expect(readPolicyTest('policies: [p.yaml]\n', '/kyverno-test.yaml')?.tool).toBe('kyverno');
    expect(readPolicyTest('policies: [p.yaml]\n', '/suite.yaml')).toBeUndefined();
  });
});

describe('walking a policy repository with gator suites', () => {
  it('sets the suite and the constraint meant to be refused aside, and reads the rest', async () => {
    const dir = await policyRepository();
    const walked = await walkManifestTree(['.'], { cwd: dir });
    expect(walked.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['allowedrepos/samples/broken/constraint.yaml', 'test-assertion'],
      ['allowedrepos/suite.yaml', 'policy-test'],
    ]);
    expect(walked.unrendered.map((u) => u.message)).toEqual([
      'a file allowedrepos/suite.yaml tests as a constraint its template refuses (invalid: true): invalid on purpose; name the file to check it as manifests',
      'a Gatekeeper policy test, not a resource: its template and constraints are read, the objects its cases review are checked each on its own; run it with gator verify allowedrepos',
    ]);
    expect(walked.files.map((f) => [f.display, f.appliedBy?.policyTest])).toEqual([
      ['allowedrepos/samples/repos/constraint.yaml', 'whole'],
      ['allowedrepos/samples/repos/example_allowed.yaml', 'case'],
      ['allowedrepos/samples/repos/example_disallowed.yaml', 'case'],
      ['allowedrepos/samples/repos/inventory.yaml', 'case'],
      ['allowedrepos/samples/repos/update.yaml', 'case'],
      ['allowedrepos/samples/strict/constraint.yaml', 'whole'],
      ['allowedrepos/samples/strict/old_api.yaml', 'case'],
      ['allowedrepos/template.yaml', undefined],
    ]);
  });

  it('reads a constraint meant to be refused when its directory is named, the suite above it', async () => {
    const dir = await policyRepository();
    const walked = await walkManifestTree(['.', 'allowedrepos/samples/broken'], { cwd: dir });
    expect(walked.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['allowedrepos/suite.yaml', 'policy-test'],
    ]);
    expect(walked.files.map((f) => f.display)).toContain(
      'allowedrepos/samples/broken/constraint.yaml',
    );
  });

  it("checks each test's constraint and each case's object on its own: no duplicates", async () => {
    const dir = await policyRepository();
    const read = await readManifests(['.'], { cwd: dir });
    // The template is of a kind only Gatekeeper's CRDs define; nothing else fails.
    expect(read.findings.map((f) => [f.file, f.code])).toEqual([
      ['allowedrepos/template.yaml', 'unknown-type'],
    ]);
    // Only the template is part of the run; the request and the removed API are skipped.
    expect(read.resources).toHaveLength(0);
    expect(read.documents.map((d) => [d.file, d.status])).toContainEqual([
      'allowedrepos/samples/repos/update.yaml',
      'skipped',
    ]);
    expect(read.documents.map((d) => [d.file, d.status])).toContainEqual([
      'allowedrepos/samples/strict/old_api.yaml',
      'skipped',
    ]);
  });

  it("reports a case's misspelt or mistyped field, and a constraint its template refuses", async () => {
    const dir = await policyRepository();
    await writeBelow(
      dir,
      'allowedrepos/samples/repos/example_allowed.yaml',
      pod('openpolicyagent/nginx', '\n  initContainer: []\n  hostNetwork: "yes"'),
    );
    await writeBelow(dir, 'allowedrepos/samples/strict/constraint.yaml', constraint('"nginx"'));
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings.map((f) => [f.file, f.pointer])).toEqual([
      ['allowedrepos/samples/repos/example_allowed.yaml', '/spec/initContainer'],
      ['allowedrepos/samples/repos/example_allowed.yaml', '/spec/hostNetwork'],
      ['allowedrepos/samples/strict/constraint.yaml', '/spec/parameters/repos'],
      ['allowedrepos/template.yaml', '/kind'],
    ]);
  });

  it('reads a suite.yaml that is no gator suite as a manifest, and says what a suite given by name is', async () => {
    const dir = await policyRepository();
    await writeBelow(
      dir,
      'other/suite.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: suite }\n',
    );
    const walked = await walkManifestTree(['other'], { cwd: dir });
    expect(walked.files.map((f) => f.display)).toEqual(['other/suite.yaml']);
    const named = await readManifests(['allowedrepos/suite.yaml'], { cwd: dir });
    expect(named.findings.map((f) => f.message)).toContain(
      "Suite of test.gatekeeper.sh/v1alpha1 is a configuration file read by Gatekeeper's gator (a policy test: gator verify DIR; a walked directory's suite.yaml is set aside), not an object applied to a cluster: leave it out (--skip-kinds Suite, --ignore, or .cosiignore)",
    );
  });
});

describe("gatekeeper-library's policies, with Gatekeeper's CRDs", () => {
  const FIXTURE = fileURLToPath(new URL('../../fixtures/real-crds/gatekeeper/', import.meta.url));
  const CONSTRAINT_FILE =
    'library/library/general/allowedrepos/samples/repo-must-be-openpolicyagent/constraint.yaml';

  it('pass: every constraint checked against its template, every suite set aside', async () => {
    const r = await cli(['check', '--definitions', 'crds', 'library'], { cwd: FIXTURE });
    expect(r.stdout).toContain(
      'manifests: 28 resources in 28 files: 27 valid, 0 invalid, 1 skipped; set aside: 4 kustomizations, 4 policy tests',
    );
    expect(r.code).toBe(0);
  });

  it("fail on a typo in a constraint's parameters, where it is", async () => {
    const dir = await temporaryDirectory('cosi-gatekeeper-library-');
    await cp(FIXTURE, dir, { recursive: true });
    const file = path.join(dir, CONSTRAINT_FILE);
    await writeFile(file, (await readFile(file, 'utf8')).replace('repos:', 'repo:'));
    const r = await cli(['check', '--definitions', 'crds', 'library'], { cwd: dir });
    expect(r.stdout).toContain(
      `${CONSTRAINT_FILE}:13:5: error[schema-violation]: unknown field "repo" (did you mean "repos"?)`,
    );
    expect(r.code).toBe(1);
  });
});

describe("Kyverno's policy tests (kyverno-policies, in the .kyverno-test/ directories it keeps them in)", () => {
  const KYVERNO = fileURLToPath(new URL('../../fixtures/real-crds/kyverno/', import.meta.url));
  const PSA = 'psa/add-psa-labels/.kyverno-test';
  const HOSTPATH = 'other-vpol/limit-hostpath-vols/.kyverno-test';

  it('names the resources it reviews, the patched ones it expects, and its values', async () => {
    const test = readPolicyTest(
      await readFile(path.join(KYVERNO, PSA, 'kyverno-test.yaml'), 'utf8'),
      `/p/${PSA}/kyverno-test.yaml`,
    );
    expect(test).toEqual({
      tool: 'kyverno',
      policies: ['/p/psa/add-psa-labels/add-psa-labels.yaml'],
      wholes: [],
      cases: [
        `/p/${PSA}/resource.yaml`,
        `/p/${PSA}/resourcefail.yaml`,
        `/p/${PSA}/patchedResourcefail.yaml`,
        `/p/${PSA}/patchedResource.yaml`,
      ],
      aside: [],
    });
    const values = readPolicyTest(
      await readFile(path.join(KYVERNO, HOSTPATH, 'kyverno-test.yaml'), 'utf8'),
      `/p/${HOSTPATH}/kyverno-test.yaml`,
    );
    expect(values?.aside).toEqual([
      { file: `/p/${HOSTPATH}/values.yaml`, operation: 'reads its variables from' },
    ]);
  });

  /** Kyverno's kinds, their specs taken as they come (Kyverno's own CRDs are 1.4 MB each). */
  const kyvernoCrds = async (): Promise<string> => {
    const dir = await temporaryDirectory('cosi-kyverno-crds-');
    await writeFile(
      path.join(dir, 'crds.yaml'),
      [
        openSpecCrd('kyverno.io', 'ClusterPolicy', 'clusterpolicies', 'Cluster', 'v1'),
        openSpecCrd('policies.kyverno.io', 'ValidatingPolicy', 'validatingpolicies'),
      ].join('---\n'),
    );
    return dir;
  };

  it('pass: a resource and the patched one it is expected to become are no duplicates', async () => {
    const crds = await kyvernoCrds();
    const r = await cli(['check', '--definitions', crds, PSA, HOSTPATH], { cwd: KYVERNO });
    // The policies each test names (`../add-psa-labels.yaml`) are read with them, as kyverno
    // test reads them: 2 of the 8 resources.
    expect(r.stdout).toContain(
      "manifests: 8 resources in 8 files: 8 valid, 0 invalid; set aside: 1 other tool's file (other-vpol/limit-hostpath-vols/.kyverno-test/values.yaml), 2 policy tests",
    );
    expect(r.stdout).toContain(
      `${PSA}/kyverno-test.yaml: note[policy-test]: a Kyverno policy test, not a resource: its policies are read, the resources it applies them to are checked each on its own; run it with kyverno test ${PSA}`,
    );
    expect(r.code).toBe(0);
  });

  it("fail on a misspelt field of a resource it reviews, and say what a test's values file is", async () => {
    const dir = await temporaryDirectory('cosi-kyverno-tests-');
    await cp(KYVERNO, dir, { recursive: true });
    const file = path.join(dir, PSA, 'resource.yaml');
    await writeFile(
      file,
      (await readFile(file, 'utf8')).replace('  name: test', '  name: test\n  lables: { a: b }'),
    );
    const r = await cli(['check', PSA], { cwd: dir });
    expect(r.stdout).toContain(
      'resource.yaml:5:3: error[unknown-key]: unknown key "lables" in metadata (did you mean "labels"?)',
    );
    expect(r.code).toBe(1);
    const named = await cli(['check', `${HOSTPATH}/values.yaml`], { cwd: dir });
    expect(named.stdout).toContain(
      "Values of cli.kyverno.io/v1alpha1 is a configuration file read by Kyverno's CLI (a policy test or its values: kyverno test DIR; a walked directory's kyverno-test.yaml is set aside), not an object applied to a cluster",
    );
  });

  it('read a policy a test names outside the directory given, so a planted fault in it fails', async () => {
    const dir = await temporaryDirectory('cosi-kyverno-outside-');
    await cp(KYVERNO, dir, { recursive: true });
    const policy = path.join(dir, 'psa/add-psa-labels/add-psa-labels.yaml');
    await writeFile(
      policy,
      (await readFile(policy, 'utf8')).replace('- Namespace', "- '{{ request.object.kind }}'"),
    );
    const crds = await kyvernoCrds();
    const r = await cli(['check', '--definitions', crds, PSA], { cwd: dir });
    expect(r.stdout).toMatch(
      /^psa\/add-psa-labels\/add-psa-labels\.yaml:\d+:\d+: error\[schema-violation\]: Invalid value: "\{\{ request\.object\.kind \}\}": Kyverno refuses variables in a rule's match/m,
    );
    expect(r.code).toBe(1);
    // Unless the ignore patterns leave it out, as they would in a walk.
    const ignored = await cli(['check', '--definitions', crds, '--ignore', 'psa/*/*.yaml', PSA], {
      cwd: dir,
    });
    expect(ignored.stdout).toContain('manifests: 4 resources in 4 files: 4 valid, 0 invalid');
    expect(ignored.code).toBe(0);
  });
});
