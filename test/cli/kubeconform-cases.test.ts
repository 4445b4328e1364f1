/**
 * kubeconform's acceptance cases (acceptance.bats, commit e65429b) re-expressed for `cosi check`
 * on its own fixtures (test/fixtures/kubeconform), each named by the bats test it comes from.
 * Where cosi answers differently on purpose, the test says so and why.
 */
import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

const F = 'test/fixtures/kubeconform';
const check = (...args: string[]) => cli(['check', ...args]);

describe("kubeconform's acceptance cases", () => {
  it.each([
    ['Pass when parsing a valid Kubernetes config YAML file', 'valid.yaml'],
    ['Pass when parsing a folder containing valid YAML files', 'folder'],
    [
      'Pass when parsing a valid Kubernetes config file with int_to_string vars',
      'int_or_string.yaml',
    ],
    ['Pass when parsing a valid Kubernetes config JSON file', 'valid.json'],
    ['Pass when parsing a Kubernetes file with string and integer quantities', 'quantity.yaml'],
    ['Pass when parsing a valid Kubernetes config file with null arrays', 'null_array.yaml'],
    ['Pass when parsing a valid Kubernetes config file with null strings', 'null_string.yaml'],
    ['Pass when parsing a multi-document config file', 'multi_valid.yaml'],
    ['Pass when parsing a file containing a List', 'list_valid.yaml'],
    ['Pass on multi-yaml containing one resource, one list', 'multi_with_list.yaml'],
    ['(unconventional keys)', 'unconventional_keys.yaml'],
  ])('%s (%s)', async (_name, fixture) => {
    const r = await check(`${F}/${fixture}`);
    expect(r.stdout + r.stderr).not.toContain('error[');
    expect(r.code).toBe(0);
  });

  it.each([
    [
      'Fail when parsing a multi-document config file with one invalid resource',
      'multi_invalid.yaml',
      '/spec/ports/0/port',
    ],
    ['Fail when parsing an invalid Kubernetes config file', 'invalid.yaml', '/spec/replicas'],
    [
      'Fail when parsing a config that is missing an apiVersion',
      'missing_apiversion.yaml',
      '/apiVersion',
    ],
    ['Fail when parsing a config that is missing a Kind value', 'missing_kind_value.yaml', '/kind'],
    [
      'Fail when parsing a List that contains an invalid resource',
      'list_invalid.yaml',
      '/items/1/spec/replicas',
    ],
    // kubeconform passes this without -strict; cosi reports undeclared fields always, as
    // `kubectl --validate=strict` and the API server's field validation do.
    [
      'Fail when parsing a config with additional properties and strict set',
      'extra_property.yaml',
      '/spec/replicas',
    ],
    // YAML 1.2 refuses a key written twice; cosi never takes the last one silently.
    [
      'Fail when parsing a config with duplicate properties and strict set',
      'duplicate_property.yaml',
      '/spec/template/spec/containers',
    ],
  ])('%s (%s)', async (_name, fixture, pointer) => {
    const r = await check(`${F}/${fixture}`, '-o', 'json');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as {
      cases: { failed: boolean; findings: { pointer: string }[] }[];
    };
    const failed = report.cases.filter((c) => c.failed);
    expect(failed.flatMap((c) => c.findings.map((f) => f.pointer))).toContain(pointer);
  });

  it('Fail when parsing a config with CRD, and pass ignoring missing schemas (test_crd.yaml)', async () => {
    const failing = await check(`${F}/test_crd.yaml`);
    expect(failing.code).toBe(1);
    expect(failing.stderr + failing.stdout).toContain('error[unknown-type]');
    const ignoring = await check(`${F}/test_crd.yaml`, '--ignore-unknown-kinds');
    expect(ignoring.code).toBe(0);
    expect(ignoring.stdout).toContain(
      'manifests: 1 resource in 1 file: 0 valid, 0 invalid, 1 skipped',
    );
    // A skipped document is not checked: neither passed nor failed, in every format.
    expect(ignoring.stdout).toMatch(/^\d+ passed, 0 failed, 1 skipped$/m);
    const json = JSON.parse(
      (await check(`${F}/test_crd.yaml`, '--ignore-unknown-kinds', '-o', 'json')).stdout,
    ) as { skipped: number; checks: { check: string; passed: number; skipped: number }[] };
    expect(json.skipped).toBe(1);
    expect(json.checks.find((c) => c.check === 'manifests')).toMatchObject({
      passed: 0,
      skipped: 1,
    });
    const junit = await check(`${F}/test_crd.yaml`, '--ignore-unknown-kinds', '-o', 'junit');
    expect(junit.stdout).toContain(
      '<testsuite name="manifests" tests="1" failures="0" skipped="1">',
    );
  });

  it('Return relevant error for non-existent file', async () => {
    const r = await check(`${F}/i-do-not-exist.yaml`);
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('error[path-not-found]');
  });

  it('Pass when parsing a blank config file among others; a run with no resource at all is empty-input', async () => {
    // kubeconform exits 0 on a blank file alone; cosi calls a run that found no resource an
    // error, so that a wrong path in CI is caught. Among other files a blank one is fine.
    expect((await check(`${F}/blank.yaml`)).code).toBe(1);
    expect((await check(`${F}/comment.yaml`)).stdout).toContain('error[empty-input]');
    const mixed = await check(`${F}/blank.yaml`, `${F}/comment.yaml`, `${F}/valid.yaml`);
    expect(mixed.code).toBe(0);
    expect(mixed.stdout).toContain('manifests: 1 resource in 3 files: 1 valid, 0 invalid');
  });

  it('Pass on a bundle of CRDs alone: their schemas are what is checked, not an empty input', async () => {
    // Traefik's 22 CRDs, as a repository that vendors a CRD bundle checks it in CI.
    const crds = 'fixtures/real-crds/traefik/kubernetes-crd-definition-v1.yml';
    const r = await check(crds, '--strict');
    expect(r.stdout).not.toContain('empty-input');
    expect(r.stdout).toMatch(/^manifests: \d+ resources in 1 file: (\d+) valid, 0 invalid$/m);
    expect(r.code).toBe(0);
  });

  it('Pass when parsing a valid Kubernetes config YAML file on stdin', async () => {
    const text = await readFile(`${F}/valid.yaml`, 'utf8');
    expect((await cli(['check', '-f', '-'], { stdin: text })).code).toBe(0);
    const invalid = await readFile(`${F}/invalid.yaml`, 'utf8');
    expect((await cli(['check', '-f', '-'], { stdin: invalid })).code).toBe(1);
  });

  it('Skip when parsing a resource from a kind, or a GVK, to skip; not when only the kind matches', async () => {
    const byKind = await check(`${F}/invalid.yaml`, '--skip-kinds', 'ReplicationController');
    expect(byKind.code).toBe(0);
    expect(byKind.stdout).toContain('1 skipped');
    expect(
      (await check(`${F}/invalid.yaml`, '--skip-kinds', 'v1/ReplicationController')).code,
    ).toBe(0);
    const otherVersion = await check(
      `${F}/invalid.yaml`,
      '--skip-kinds',
      'apps/v1beta1/Deployment',
    );
    expect(otherVersion.code).toBe(1);
  });

  it('Fail when parsing a resource from a kind to reject', async () => {
    const r = await check(`${F}/valid.yaml`, '--reject-kinds', 'ReplicationController');
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('error[rejected-kind]');
  });

  it('Fail as a usage error (exit 2) on a --reject-kinds kind nothing knows, saying which it meant; a misspelt --skip-kinds is a warning', async () => {
    // A typo in the policy must not stop the gate from gating: the Secrets would pass.
    const r = await check(`${F}/valid.yaml`, '--reject-kinds', 'ReplicationControler');
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain('usage-error');
    expect(r.stdout + r.stderr).toContain(
      '--reject-kinds ReplicationControler (did you mean ReplicationController?)',
    );
    // A skip that skips nothing checks more, not less.
    const skip = await check(`${F}/valid.yaml`, '--skip-kinds', 'ReplicationControler');
    expect(skip.code).toBe(0);
    expect(skip.stdout + skip.stderr).toContain('warning[unknown-kind-filter]');
  });

  it('Fail early when passing a non valid --kubernetes-version', async () => {
    const r = await check(`${F}/valid.yaml`, '--kubernetes-version', 'not-a-version');
    expect(r.code).toBe(2);
    expect(r.stdout + r.stderr).toContain('unknown Kubernetes version "not-a-version"');
  });

  it('Produces TAP, JUnit and JSON output that name each resource', async () => {
    const tap = await check(`${F}/multi_invalid.yaml`, '-o', 'tap');
    const points = tap.stdout.split('\n').filter((l) => /^(not )?ok \d+ - manifests:/.test(l));
    expect(points).toHaveLength(6);
    expect(points.filter((l) => l.startsWith('not ok'))).toEqual([
      expect.stringMatching(/^not ok \d+ - manifests: .*multi_invalid\.yaml:\d+ Service \S+$/),
    ]);
    const junit = await check(`${F}/multi_invalid.yaml`, '-o', 'junit');
    expect(junit.stdout).toContain(
      '<testsuite name="manifests" tests="6" failures="1" skipped="0">',
    );
    const json = await check(`${F}/multi_invalid.yaml`, '-o', 'json');
    const report = JSON.parse(json.stdout) as {
      resources: unknown;
      cases: { resource?: { kind: string; name: string; status: string } }[];
    };
    expect(report.resources).toEqual({
      resources: 6,
      files: 1,
      valid: 5,
      invalid: 1,
      skipped: 0,
      failedFiles: 0,
    });
    expect(
      report.cases.filter((c) => c.resource?.status === 'invalid').map((c) => c.resource?.kind),
    ).toEqual(['Service']);
  });
});
