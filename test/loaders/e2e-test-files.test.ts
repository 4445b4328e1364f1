/**
 * The end-to-end tests of an operator's repository, met while walking it: a chainsaw test and
 * the files of partial objects it asserts, patches with or deletes (or applies expecting a
 * refusal) are set aside; the files it applies are read; kuttl's and chainsaw's assertions named
 * by convention (`01-assert.yaml`, `02-errors.yaml`) are set aside too. Before, each assertion was
 * a page of missing required fields (opentelemetry-operator: 1,214 of 1,615 resources failed,
 * 505 after, the rest its own findings).
 */
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readManifests } from '../../src/loaders/manifest-reader.js';
import { readChainsawTest, isConventionalAssertion } from '../../src/loaders/chainsaw-tests.js';
import { walkManifestTree } from '../../src/loaders/walk-manifest-tree.js';
import { temporaryDirectory } from '../support/temporary-directory.js';
import { writeBelow } from '../support/write-below.js';

// The shape of opentelemetry-operator's and kro's chainsaw tests (tests/e2e/*/chainsaw-test.yaml).
const CHAINSAW_TEST = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata:
  name: smoke
spec:
  steps:
    - name: step-00
      try:
        - apply:
            file: 00-install.yaml
        - assert:
            file: 00-assert.yaml
        - assert:
            file: 00-install.yaml
    - name: step-01
      try:
        - patch:
            file: 01-patch.yaml
        - apply:
            file: 01-invalid.yaml
            expect:
              - check:
                  ($error != null): true
        - error:
            file: 01-gone.yaml
        - assert:
            file: checks/*-ready.yaml
      catch:
        - podLogs:
            selector: app=smoke
      finally:
        - delete:
            file: 01-delete.yaml
        - assert:
            file: https://example.com/remote-assert.yaml
`;

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata: { name: app }
spec:
  selector: { matchLabels: { app: a } }
  template:
    metadata: { labels: { app: a } }
    spec: { containers: [{ name: a, image: a }] }
`;

// What chainsaw asserts: a partial object, which the API server would refuse whole.
const PARTIAL = `apiVersion: apps/v1
kind: Deployment
metadata: { name: app }
status: { readyReplicas: 1 }
`;

describe("a chainsaw test's files (readChainsawTest)", () => {
  it('names the files of every operation of every step and block, saying which are partial', () => {
    const files = readChainsawTest(CHAINSAW_TEST, '/repo/tests/smoke/chainsaw-test.yaml').files.map(
      (f) => [path.relative('/repo/tests/smoke', f.file), f.glob, f.partial?.split(':')[0]],
    );
    expect(files).toEqual([
      ['00-install.yaml', false, undefined],
      ['00-assert.yaml', false, 'asserts'],
      ['00-install.yaml', false, 'asserts'],
      ['01-patch.yaml', false, 'patches with'],
      ['01-invalid.yaml', false, 'applies expecting the API server to refuse it'],
      ['01-gone.yaml', false, 'expects errors from'],
      ['checks/*-ready.yaml', true, 'asserts'],
      ['01-delete.yaml', false, 'deletes'],
    ]);
  });

  it('takes an apply that expects success, or checks something else, as a whole resource', () => {
    const apply = (check: string) =>
      readChainsawTest(
        `spec: { steps: [{ try: [{ apply: { file: a.yaml, expect: [{ check: ${check} }] } }] }] }`,
        '/t/chainsaw-test.yaml',
      ).files[0]?.partial;
    expect(apply('{ ($error == null): true }')).toBeUndefined();
    expect(apply('{ (status.phase): Running }')).toBeUndefined();
    expect(apply('{ ($error): "admission webhook denied the request" }')).toContain('refuse');
  });

  it('names nothing in a test that is not YAML', () => {
    expect(readChainsawTest('spec: [\n', '/t/chainsaw-test.yaml').files).toEqual([]);
  });
});

describe('isConventionalAssertion', () => {
  it("knows kuttl's and chainsaw's assertion names, not a step's other files", () => {
    for (const name of ['00-assert.yaml', '01-errors.yaml', '12-assert.yml', '3-ASSERT.YAML']) {
      expect(isConventionalAssertion(name), name).toBe(true);
    }
    for (const name of ['00-install.yaml', 'assert.yaml', '00-assert-pods.yaml', 'x-assert.yaml']) {
      expect(isConventionalAssertion(name), name).toBe(false);
    }
  });
});

describe('walking a repository with end-to-end tests', () => {
  const tree = async () => {
    const dir = await temporaryDirectory('cosi-e2e-tests-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    await write('deploy/app.yaml', DEPLOYMENT);
    await write('tests/smoke/chainsaw-test.yaml', CHAINSAW_TEST);
    await write('tests/smoke/00-install.yaml', DEPLOYMENT.replace('name: app', 'name: smoke'));
    await write('tests/smoke/00-assert.yaml', PARTIAL);
    await write('tests/smoke/01-patch.yaml', PARTIAL);
    await write('tests/smoke/01-invalid.yaml', PARTIAL);
    await write('tests/smoke/01-gone.yaml', PARTIAL);
    await write('tests/smoke/01-delete.yaml', PARTIAL);
    await write('tests/smoke/checks/pods-ready.yaml', PARTIAL);
    await write('tests/smoke/checks/notes.yaml', DEPLOYMENT.replace('name: app', 'name: other'));
    // A test by kuttl's naming: a step it applies, and its assertions.
    await write('tests/kuttl/00-install.yaml', DEPLOYMENT.replace('name: app', 'name: kuttl'));
    await write('tests/kuttl/00-assert.yaml', PARTIAL);
    await write('tests/kuttl/01-errors.yaml', PARTIAL);
    return dir;
  };

  it('reads what the tests apply, and sets the tests and their partial objects aside', async () => {
    const dir = await tree();
    const walked = await walkManifestTree(['.'], { cwd: dir });
    expect(walked.files.map((f) => f.display)).toEqual([
      'deploy/app.yaml',
      'tests/kuttl/00-install.yaml',
      'tests/smoke/00-install.yaml',
      'tests/smoke/checks/notes.yaml',
    ]);
    expect(walked.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['tests/kuttl/00-assert.yaml', 'test-assertion'],
      ['tests/kuttl/01-errors.yaml', 'test-assertion'],
      ['tests/smoke/00-assert.yaml', 'test-assertion'],
      ['tests/smoke/01-delete.yaml', 'test-assertion'],
      ['tests/smoke/01-gone.yaml', 'test-assertion'],
      ['tests/smoke/01-invalid.yaml', 'test-assertion'],
      ['tests/smoke/01-patch.yaml', 'test-assertion'],
      ['tests/smoke/chainsaw-test.yaml', 'chainsaw-test'],
      ['tests/smoke/checks/pods-ready.yaml', 'test-assertion'],
    ]);
    const say = (file: string) => walked.unrendered.find((u) => u.path === file)?.message;
    expect(say('tests/smoke/01-patch.yaml')).toBe(
      'a file tests/smoke/chainsaw-test.yaml patches with: partial objects, not resources; name the file to check it as manifests',
    );
    expect(say('tests/smoke/01-invalid.yaml')).toBe(
      'a file tests/smoke/chainsaw-test.yaml applies expecting the API server to refuse it: invalid on purpose; name the file to check it as manifests',
    );
    expect(say('tests/kuttl/00-assert.yaml')).toContain("by kuttl's and chainsaw's naming");
    expect(walked.findings).toEqual([]);
  });

  it('passes the repository the partial objects failed, and reads one given by name', async () => {
    const dir = await tree();
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings).toEqual([]);
    expect(read.resources).toHaveLength(4);
    const named = await readManifests(['tests/smoke/00-assert.yaml'], { cwd: dir });
    expect(named.findings.map((f) => f.code)).toContain('schema-violation');
  });

  it("reads a file named as kuttl names an assertion outside any test's directory: the name alone says nothing", async () => {
    // No chainsaw test, no step to apply beside them: no test runs these, and they were set
    // aside unchecked (exit 0, even with --strict).
    const dir = await temporaryDirectory('cosi-e2e-no-test-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    const invalid = DEPLOYMENT.replace('image: a }', 'image: a, imagePullPolicy: Sometimes }');
    await write('m/00-assert.yaml', invalid);
    await write('m/10-errors.yaml', invalid.replace('name: app', 'name: other'));
    await write('m/app.yaml', 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: ok }\n');
    await write('lone/10-errors.yaml', PARTIAL);
    const walked = await walkManifestTree(['.'], { cwd: dir });
    expect(walked.files.map((f) => f.display)).toEqual([
      'lone/10-errors.yaml',
      'm/00-assert.yaml',
      'm/10-errors.yaml',
      'm/app.yaml',
    ]);
    expect(walked.unrendered).toEqual([]);
    const read = await readManifests(['m'], { cwd: dir });
    expect(read.findings.map((f) => [f.code, f.file])).toEqual([
      ['schema-violation', 'm/00-assert.yaml'],
      ['schema-violation', 'm/10-errors.yaml'],
    ]);
  });

  it("sets aside only what a test asserts below its own directory: a test elsewhere cannot take a repository's manifests out of the check", async () => {
    const dir = await temporaryDirectory('cosi-e2e-elsewhere-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    await write(
      'tests/e2e/chainsaw-test.yaml',
      'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: { name: t }\nspec:\n  steps:\n    - try:\n        - assert: { file: ../../manifests/*.yaml }\n        - assert: { file: ready.yaml }\n',
    );
    await write('tests/e2e/ready.yaml', PARTIAL);
    await write(
      'manifests/app.yaml',
      DEPLOYMENT.replace('image: a }', 'image: a, imagePullPolicy: Sometimes }'),
    );
    const walked = await walkManifestTree(['.'], { cwd: dir });
    expect(walked.files.map((f) => f.display)).toEqual(['manifests/app.yaml']);
    expect(walked.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['tests/e2e/chainsaw-test.yaml', 'chainsaw-test'],
      ['tests/e2e/ready.yaml', 'test-assertion'],
    ]);
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings.map((f) => [f.code, f.file])).toEqual([
      ['schema-violation', 'manifests/app.yaml'],
    ]);
  });

  it('reads the files of a directory named on the command line whatever a test above it asserts', async () => {
    const dir = await temporaryDirectory('cosi-e2e-named-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    await write(
      'chainsaw-test.yaml',
      'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: { name: t }\nspec:\n  steps:\n    - try:\n        - assert: { file: manifests/*.yaml }\n        - assert: { file: ready.yaml }\n',
    );
    await write('ready.yaml', PARTIAL);
    await write(
      'manifests/app.yaml',
      DEPLOYMENT.replace('image: a }', 'image: a, imagePullPolicy: Sometimes }'),
    );
    const root = await walkManifestTree(['.'], { cwd: dir });
    expect(root.files.map((f) => f.display)).toEqual([]);
    const named = await walkManifestTree(['.', 'manifests'], { cwd: dir });
    expect(named.files.map((f) => f.display)).toEqual(['manifests/app.yaml']);
    expect(named.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['chainsaw-test.yaml', 'chainsaw-test'],
      ['ready.yaml', 'test-assertion'],
    ]);
  });

  it("given a test's directory alone, reads what it applies and asserts outside it, as chainsaw does", async () => {
    // kyverno/policies' .chainsaw-test/ directories apply `../policy.yaml`: given alone, the
    // directory held no manifest (`empty-input`), and the policy it tests went unchecked.
    const dir = await temporaryDirectory('cosi-e2e-outside-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    await write(
      'policy/.chainsaw-test/chainsaw-test.yaml',
      'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: { name: t }\nspec:\n  steps:\n    - try:\n        - apply: { file: ../app.yaml }\n        - assert: { file: ../ready.yaml }\n        - apply: { file: ../../shared/missing.yaml }\n',
    );
    await write(
      'policy/app.yaml',
      DEPLOYMENT.replace('image: a }', 'image: a, imagePullPolicy: Sometimes }'),
    );
    await write('policy/ready.yaml', PARTIAL);
    const walked = await walkManifestTree(['policy/.chainsaw-test'], { cwd: dir });
    expect(walked.files.map((f) => [f.display, f.appliedBy?.test])).toEqual([
      ['policy/app.yaml', 'policy/.chainsaw-test/chainsaw-test.yaml'],
    ]);
    expect(walked.unrendered.map((u) => [u.path, u.kind])).toEqual([
      ['policy/.chainsaw-test/chainsaw-test.yaml', 'chainsaw-test'],
      ['policy/ready.yaml', 'test-assertion'],
    ]);
    // A file that is not there is chainsaw's to report.
    expect(walked.findings).toEqual([]);
    const read = await readManifests(['policy/.chainsaw-test'], { cwd: dir });
    expect(read.findings.map((f) => [f.file, f.line, f.pointer])).toEqual([
      ['policy/app.yaml', 8, '/spec/template/spec/containers/0/imagePullPolicy'],
    ]);
  });
});

describe("the namespaces of a repository's chainsaw tests", () => {
  const test = (namespace?: string) => `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata: { name: t }
spec:
${namespace === undefined ? '' : `  namespace: ${namespace}\n`}  steps:
    - try:
        - apply: { file: install.yaml }
        - apply: { file: ../shared/runner.yaml }
`;
  // A ConfigMap that names no namespace, one that does and a cluster-scoped ClusterRole; the
  // last two named apart by `suffix`.
  const objects = (suffix: string) => `apiVersion: v1
kind: ConfigMap
metadata: { name: config }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: pinned${suffix}, namespace: monitoring }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata: { name: reader${suffix} }
`;

  /** Tests by directory: the namespace each names, and the suffix of its objects' names. */
  const repository = async (tests: Record<string, [string | undefined, string]>) => {
    const dir = await temporaryDirectory('cosi-e2e-namespaces-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    await write(
      'tests/shared/runner.yaml',
      'apiVersion: v1\nkind: ServiceAccount\nmetadata: { name: runner }\n',
    );
    for (const [name, [namespace, suffix]] of Object.entries(tests)) {
      await write(`tests/${name}/chainsaw-test.yaml`, test(namespace));
      await write(`tests/${name}/install.yaml`, objects(suffix));
    }
    return dir;
  };
  const namespaced = (read: Awaited<ReturnType<typeof readManifests>>) =>
    read.resources
      .map(({ resource: { metadata: m } }) => `${m.namespace}/${m.type.split('.')[0]}/${m.id}`)
      .filter((id) => !id.includes('ClusterRoles'));

  it("puts each test's objects that name no namespace in a namespace of the test's own", async () => {
    // Two tests of the same directory name, as tests/e2e/x and tests/e2e-openshift/x.
    const dir = await repository({
      'e2e/smoke': [undefined, '-1'],
      'e2e/Upgrade_v1': [undefined, '-2'],
      'e2e-openshift/smoke': [undefined, '-3'],
    });
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings).toEqual([]);
    // In path order, tests/e2e-openshift/ first: its smoke is chainsaw-smoke, the other -2.
    expect(namespaced(read)).toEqual([
      'chainsaw-smoke/ConfigMaps/config',
      'monitoring/ConfigMaps/pinned-3',
      'chainsaw-upgrade-v1/ConfigMaps/config',
      'monitoring/ConfigMaps/pinned-2',
      'chainsaw-smoke-2/ConfigMaps/config',
      'monitoring/ConfigMaps/pinned-1',
      // Applied by all three tests: read once, as written.
      'default/ServiceAccounts/runner',
    ]);
  });

  it('keeps the duplicates a cluster has: in a namespace two tests name or write, of a cluster-scoped kind', async () => {
    const dir = await repository({ a: ['shared', ''], b: ['shared', ''] });
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings.map((f) => `${f.file}:${f.line} ${f.message.split(' is ')[0]}`)).toEqual([
      'tests/b/install.yaml:3 ConfigMaps.core(shared/config)',
      'tests/b/install.yaml:7 ConfigMaps.core(monitoring/pinned)',
      'tests/b/install.yaml:11 ClusterRoles.rbac.authorization.k8s.io(reader)',
    ]);
  });
});

describe("a chainsaw test's later step that applies an object again", () => {
  const TEST = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata: { name: upgrade }
spec:
  steps:
    - try: [{ apply: { file: 00-install.yaml } }]
    - try: [{ update: { file: 01-update.yaml } }]
    - try: [{ apply: { file: 02-scale.yaml } }]
`;
  const deployment = (replicas: string) =>
    DEPLOYMENT.replace('spec:\n', `spec:\n  replicas: ${replicas}\n`);

  const repository = async (scale: string) => {
    const dir = await temporaryDirectory('cosi-e2e-revisions-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    await write(
      'tests/upgrade/chainsaw-test.yaml',
      TEST.replace('steps:', 'namespace: e2e\n  steps:'),
    );
    await write('tests/upgrade/00-install.yaml', deployment('1'));
    await write('tests/upgrade/01-update.yaml', deployment('2'));
    await write('tests/upgrade/02-scale.yaml', deployment(scale));
    // Another test's object of the same name in the same namespace (both name it) is a duplicate.
    await write(
      'tests/zz-twin/chainsaw-test.yaml',
      TEST.replace('steps:', 'namespace: e2e\n  steps:'),
    );
    await write('tests/zz-twin/00-install.yaml', deployment('5'));
    return dir;
  };
  const replicas = (read: Awaited<ReturnType<typeof readManifests>>) =>
    read.resources.map((r) => [
      r.source.file,
      (r.resource.spec as { spec: { replicas: number } }).spec.replicas,
    ]);

  it('updates it: the cluster holds the last revision the API server takes', async () => {
    const read = await readManifests(['.'], { cwd: await repository('3') });
    expect(replicas(read)).toEqual([['tests/upgrade/02-scale.yaml', 3]]);
    expect(
      read.findings.map((f) => `${f.file}:${f.line} ${f.code} ${f.message.split(' (')[0]}`),
    ).toEqual([
      'tests/zz-twin/00-install.yaml:3 duplicate-resource Deployments.apps(e2e/app) is already defined at tests/upgrade/00-install.yaml:3:19',
    ]);
  });

  it('keeps the one before a revision the API server refuses, and reports it', async () => {
    const read = await readManifests(['.'], { cwd: await repository('-1') });
    expect(replicas(read)).toEqual([['tests/upgrade/01-update.yaml', 2]]);
    expect(read.findings.map((f) => `${f.file} ${f.code}`)).toContain(
      'tests/upgrade/02-scale.yaml schema-violation',
    );
  });
});

describe("a chainsaw test's later step, checked as the update it is", () => {
  // A kind whose size is immutable once set, and whose name pattern an old object may break.
  const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: { name: volumes.example.com }
spec:
  group: example.com
  names: { kind: Volume, plural: volumes }
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size:
                  type: string
                  x-kubernetes-validations:
                    - { rule: self == oldSelf, message: size is immutable }
                tier: { type: string }
`;
  const volume = (size: string, tier: string) =>
    `apiVersion: example.com/v1\nkind: Volume\nmetadata: { name: data }\nspec: { size: ${size}, tier: ${tier} }\n`;

  const repository = async (steps: readonly string[]) => {
    const dir = await temporaryDirectory('cosi-e2e-updates-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    await write('crds/volume.yaml', CRD);
    const names = steps.map((_, i) => `0${i}-step.yaml`);
    const test = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata: { name: resize }
spec:
  steps:
${names.map((file) => `    - try: [{ apply: { file: ${file} } }]`).join('\n')}
`;
    await write('tests/resize/chainsaw-test.yaml', test);
    for (const [i, text] of steps.entries()) await write(`tests/resize/${names[i]}`, text);
    return dir;
  };
  const said = (read: Awaited<ReturnType<typeof readManifests>>) =>
    read.findings.map((f) => `${f.file}:${f.line}:${f.col} ${f.code}: ${f.message}`);

  it('runs its transition rules against the step before', async () => {
    const read = await readManifests(['.'], {
      cwd: await repository([volume('1Gi', 'gold'), volume('2Gi', 'gold')]),
    });
    expect(said(read)).toEqual([
      'tests/resize/01-step.yaml:4:15 cel-violation: Invalid value: "2Gi": size is immutable',
    ]);
    // Refused: the cluster keeps the step before.
    expect(read.resources.map((r) => r.source.file)).toEqual(['tests/resize/00-step.yaml']);
  });

  it('takes an update that keeps what the rules guard, and checks a later step against the last one taken', async () => {
    const read = await readManifests(['.'], {
      cwd: await repository([
        volume('1Gi', 'gold'),
        volume('1Gi', 'silver'),
        volume('3Gi', 'silver'),
        volume('1Gi', 'bronze'),
      ]),
    });
    // 02 is refused, so 03 updates 01: its size is the one there.
    expect(said(read)).toEqual([
      'tests/resize/02-step.yaml:4:15 cel-violation: Invalid value: "3Gi": size is immutable',
    ]);
    expect(read.resources.map((r) => r.source.file)).toEqual(['tests/resize/03-step.yaml']);
  });
});

describe("a chainsaw test's files, loaded in the order its steps apply them", () => {
  it('takes the later step as the update whatever the paths sort as', async () => {
    const dir = await temporaryDirectory('cosi-e2e-order-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    const config = (value: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: config }\ndata: { value: "${value}" }\n`;
    // kro's check-instance-update: instance-update.yaml sorts before instance.yaml.
    await write(
      'tests/update/chainsaw-test.yaml',
      `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata: { name: update }
spec:
  steps:
    - try: [{ apply: { file: instance.yaml } }, { assert: { file: instance-assert.yaml } }]
    - try: [{ apply: { file: instance-update.yaml } }]
`,
    );
    await write('tests/update/instance.yaml', config('first'));
    await write('tests/update/instance-assert.yaml', config('first'));
    await write('tests/update/instance-update.yaml', config('second'));
    await write('tests/update/notes.yaml', config('elsewhere').replace('config }', 'notes }'));
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings).toEqual([]);
    expect(
      read.resources.map((r) => `${r.resource.metadata.id} ${JSON.stringify(r.resource.spec)}`),
    ).toEqual(['config {"data":{"value":"second"}}', 'notes {"data":{"value":"elsewhere"}}']);
  });
});

describe("a chainsaw test's apply of what an operator made", () => {
  const TEST = `apiVersion: chainsaw.kyverno.io/v1alpha1
kind: Test
metadata: { name: annotate }
spec:
  steps:
    - try:
        - apply: { file: 00-install.yaml }
        - assert: { file: 00-assert.yaml }
    - try:
        - apply: { file: 01-annotate.yaml }
        - apply: { file: 01-config.yaml }
`;
  // The collector the operator makes from 00-install.yaml's custom resource.
  const MADE = `apiVersion: apps/v1
kind: Deployment
metadata: { name: collector }
status: { readyReplicas: 1 }
---
apiVersion: v1
kind: ConfigMap
metadata: { name: settings }
`;
  const ANNOTATE = (replicas: string) => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: collector
  annotations: { manual: "true" }
spec:
  replicas: ${replicas}
  template:
    metadata:
      annotations: { manual: "true" }
`;
  const CONFIG = (key: string) =>
    `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\n${key}: { a: b }\n`;

  const repository = async (replicas: string, key = 'data', made = MADE) => {
    const dir = await temporaryDirectory('cosi-e2e-patches-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    await write('tests/annotate/chainsaw-test.yaml', TEST);
    await write('tests/annotate/00-install.yaml', CONFIG('data'));
    await write('tests/annotate/00-assert.yaml', made);
    await write('tests/annotate/01-annotate.yaml', ANNOTATE(replicas));
    await write('tests/annotate/01-config.yaml', CONFIG(key));
    return dir;
  };

  it('is a patch: what it writes is checked, not the whole object it merges into', async () => {
    const read = await readManifests(['.'], { cwd: await repository('2') });
    expect(read.findings).toEqual([]);
    // The collector is the operator's; the ConfigMap the test made, then updated.
    expect(read.resources.map((r) => `${r.resource.metadata.id} ${r.source.file}`)).toEqual([
      'settings tests/annotate/01-config.yaml',
    ]);
  });

  it('is a patch too when the test asserts the objects of its kind by their labels', async () => {
    const byLabels = MADE.replace(
      'metadata: { name: collector }',
      'metadata: { labels: { app: c } }',
    );
    const read = await readManifests(['.'], { cwd: await repository('2', 'data', byLabels) });
    expect(read.findings).toEqual([]);
    // Asserted by nothing: a whole object, missing its selector and containers.
    const unasserted = MADE.replace('kind: Deployment', 'kind: StatefulSet');
    const whole = await readManifests(['.'], { cwd: await repository('2', 'data', unasserted) });
    expect(whole.findings.map((f) => `${f.file}:${f.line} ${f.message}`)).toContain(
      'tests/annotate/01-annotate.yaml:7 Required value',
    );
  });

  it("is a patch in a test by kuttl's naming too, after the step that asserts it", async () => {
    const dir = await temporaryDirectory('cosi-e2e-kuttl-patches-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    await write('tests/annotate/00-install.yaml', CONFIG('data'));
    await write('tests/annotate/00-assert.yaml', MADE);
    await write('tests/annotate/01-annotate.yaml', ANNOTATE('2'));
    await write('tests/annotate/01-assert.yaml', MADE);
    // Asserted only by a later step: a whole object, missing its selector.
    await write('tests/early/00-annotate.yaml', ANNOTATE('2'));
    await write('tests/early/01-assert.yaml', MADE);
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings.map((f) => `${f.file}:${f.line} ${f.message}`)).toEqual([
      'tests/early/00-annotate.yaml:7 Required value',
    ]);
    expect(read.resources.map((r) => `${r.resource.metadata.id} ${r.source.file}`)).toEqual([
      'settings tests/annotate/00-install.yaml',
    ]);
  });

  it('still reports what it writes wrong, and checks an object the test made as an update', async () => {
    const read = await readManifests(['.'], { cwd: await repository('two', 'dta') });
    expect(read.findings.map((f) => `${f.file}:${f.line}:${f.col} ${f.message}`)).toEqual([
      'tests/annotate/01-annotate.yaml:7:13 must be integer',
      'tests/annotate/01-config.yaml:4:1 unknown field "dta" (did you mean "data"?): the schema does not declare it, so kubectl refuses it (strict field validation, its default) and the API server alone would drop it',
    ]);
  });
});

describe("a test by kuttl's and chainsaw's naming alone (no chainsaw-test.yaml)", () => {
  it('applies its numbered steps in a namespace of its own, each an update of the one before', async () => {
    const dir = await temporaryDirectory('cosi-e2e-conventional-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    const config = (value: string) =>
      `apiVersion: v1\nkind: ConfigMap\nmetadata: { name: config }\ndata: { value: "${value}" }\n`;
    await write('tests/a/00-install.yaml', config('a0'));
    await write(
      'tests/a/00-assert.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: config }\n',
    );
    await write('tests/a/01-update.yaml', config('a1'));
    await write('tests/b/00-install.yaml', config('b0'));
    await write(
      'tests/b/00-assert.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: config }\n',
    );
    // Not a test's step: in the default namespace, as written.
    await write('tests/notes/install.yaml', config('n'));
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings).toEqual([]);
    expect(
      read.resources.map(({ resource: r }) => `${r.metadata.namespace} ${JSON.stringify(r.spec)}`),
    ).toEqual([
      'chainsaw-a {"data":{"value":"a1"}}',
      'chainsaw-b {"data":{"value":"b0"}}',
      'default {"data":{"value":"n"}}',
    ]);
  });
});

describe('a numbered step two chainsaw tests apply', () => {
  it("is no test's: read once, as written, in no test's namespace", async () => {
    const dir = await temporaryDirectory('cosi-e2e-shared-step-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    await write(
      'tests/k/00-install.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: config }\n',
    );
    await write(
      'tests/k/00-assert.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: config }\n',
    );
    for (const test of ['x', 'y']) {
      await write(
        `tests/${test}/chainsaw-test.yaml`,
        'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: { name: t }\nspec:\n  steps: [{ try: [{ apply: { file: ../k/00-install.yaml } }] }]\n',
      );
    }
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings).toEqual([]);
    expect(read.resources.map((r) => r.resource.metadata.namespace)).toEqual(['default']);
  });
});

describe("a chainsaw test's expressions in the files it applies", () => {
  it('binds $namespace to the test namespace, in a value or a join, and leaves other expressions', async () => {
    const dir = await temporaryDirectory('cosi-e2e-expressions-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    const objects = `apiVersion: v1
kind: ServiceAccount
metadata: { name: collector, namespace: ($namespace) }
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata:
  name: (join('-', ['collector', $namespace]))
roleRef: { apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view }
subjects: [{ kind: ServiceAccount, name: collector, namespace: ($namespace) }]
`;
    for (const test of ['a', 'b']) {
      await write(
        `tests/${test}/chainsaw-test.yaml`,
        'apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: { name: t }\nspec:\n  steps: [{ try: [{ apply: { file: install.yaml } }] }]\n',
      );
      await write(`tests/${test}/install.yaml`, objects);
    }
    // Not applied by a test: the expression is what is written, and no name.
    await write('deploy/account.yaml', objects.split('---')[0] ?? '');
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.findings.map((f) => `${f.file}:${f.line}:${f.col} ${f.code}`)).toEqual([
      'deploy/account.yaml:3:41 invalid-namespace',
    ]);
    const bindings = read.resources
      .filter((r) => r.resource.metadata.type.startsWith('ClusterRoleBindings'))
      .map((r) => [
        r.resource.metadata.id,
        (r.resource.spec as { subjects: { namespace: string }[] }).subjects[0]?.namespace,
      ]);
    expect(bindings).toEqual([
      ['collector-chainsaw-a', 'chainsaw-a'],
      ['collector-chainsaw-b', 'chainsaw-b'],
    ]);
  });
});

describe('the namespace a test names, and a test that evaluates no expressions', () => {
  it('makes no namespace that another test names, and reads ($namespace) as written with template: false', async () => {
    const dir = await temporaryDirectory('cosi-e2e-named-');
    const write = (file: string, text: string) => writeBelow(dir, file, text);
    const test = (spec: string) =>
      `apiVersion: chainsaw.kyverno.io/v1alpha1\nkind: Test\nmetadata: { name: t }\nspec:\n${spec}  steps: [{ try: [{ apply: { file: install.yaml } }] }]\n`;
    const config = 'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: config }\n';
    // Sorted first, its directory's namespace would be the one the other test names.
    await write('tests/a/smoke/chainsaw-test.yaml', test(''));
    await write('tests/a/smoke/install.yaml', config);
    await write('tests/b/chainsaw-test.yaml', test('  namespace: chainsaw-smoke\n'));
    await write('tests/b/install.yaml', config);
    await write('tests/c/chainsaw-test.yaml', test('  template: false\n'));
    await write(
      'tests/c/install.yaml',
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: config, namespace: ($namespace) }\n',
    );
    const read = await readManifests(['.'], { cwd: dir });
    expect(read.resources.map((r) => r.resource.metadata.namespace)).toEqual([
      'chainsaw-smoke-2',
      'chainsaw-smoke',
    ]);
    expect(read.findings.map((f) => `${f.file} ${f.code}`)).toEqual([
      'tests/c/install.yaml invalid-namespace',
    ]);
  });
});
