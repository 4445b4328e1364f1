import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO, cli } from './run-cli.js';

const SCENARIOS = 'fixtures/scenarios';
const WRONG = `${SCENARIOS}/failing/vm-network-wrong.cosi-test.yaml`;

describe('cosi test', () => {
  it('passes the scenarios of vm-network, kubernetes, kro-webapp, kro-external-ref and yaml-transforms, step by step', async () => {
    const { code, stdout } = await cli(['test', `${SCENARIOS}/passing`]);
    expect(stdout).toBe('scenarios: 5 passed, 0 failed (steps: 43 passed, 0 failed)\n');
    expect(code).toBe(0);
  }, 60_000);

  it('takes its paths after -f too, as every other command (review cli3 L6)', async () => {
    const one = `${SCENARIOS}/passing/vm-network.cosi-test.yaml`;
    const byArgument = await cli(['test', one, WRONG]);
    const byFlag = await cli(['test', '-f', one, '-f', WRONG]);
    expect(byFlag).toEqual(byArgument);
    expect(byFlag.code).toBe(1);
    expect(await cli(['test', one, '-f', WRONG])).toEqual(byArgument);
    expect(await cli(['test', '-f', `${one},${WRONG}`])).toEqual(byArgument);
  }, 60_000);

  it('fails a wrong expectation with a diff at the line of the scenario', async () => {
    const { code, stdout } = await cli(['test', WRONG]);
    expect(code).toBe(1);
    expect(stdout).toContain(
      `${WRONG}:8:7: error[unexpected-state]: NetworkConfigs.example.org(default/web-1) differs from the expected document`,
    );
    expect(stdout).toContain('    -  bridge: br-alpine\n    +  bridge: br-debian');
    expect(stdout).toContain(`${WRONG}:6:5: error[step-failed]: 1 later step not run`);
    expect(stdout).toContain('0 passed, 1 failed, 1 skipped');
  }, 60_000);

  it('reports in the formats of cosi check', async () => {
    const junit = await cli(['test', WRONG, '-o', 'junit']);
    expect(junit.stdout).toMatch(
      new RegExp(
        `<testsuite name="${WRONG}" tests="2" failures="1" skipped="1" time="\\d+\\.\\d{3}">`,
      ),
    );
    expect(junit.stdout).toContain(
      '› 2. expect-absent" file="fixtures/scenarios/failing/vm-network-wrong.cosi-test.yaml" time="0.000"><skipped message="not run: an earlier step failed"/></testcase>',
    );
    expect(junit.stdout).toContain('<testsuites name="cosi test" tests="2"');
    expect(junit.stdout).toContain('<failure type="unexpected-state"');
    expect(junit.stdout).toContain('+  bridge: br-debian');
    const tap = await cli(['test', WRONG, '-o', 'tap']);
    expect(tap.stdout).toContain(
      `not ok 1 - scenarios: ${WRONG} › wrong expectations of vm-network › 1. web-1 is expected on the wrong bridge`,
    );
    expect(tap.stdout).toContain(
      `ok 2 - scenarios: ${WRONG} › wrong expectations of vm-network › 2. expect-absent # SKIP not run: an earlier step failed`,
    );
    expect(tap.stdout).toContain('      diff: "--- ');
    expect(tap.stdout).toContain('\\n-  bridge: br-alpine\\n+  bridge: br-debian"');
    const github = await cli(['test', WRONG, '-o', 'github']);
    expect(github.stdout).toContain(
      `::error file=${WRONG},line=8,col=7,title=scenarios%3A unexpected-state::`,
    );
    const json = JSON.parse((await cli(['test', WRONG, '-o', 'json'])).stdout) as {
      failed: number;
      cases: { name: string; failed: boolean; findings: { code: string; line: number }[] }[];
    };
    expect(json.failed).toBe(1);
    expect(json).not.toHaveProperty('resources');
    expect(json.cases[0]?.findings.map((f) => [f.code, f.line])).toEqual([
      ['unexpected-state', 8],
      ['step-failed', 6],
    ]);
    expect(junit.code).toBe(1);
  }, 60_000);

  it('reports JUnit as vitest and jest do: a suite per scenario file, the file as the class, a time for each step, suite and run', async () => {
    const passing = `${SCENARIOS}/passing/vm-network.cosi-test.yaml`;
    const { code, stdout } = await cli(['test', passing, WRONG, '-o', 'junit']);
    expect(code).toBe(1);
    // The files in path order, as the text report lists them.
    const suites = [
      ...stdout.matchAll(/<testsuite name="([^"]*)" tests="(\d+)"[^>]* time="([\d.]+)">/g),
    ].map(([, name, tests, time]) => ({ name, tests: Number(tests), time: Number(time) }));
    expect(suites.map((x) => x.name)).toEqual([WRONG, passing]);
    expect(suites[0]?.tests).toBe(2);
    const cases = [
      ...stdout.matchAll(
        /<testcase classname="([^"]*)" name="([^"]*)" file="([^"]*)" time="([\d.]+)"/g,
      ),
    ].map(([, classname, name, file, time]) => ({ classname, name, file, time: Number(time) }));
    expect(cases.length).toBe(2 + (suites[1]?.tests ?? 0));
    for (const c of cases) expect(c.file).toBe(c.classname);
    // The name is the scenario and the step; the file is the class.
    expect(cases[0]).toMatchObject({
      classname: WRONG,
      name: 'wrong expectations of vm-network › 1. web-1 is expected on the wrong bridge',
    });
    // A suite's time holds its steps' and its scenarios' starts (config, manifests, first
    // convergence); the run's, its suites'.
    const steps = cases.filter((c) => c.classname === passing).map((c) => c.time);
    const sum = steps.reduce((x, y) => x + y, 0);
    expect(suites[1]?.time).toBeGreaterThan(0);
    expect(suites[1]?.time ?? 0).toBeGreaterThanOrEqual(sum - 0.01);
    const root = /<testsuites name="cosi test" [^>]*time="([\d.]+)">/.exec(stdout);
    expect(Number(root?.[1])).toBeCloseTo((suites[0]?.time ?? 0) + (suites[1]?.time ?? 0), 2);
    // The failure: its message and, in its text, the place and the diff.
    expect(stdout).toContain(
      '<failure type="unexpected-state" message="NetworkConfigs.example.org(default/web-1) differs from the expected document (and 1 more finding)">' +
        `${WRONG}:8:7: unexpected-state:`,
    );
    expect(stdout).toContain('-  bridge: br-alpine\n+  bridge: br-debian');
  }, 60_000);

  it('reports every problem of a broken scenario file at its place, and exits 2', async () => {
    const { code, stdout } = await cli(['test', `${SCENARIOS}/broken`]);
    const file = `${SCENARIOS}/broken/bad-steps.cosi-test.yaml`;
    expect(stdout.split('\n').filter((l) => l.startsWith(file))).toEqual([
      `${file}:4:1: error[invalid-scenario]: unknown key "stepz" in a scenario (known: name, config, manifests, kubernetesVersion, converge, steps)`,
      `${file}:6:5: error[invalid-scenario]: a step has one kind, not apply and expect`,
      `${file}:8:14: error[invalid-scenario]: \`advance\` takes a duration: 30s, 5m, 1h30m, 500ms`,
      `${file}:9:20: error[invalid-scenario]: a resource reference needs \`type\` and \`id\``,
      `${file}:10:5: error[invalid-scenario]: unknown step "explode": a step needs one of apply, edit, destroy, advance, expect, expect-absent, expect-findings, expect-converged`,
      `${file}:11:5: error[invalid-scenario]: unknown step "expct-absent" (did you mean "expect-absent"?): a step needs one of apply, edit, destroy, advance, expect, expect-absent, expect-findings, expect-converged`,
    ]);
    expect(code).toBe(2);
  });

  it('says that a key after an empty step is probably meant to be indented under it', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-test-indent-'));
    try {
      const file = path.join(dir, 'indent.cosi-test.yaml');
      await writeFile(
        file,
        [
          'name: a newcomer writes an expect',
          `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
          'steps:',
          '  - expect:',
          '    metadata: { type: NetworkConfig, id: web-1 }',
          '    spec: { bridge: br-debian }',
          '',
        ].join('\n'),
      );
      const { code, stdout } = await cli(['test', file]);
      expect(stdout).toContain(
        'indent.cosi-test.yaml:5:5: error[invalid-scenario]: unknown key "metadata" in an expect step (known: expect, name); `expect` above it is empty: is it meant to be indented under `expect`?',
      );
      expect(stdout).toContain(
        'indent.cosi-test.yaml:6:5: error[invalid-scenario]: unknown key "spec" in an expect step (known: expect, name); `expect` above it is empty: is it meant to be indented under `expect`?',
      );
      expect(code).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('exits 2 when there is no scenario to run', async () => {
    const { code, stdout } = await cli(['test', 'fixtures/minimal']);
    // What to write, where to read of it: a fresh cosi init project has none yet.
    expect(stdout).toContain(
      'no scenario files (*.cosi-test.yaml) found below fixtures/minimal: write one, a YAML file of name, steps (apply, edit, expect, ...) and, unless the config names them, manifests (cosi\'s docs/testing.md, "Scenarios: cosi test")',
    );
    expect(code).toBe(2);
    // One summary line, which counts no scenario or step that does not exist: it printed
    // `scenarios: 0 passed, 1 failed (steps: 0 passed, 1 failed)` and then `0 passed, 1 failed`.
    expect(stdout.endsWith('\n\nscenarios: none run\n')).toBe(true);
  });
});

describe('cosi test, on scenarios written here', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function scenario(name: string, text: string): Promise<string> {
    const file = path.join(dir, `${name}.cosi-test.yaml`);
    await writeFile(file, text);
    return file;
  }

  it("reports an inline document's schema errors at its line in the scenario", async () => {
    const file = await scenario(
      'invalid-apply',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - apply:',
        '      metadata: { type: vm, id: bad }',
        '      spec: { cpus: 0, image: debian, host: node-a }',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toContain(
      'invalid-apply.cosi-test.yaml:5:21: error[schema-violation]: must be >= 1 (at /spec/cpus)',
    );
    expect(code).toBe(1);
  });

  it("names an applied file's findings relative to the working directory, as the scenario's own", async () => {
    await mkdir(path.join(dir, 'steps'), { recursive: true });
    await writeFile(
      path.join(dir, 'steps/bad-vm.yaml'),
      'metadata: { type: vm, id: bad }\nspec: { cpus: 0, image: debian, host: node-a }\n',
    );
    const file = path.join(dir, 'steps/apply-file.cosi-test.yaml');
    await writeFile(
      file,
      [
        'name: a file of a bad VM',
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - apply: bad-vm.yaml',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', 'steps'], { cwd: dir });
    expect(stdout.split('\n').filter((l) => l.includes('error['))).toEqual([
      'steps/bad-vm.yaml:2:15: error[schema-violation]: must be >= 1 (at /spec/cpus)',
    ]);
    const junit = await cli(['test', 'steps', '-o', 'junit'], { cwd: dir });
    expect(junit.stdout).toContain('>steps/bad-vm.yaml:2:15');
    expect(junit.stdout).not.toContain(dir);
    expect(code).toBe(1);
  });

  it('reports errors of the 2nd and 3rd inline documents of a list, and of a deeply indented one, at their lines and columns in the scenario', async () => {
    const vm = (id: string, cpus: number): string =>
      `{ metadata: { type: vm, id: ${id} }, spec: { cpus: ${cpus}, image: debian, host: node-a } }`;
    const manifests = `manifests: ${path.join(REPO, 'fixtures/vm-network')}`;
    const file = await scenario(
      'inline-places',
      [
        manifests,
        'steps:',
        '  - apply:',
        '      - metadata: { type: vm, id: first }',
        '        spec: { cpus: 1, image: debian, host: node-a }',
        '      - metadata: { type: vm, id: second }',
        '        spec: { cpus: 0, image: debian, host: node-a }',
        '      - metadata: { type: vm, id: third }',
        '        spec:',
        '          cpus: 1',
        '          image: debian',
        '          host: node-a',
        '          extra: 1',
        '---',
        manifests,
        'steps:',
        `  - apply: [${vm('first', 1)}, ${vm('second', 0)}, ${vm('third', -1)}]`,
        '---',
        manifests,
        'steps:',
        '  - expect-absent: { type: vm, id: deep }',
        '  - name: an apply indented further',
        '    apply:',
        '          -   metadata: { type: vm, id: deep }',
        '              spec:',
        '                  cpus: 1',
        '                  image: debian',
        '                  host: node-a',
        '                  labels: 1',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    const errors = stdout.split('\n').filter((l) => l.includes('error[schema-violation]'));
    const flowLine = `  - apply: [${vm('first', 1)}, ${vm('second', 0)}, ${vm('third', -1)}]`;
    const second = flowLine.indexOf('cpus: 0') + 7;
    const third = flowLine.indexOf('cpus: -1') + 7;
    expect(errors).toEqual([
      'inline-places.cosi-test.yaml:7:23: error[schema-violation]: must be >= 1 (at /spec/cpus)',
      'inline-places.cosi-test.yaml:13:11: error[schema-violation]: unknown field "extra" (at /spec/extra)',
      `inline-places.cosi-test.yaml:17:${second}: error[schema-violation]: must be >= 1 (at /spec/cpus)`,
      `inline-places.cosi-test.yaml:17:${third}: error[schema-violation]: must be >= 1 (at /spec/cpus)`,
      'inline-places.cosi-test.yaml:29:19: error[schema-violation]: unknown field "labels" (at /spec/labels)',
    ]);
    expect(code).toBe(1);
  });

  it('checks an edit or apply of a manifest as an update: a transition rule (self == oldSelf) refuses it, at the step', async () => {
    const file = await scenario(
      'immutable',
      [
        `manifests: ${path.join(REPO, 'fixtures/cel/crd/v1')}`,
        'steps:',
        '  - edit: { type: Database, id: orders, namespace: shop, spec: { spec: { engine: mysql } } }',
        '    expect-error: cel-violation',
        '  - apply:',
        '      apiVersion: cel.example.org/v1',
        '      kind: Database',
        '      metadata: { name: orders, namespace: shop }',
        '      spec: { engine: mysql, replicas: 3, storage: 20Gi }',
        '    expect-error: { code: cel-violation, message: engine is immutable }',
        '  - name: a field without the rule changes',
        '    edit: { type: Database, id: orders, namespace: shop, spec: { spec: { replicas: 5 } } }',
        '  - expect: { apiVersion: cel.example.org/v1, kind: Database, metadata: { name: orders, namespace: shop }, spec: { engine: postgres, replicas: 5 } }',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/cel/crd/v1')}`,
        'steps:',
        '  - edit: { type: Database, id: orders, namespace: shop, spec: { spec: { engine: mysql } } }',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toContain(
      'immutable.cosi-test.yaml:17:5: error[cel-violation]: engine is immutable (at /spec/spec/engine)',
    );
    // Every step of the first scenario passes; the second's one edit is refused.
    expect(stdout).toMatch(/^scenarios: 0 passed, 1 failed \(steps: 4 passed, 1 failed\)$/m);
    expect(code).toBe(1);
  });

  it('fails an expect-error that was not refused, and a finding that is not there', async () => {
    const file = await scenario(
      'not-refused',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - apply: { metadata: { type: vm, id: fine }, spec: { cpus: 1, image: debian, host: node-a } }',
        '    expect-error: schema-violation',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/cli/failing-controller')}`,
        'steps:',
        '  - expect-findings: [{ code: reconcile-failed, message: lonely }, controller-recovered]',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toContain(
      'not-refused.cosi-test.yaml:3:5: error[missing-error]: expected the step to be refused with [schema-violation], but it was applied',
    );
    expect(stdout).toContain(
      'not-refused.cosi-test.yaml:8:68: error[missing-finding]: expected a finding [controller-recovered], but there is 1 other',
    );
    expect(stdout).toContain('error[reconcile-failed]');
    expect(stdout).not.toContain('message matching lonely');
    expect(code).toBe(1);
  });

  it('fails an expect-absent on a misspelt dotted type or namespace, at its place', async () => {
    const file = await scenario(
      'absent-typo',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - expect-absent: { type: NetworkConfigs.example.og, id: web-1 }',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - expect-absent: { type: vm, id: web-1, namespace: defualt }',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toContain(
      'absent-typo.cosi-test.yaml:3:20: error[step-failed]: resource type "NetworkConfigs.example.og" is not registered and no resource of it has existed, so nothing of it could be there (did you mean "NetworkConfigs.example.org"?)',
    );
    expect(stdout).toContain(
      'absent-typo.cosi-test.yaml:7:20: error[step-failed]: namespace "defualt" has never held a resource',
    );
    expect(stdout).toContain('0 passed, 2 failed');
    expect(code).toBe(1);
  });

  it('never takes a step that cannot be carried out for the refusal expect-error waits for', async () => {
    const file = await scenario(
      'not-carried-out',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - edit: { type: vm, id: web-9, spec: { cpus: 0 } }',
        '    expect-error: true',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - apply: no-such-vm.yaml',
        '    expect-error: true',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - destroy: { type: vmz, id: web-1 }',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - edit: { type: vm, id: web-1, spec: { cpus: 0 } }',
        '    expect-error: true',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout.split('\n').filter((l) => l.includes('error['))).toEqual([
      'not-carried-out.cosi-test.yaml:3:5: error[invalid-scenario]: the step cannot be carried out: edit: VMs.example.org default/web-9 is not a manifest of the project (its manifests of that type: db-1, web-1, web-2)',
      'not-carried-out.cosi-test.yaml:8:5: error[invalid-scenario]: the step cannot be carried out: no-such-vm.yaml does not exist',
      'not-carried-out.cosi-test.yaml:13:5: error[invalid-scenario]: the step cannot be carried out: resource type "vmz" is not registered (did you mean "vms"?)',
    ]);
    expect(stdout).toContain('1 passed, 3 failed');
    expect(code).toBe(2);
  });

  it('takes TYPE/ID references as kubectl writes them, in destroy and expect-absent', async () => {
    const file = await scenario(
      'slash-refs',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - destroy: vm/web-2',
        '  - expect-absent: [NetworkConfig/web-2, vm/web-2]',
        '  - expect-absent: vm/web-1',
        '',
      ].join('\n'),
    );
    const bare = await scenario(
      'bare-id',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - destroy: web-2',
        '',
      ].join('\n'),
    );
    const { stdout } = await cli(['test', file, bare], { cwd: dir });
    expect(stdout.split('\n').filter((l) => l.includes('error['))).toEqual([
      'bare-id.cosi-test.yaml:3:14: error[invalid-scenario]: expected a resource reference: TYPE/ID, { type, id }, { apiVersion, kind, name }, or a path to a file of documents (configmap.yaml)',
      'slash-refs.cosi-test.yaml:5:20: error[unexpected-resource]: expected VMs.example.org(default/web-1) not to exist, but it does (version 3, owner the manifests, phase running, finalizers vmnet.NetworkConfigController, PlacementController)',
    ]);
    expect(stdout).toContain('2 passed, 2 failed');
  });

  it('says a scenario that names no manifests, in a directory without a config, loads none', async () => {
    const empty = await mkdtemp(path.join(tmpdir(), 'cosi-test-empty-'));
    try {
      await writeFile(
        path.join(empty, 'e.cosi-test.yaml'),
        'steps:\n  - expect: { apiVersion: kro.run/v1alpha1, kind: WebApp, metadata: { name: blog } }\n',
      );
      const { stdout } = await cli(['test', 'e.cosi-test.yaml'], { cwd: empty });
      // At the expected document that names the type (2:13), not at its step (2:5).
      expect(stdout).toContain(
        'e.cosi-test.yaml:2:13: error[invalid-scenario]: the step cannot be carried out: resource type "WebApp" is not registered (the scenario loads no manifests: name them with `manifests:`, or in the config)',
      );
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('takes an assert file as expect: its documents matched, a failure placed in that file', async () => {
    await writeFile(
      path.join(dir, 'assert-vms.yaml'),
      [
        'metadata: { type: NetworkConfig, id: web-1 }',
        'spec: { bridge: br-debian }',
        '---',
        'metadata: { type: NetworkConfig, id: web-2 }',
        'spec: { bridge: br-nope }',
        '',
      ].join('\n'),
    );
    const file = await scenario(
      'assert-file',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - expect: assert-vms.yaml',
        '',
      ].join('\n'),
    );
    const missing = await scenario(
      'assert-missing',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - expect: [no-such-assert.yaml]',
        '',
      ].join('\n'),
    );
    const { stdout } = await cli(['test', file, missing], { cwd: dir });
    expect(stdout.split('\n').filter((l) => l.includes('error['))).toEqual([
      'assert-vms.yaml:4:1: error[unexpected-state]: NetworkConfigs.example.org(default/web-2) differs from the expected document (in the expect step at assert-file.cosi-test.yaml:3:5)',
      'assert-missing.cosi-test.yaml:3:14: error[invalid-scenario]: `expect`: no-such-assert.yaml does not exist (a path is relative to the scenario)',
    ]);
    expect(stdout).toContain('-  bridge: br-nope');
  });

  it('takes a file as expect-absent and destroy, as chainsaw error and delete, and chainsaw ref', async () => {
    // kro's e2e check-external-references: `error: { file: configmap.yaml }`.
    await writeFile(
      path.join(dir, 'no-ingress.yaml'),
      'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: blog\n',
    );
    await writeFile(
      path.join(dir, 'shop.yaml'),
      'apiVersion: kro.run/v1alpha1\nkind: WebApp\nmetadata:\n  name: shop\n',
    );
    await writeFile(
      path.join(dir, 'shop-outputs.yaml'),
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata: { name: shop }',
        '---',
        'apiVersion: v1',
        'kind: Service',
        'metadata: { name: shop-svc }',
        '',
      ].join('\n'),
    );
    const file = await scenario(
      'absent-files',
      [
        `manifests: ${path.join(REPO, 'fixtures/kro-webapp')}`,
        'steps:',
        '  - expect-absent: no-ingress.yaml',
        '  - expect-absent: { apiVersion: networking.k8s.io/v1, kind: Ingress, name: blog }',
        '  - destroy: shop.yaml',
        '  - expect-absent: [shop-outputs.yaml, webapp/shop]',
        '',
      ].join('\n'),
    );
    const present = await scenario(
      'present-files',
      [
        `manifests: ${path.join(REPO, 'fixtures/kro-webapp')}`,
        'steps:',
        '  - expect-absent: shop-outputs.yaml',
        '',
      ].join('\n'),
    );
    const missing = await scenario(
      'missing-file',
      [
        `manifests: ${path.join(REPO, 'fixtures/kro-webapp')}`,
        'steps:',
        '  - expect-absent: no-such-file.yaml',
        '  - destroy: ../nope/absent.yaml',
        '',
      ].join('\n'),
    );
    const passing = await cli(['test', file], { cwd: dir });
    expect(passing.stdout).toBe('scenarios: 1 passed, 0 failed (steps: 4 passed, 0 failed)\n');
    expect(passing.code).toBe(0);
    const failing = await cli(['test', present, missing], { cwd: dir });
    expect(failing.code).toBe(2);
    expect(failing.stdout.split('\n').filter((l) => l.includes('error['))).toEqual([
      'missing-file.cosi-test.yaml:3:20: error[invalid-scenario]: `expect-absent`: no-such-file.yaml does not exist (a path is relative to the scenario)',
      'missing-file.cosi-test.yaml:4:14: error[invalid-scenario]: `destroy`: ../nope/absent.yaml does not exist (a path is relative to the scenario)',
      expect.stringMatching(
        /^shop-outputs\.yaml:1:1: error\[unexpected-resource\]: .*Deployments\.apps\(default\/shop\)/,
      ),
      expect.stringMatching(
        /^shop-outputs\.yaml:5:1: error\[unexpected-resource\]: .*Services\.core\(default\/shop-svc\)/,
      ),
    ]);
  });

  it('lists the findings there are beside a missing one whole, folded, not cut in the middle', async () => {
    const file = await scenario(
      'long-findings',
      [
        `manifests: ${path.join(REPO, 'fixtures/kro-examples/webapp')}`,
        'steps:',
        '  - expect-findings: [{ code: rgd-waiting, message: nothing-like-this }]',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(code).toBe(1);
    expect(stdout).toContain('but there is 1 other');
    expect(stdout).not.toContain('characters cut');
    // The advice at the end of the finding is there, on a folded line.
    expect(stdout).toContain('with its status)');
  });

  it('a missing resource in a namespace names those of its type in the other namespaces', async () => {
    const file = await scenario(
      'other-namespace',
      [
        `manifests: ${path.join(REPO, 'fixtures/kro-webapp')}`,
        'steps:',
        '  - expect: { apiVersion: apps/v1, kind: Deployment, metadata: { name: shop, namespace: prod } }',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toContain(
      'error[missing-resource]: expected Deployments.apps(prod/shop), but it does not exist (none in namespace prod; of that type: default/blog, default/shop)',
    );
    expect(code).toBe(1);
  });

  it('an RGD applied by a step is a step that cannot be carried out: its instances would never render', async () => {
    const file = await scenario(
      'rgd-later',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        `  - apply: ${path.join(REPO, 'fixtures/kro-webapp/rgd.yaml')}`,
        '  - expect-converged: true',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toContain(
      'rgd-later.cosi-test.yaml:3:5: error[invalid-scenario]: the step cannot be carried out: apply: the ResourceGraphDefinition webapp.kro.run is not among the manifests the project started with',
    );
    expect(code).toBe(2);
  });

  it("edit takes a merge patch of the object, as kubectl patch --type merge: a Kubernetes kind's fields, a cosi type's spec, labels", async () => {
    await writeFile(
      path.join(dir, 'settings.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: settings }\ndata: { mode: a }\n',
    );
    const file = await scenario(
      'patches',
      [
        'manifests: [settings.yaml]',
        'steps:',
        '  - edit: { type: ConfigMap, id: settings, patch: { data: { mode: b }, metadata: { labels: { tier: web } } } }',
        '  - expect:',
        '      apiVersion: v1',
        '      kind: ConfigMap',
        '      metadata: { name: settings, labels: { tier: web } }',
        '      data: { mode: b }',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - edit: { type: vm, id: web-1, patch: { spec: { image: alpine } } }',
        '  - expect: { metadata: { type: NetworkConfig, id: web-1 }, spec: { bridge: br-alpine } }',
        '  - edit: { type: vm, id: web-1, patch: { data: { image: x } } }',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    const errors = stdout.split('\n').filter((l) => l.includes('error['));
    // A cosi resource has no `data`: the step says so rather than merging it somewhere.
    expect(errors).toEqual([
      expect.stringMatching(
        /^patches\.cosi-test\.yaml:14:5: error\[\S+\]: .*patch: a cosi resource has metadata and spec, not "data"/,
      ),
    ]);
    expect(stdout).toContain('4 passed, 1 failed');
    expect(code).not.toBe(0);
  });

  it('edit patch cannot rename an object, and null removes every label', async () => {
    await writeFile(
      path.join(dir, 'labelled.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata: { name: labelled, labels: { a: one, b: two } }\ndata: { mode: a }\n',
    );
    const unlabelled = await scenario(
      'unlabelled',
      [
        'manifests: [labelled.yaml]',
        'steps:',
        '  - edit: { type: ConfigMap, id: labelled, patch: { metadata: { labels: null } } }',
        '  - expect: { apiVersion: v1, kind: ConfigMap, metadata: { name: labelled, labels: { a: one } } }',
        '',
      ].join('\n'),
    );
    // The label is gone: the expectation that it is there fails.
    const gone = await cli(['test', unlabelled], { cwd: dir });
    expect(gone.stdout).toMatch(/unlabelled\.cosi-test\.yaml:4:\d+: error\[unexpected-state\]/);
    const renamed = await scenario(
      'renamed',
      [
        'manifests: [labelled.yaml]',
        'steps:',
        '  - edit: { type: ConfigMap, id: labelled, patch: { metadata: { name: other } } }',
        '',
      ].join('\n'),
    );
    const refused = await cli(['test', renamed], { cwd: dir });
    expect(refused.stdout).toMatch(
      /renamed\.cosi-test\.yaml:3:5: error\[step-failed\]: the step threw: patch: metadata\.name name the object, and a patch cannot change which object it is/,
    );
  });

  it('expect-absent of a cluster-scoped kind ignores the namespace the step names, as kubectl ignores -n', async () => {
    await writeFile(
      path.join(dir, 'namespaces.yaml'),
      'apiVersion: v1\nkind: Namespace\nmetadata: { name: shop }\n',
    );
    const file = await scenario(
      'cluster-scoped',
      [
        'manifests: [namespaces.yaml]',
        'steps:',
        '  - expect-absent: { type: Namespace, id: shop, namespace: team-a }',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toMatch(
      /cluster-scoped\.cosi-test\.yaml:3:20: error\[unexpected-resource\]: expected Namespaces\.core\(\S*shop\) not to exist, but it does/,
    );
    expect(code).toBe(1);
  });

  it('refuses a scenario with no steps and a reference with no ids, at their place, in every format', async () => {
    const file = await scenario(
      'checks-nothing',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps: []',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - expect-absent: { type: vm, ids: [] }',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - expect-findings: []',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - expect: deployment-assert.yaml',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout.split('\n').filter((l) => l.includes('error['))).toEqual([
      'checks-nothing.cosi-test.yaml:2:8: error[invalid-scenario]: `steps` is empty: a scenario needs at least one step',
      'checks-nothing.cosi-test.yaml:6:37: error[invalid-scenario]: `ids` is empty: name at least one id',
      'checks-nothing.cosi-test.yaml:10:22: error[invalid-scenario]: `expect-findings` is empty: name at least one finding (a code, or { code, message?, file?, severity? }); each must be among the findings',
      'checks-nothing.cosi-test.yaml:14:13: error[invalid-scenario]: `expect`: deployment-assert.yaml does not exist (a path is relative to the scenario)',
    ]);
    expect(code).toBe(2);
    const tap = await cli(['test', file, '-o', 'tap'], { cwd: dir });
    expect(tap.stdout).toContain('1..1\nnot ok 1 - scenarios: checks-nothing.cosi-test.yaml');
    const junit = await cli(['test', file, '-o', 'junit'], { cwd: dir });
    expect(junit.stdout).toContain('tests="1" failures="1"');
  });

  it('fails expect-converged with the whole reason: which controller failed on which item', async () => {
    const file = await scenario(
      'not-converged',
      [
        `manifests: ${path.join(REPO, 'fixtures/cli/failing-controller')}`,
        'steps:',
        '  - expect-converged: true',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toContain(
      'not-converged.cosi-test.yaml:3:5: error[not-converged]: expected the controllers to converge, but they did not (failing)\n    ',
    );
    expect(stdout).toMatch(/^ {4}\S+ could not reconcile .*one is a lonely number$/m);
    // With where it threw, as check's reconcile-failed finding says it: once, on the controller's line.
    expect(stdout).toMatch(
      /^ {4}EchoController failed: .*one is a lonely number \(at \S*cosi\.config\.ts:15:\d+\)$/m,
    );
    const json = JSON.parse((await cli(['test', file, '-o', 'json'], { cwd: dir })).stdout) as {
      cases: { findings: { diff?: string }[] }[];
    };
    expect(json.cases[0]?.findings[0]?.diff).toContain('one is a lonely number');
    expect(code).toBe(1);
  });

  it('names the fields an expect names that the resource does not have', async () => {
    const file = await scenario(
      'absent-fields',
      [
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - expect: { metadata: { type: NetworkConfig, id: web-1 }, spec: { bridg: br-debian } }',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - expect: { kind: NetworkConfig, metadata: { name: web-1 } }',
        '',
      ].join('\n'),
    );
    const { stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toMatch(
      /absent-fields\.cosi-test\.yaml:3:13: error\[unexpected-state\]: NetworkConfigs\.example\.org\(default\/web-1\) differs from the expected document: spec has no "bridg" \(its fields: [^)]*bridge[^)]*\)\n/,
    );
    expect(stdout).toContain(
      'differs from the expected document: it has no "kind" (its fields: metadata, spec); metadata has no "name" (its fields: namespace, type, id,',
    );
  });

  it("masks a Secret's values in a failure's diff, in every format, as kubectl diff does", async () => {
    const manifests = path.join(dir, 'secret-manifests');
    await mkdir(manifests, { recursive: true });
    await writeFile(
      path.join(manifests, 'secret.yaml'),
      [
        'apiVersion: v1',
        'kind: Secret',
        'metadata: { name: db }',
        'stringData: { password: live-s3cr3t, user: admin }',
        'data: { token: bGl2ZS10b2tlbg== }',
        '',
      ].join('\n'),
    );
    const file = await scenario(
      'secret-diff',
      [
        'manifests: secret-manifests',
        'steps:',
        '  - expect:',
        '      apiVersion: v1',
        '      kind: Secret',
        '      metadata: { name: db }',
        '      stringData: { password: expected-s3cr3t, user: admin }',
        '      data: { token: bGl2ZS10b2tlbg== }',
        '',
      ].join('\n'),
    );
    for (const format of ['text', 'json', 'junit', 'tap', 'github']) {
      const r = await cli(['test', file, '-o', format], { cwd: dir });
      expect(r.code, format).toBe(1);
      expect(r.stdout, format).toContain('unexpected-state');
      for (const value of ['live-s3cr3t', 'expected-s3cr3t', 'bGl2ZS10b2tlbg==', 'admin']) {
        expect(r.stdout, `${format}: ${value}`).not.toContain(value);
      }
    }
    // Which key differs, not to what; the same ones masked alike.
    const { stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toContain('    -  password: "*** (before)"\n    +  password: "*** (after)"\n');
    expect(stdout).toContain('       user: "***"');
  });

  it("compares a sensitive type's spec, and masks it in the diff", async () => {
    const manifests = path.join(REPO, 'fixtures/cli/sensitive');
    const file = await scenario(
      'sensitive-spec',
      [
        `manifests: ${manifests}`,
        'steps:',
        '  - expect: { metadata: { type: Secrets.example.org, id: db-password }, spec: { key: hunter2 } }',
        '---',
        `manifests: ${manifests}`,
        'steps:',
        '  - expect: { metadata: { type: Secrets.example.org, id: db-password }, spec: { key: not-it } }',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(code).toBe(1);
    // The first expect matches the spec; the second fails on it, without either value.
    expect(stdout).toContain('(steps: 1 passed, 1 failed)');
    expect(stdout).toContain(
      'sensitive-spec.cosi-test.yaml:7:13: error[unexpected-state]: Secrets.example.org(default/db-password) differs from the expected document\n',
    );
    expect(stdout).toContain('    -  key: "*** (before)"\n    +  key: "*** (after)"');
    expect(stdout).not.toContain('hunter2');
    expect(stdout).not.toContain('not-it');
  });

  it('exits 2 for a scenario whose config or manifests do not load, saying where', async () => {
    const file = await scenario(
      'cannot-start',
      [
        'config: no-such-config.ts',
        'steps: [{ advance: 1s }]',
        '---',
        `manifests: ${path.join(REPO, 'fixtures/invalid/schema-violations')}`,
        'steps: [{ advance: 1s }]',
        '',
      ].join('\n'),
    );
    const { code, stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toContain(
      "cannot-start.cosi-test.yaml:1:9: error[invalid-scenario]: the scenario's config does not load: no-such-config.ts: no such file or directory\n",
    );
    expect(stdout).toContain(
      "cannot-start.cosi-test.yaml:4:12: error[invalid-scenario]: the scenario's manifests do not load",
    );
    expect(stdout).toMatch(/schema-violations\/[a-z-]+\.yaml:\d+:\d+: error\[schema-violation\]/);
    expect(code).toBe(2);
    const missing = await scenario(
      'missing-manifests',
      ['manifests: nope/', 'steps: [{ advance: 1s }]', ''].join('\n'),
    );
    const relative = await cli(['test', missing], { cwd: dir });
    expect(relative.stdout).toContain(
      "missing-manifests.cosi-test.yaml:1:12: error[invalid-scenario]: the scenario's manifests do not load\nnope: error[path-not-found]: nope does not exist\n",
    );
  });

  it('names a step kind with its article', async () => {
    const file = await scenario(
      'article',
      ['steps:', '  - expect-absent: { type: vm, id: x }', '    expect-error: true', ''].join('\n'),
    );
    const { stdout } = await cli(['test', file], { cwd: dir });
    expect(stdout).toContain('unknown key "expect-error" in an expect-absent step');
  });

  it('a scenario beside the manifests it tests is not read as a manifest', async () => {
    const project = path.join(dir, 'beside');
    await mkdir(project);
    for (const name of ['vms.yaml', 'hosts.yaml']) {
      await copyFile(path.join(REPO, 'fixtures/vm-network', name), path.join(project, name));
    }
    await writeFile(
      path.join(project, 'web.cosi-test.yaml'),
      [
        'manifests: .',
        `config: ${path.join(REPO, 'fixtures/vm-network')}`,
        'steps:',
        '  - expect: { metadata: { type: NetworkConfig, id: web-1 }, spec: { bridge: br-debian } }',
        '',
      ].join('\n'),
    );
    const config = ['--config', path.join(REPO, 'fixtures/vm-network')];
    const checked = await cli(['check', 'beside', ...config], { cwd: dir });
    expect(checked.stdout).toContain('manifests: 5 resources in 2 files: 5 valid, 0 invalid');
    expect(checked.code).toBe(0);
    const tested = await cli(['test', 'beside'], { cwd: dir });
    expect(tested.stdout).toBe('scenarios: 1 passed, 0 failed (steps: 1 passed, 0 failed)\n');
    expect(tested.code).toBe(0);
  });
});
