import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';
import { runCosi } from '../support/cosi-process.js';

/** The same ConfigMap in two environments, as a GitOps repository keeps them. */
const SETTINGS = (env: string) =>
  `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n  namespace: shop\ndata:\n  env: ${env}\n`;

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-check-each-'));
  for (const env of ['production', 'staging']) {
    await mkdir(path.join(dir, 'clusters', env), { recursive: true });
    await writeFile(path.join(dir, 'clusters', env, 'settings.yaml'), SETTINGS(env));
  }
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cosi check --each: one world per path, one report', () => {
  it('checks environments that share names without calling them duplicates', async () => {
    const together = await cli(['check', 'clusters'], { cwd: dir });
    expect(together.code).toBe(1);
    expect(together.stdout).toContain(
      'error[duplicate-resource]: ConfigMaps.core(shop/settings) is already defined at clusters/production/settings.yaml:4:9 (one run is one world: if clusters/production/ and clusters/staging/ hold separate applications, check each on its own: cosi check --each clusters/production clusters/staging)',
    );
    const each = await cli(
      ['check', '--each', 'clusters/production', 'clusters/staging', '-o', 'json'],
      { cwd: dir },
    );
    expect(each.stderr).toBe('');
    expect(each.code).toBe(0);
    const report = JSON.parse(each.stdout) as {
      resources: { resources: number; files: number; valid: number };
      cases: { check: string; name: string }[];
    };
    expect(report.resources).toMatchObject({ resources: 2, files: 2, valid: 2 });
    expect(report.cases.filter((c) => c.check === 'convergence').map((c) => c.name)).toEqual([
      'convergence of clusters/production',
      'convergence of clusters/staging',
    ]);
  });

  it('reports each world at its own file:line:col, and checks the others all the same', async () => {
    await writeFile(
      path.join(dir, 'clusters', 'staging', 'settings.yaml'),
      SETTINGS('staging').replace('kind: ConfigMap', 'kind: ConfigMap\nimmutable: maybe'),
    );
    const r = await cli(['check', '--each', 'clusters/production', 'clusters/staging'], {
      cwd: dir,
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^clusters\/staging\/settings\.yaml:3:12: error\[schema-violation\]/m);
    expect(r.stdout).toContain('manifests: 2 resources in 2 files: 1 valid, 1 invalid');
    expect(r.stdout).toContain('convergence: 1 passed, 0 failed');
  });

  it("gives each world the config found for it, and places a world's finding of no file at its path", async () => {
    await writeFile(
      path.join(dir, 'clusters', 'production', 'cosi.config.mjs'),
      "export default { definitions: [{ type: 'VMs.example.org' }] };\n",
    );
    const vm = 'metadata: { type: VMs.example.org, id: web }\nspec: {}\n';
    await writeFile(path.join(dir, 'clusters', 'production', 'vm.yaml'), vm);
    await writeFile(path.join(dir, 'clusters', 'staging', 'vm.yaml'), vm);
    await mkdir(path.join(dir, 'clusters', 'empty'));
    const r = await cli(
      ['check', '--each', 'clusters/production', 'clusters/staging', 'clusters/empty'],
      { cwd: dir },
    );
    expect(r.code).toBe(1);
    const errors = r.stdout.split('\n').filter((l) => l.includes(': error['));
    expect(errors).toEqual([
      expect.stringMatching(
        /^clusters\/staging\/vm\.yaml:1:\d+: error\[unknown-type\]: the type "VMs\.example\.org" is not defined/,
      ),
      'clusters/empty: error[empty-input]: no manifest files found',
    ]);
  });

  it('refuses what takes one world, and needs paths', async () => {
    for (const flag of [
      ['--expect', 'expected'],
      ['--report', 'r.html'],
      ['--trace', 't.json'],
    ]) {
      const r = await cli(['check', '--each', 'clusters/production', ...flag], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stdout + r.stderr).toContain(`--each checks several worlds: ${flag[0]} takes one`);
    }
    const none = await cli(['check', '--each'], { cwd: dir });
    expect(none.code).toBe(2);
    expect(none.stdout + none.stderr).toContain('--each needs the paths to check one by one');
  });

  it('exits 3 when one world does not converge, naming it in its cases', async () => {
    const r = await cli(
      [
        'check',
        '--each',
        'fixtures/minimal',
        'fixtures/cli/ping-pong',
        '--max-writes',
        '300',
        '-o',
        'json',
      ],
      { cwd: REPO },
    );
    expect(r.code).toBe(3);
    const report = JSON.parse(r.stdout) as {
      cases: { check: string; name: string; findings: { code: string; file: string }[] }[];
    };
    const convergence = report.cases.filter((c) => c.check === 'convergence');
    expect(convergence.map((c) => [c.name, c.findings.map((f) => [f.code, f.file])])).toEqual([
      ['convergence of fixtures/minimal', []],
      [
        'convergence of fixtures/cli/ping-pong',
        [['not-converged', 'fixtures/cli/ping-pong/cosi.config.ts']],
      ],
    ]);
    expect(report.cases.filter((c) => c.check === 'controllers').map((c) => c.name)).toEqual([
      'Ping (fixtures/cli/ping-pong)',
      'Pong (fixtures/cli/ping-pong)',
    ]);
  });

  it('reports a world whose config does not load in its own setup case, and checks the others', async () => {
    await writeFile(
      path.join(dir, 'clusters', 'production', 'cosi.config.mjs'),
      "throw new Error('config exploded');\n",
    );
    await writeFile(
      path.join(dir, 'clusters', 'staging', 'settings.yaml'),
      SETTINGS('staging').replace('kind: ConfigMap', 'kind: ConfigMap\nimmutable: maybe'),
    );
    for (const order of [
      ['clusters/production', 'clusters/staging'],
      ['clusters/staging', 'clusters/production'],
    ]) {
      const r = await cli(['check', '--each', ...order, '-o', 'json'], { cwd: dir });
      expect(r.code).toBe(2);
      const report = JSON.parse(r.stdout) as {
        cases: { check: string; name: string; findings: { code: string; file: string }[] }[];
      };
      const failing = report.cases
        .filter((c) => c.findings.length > 0)
        .map((c) => [c.check, c.name, c.findings.map((f) => f.code)]);
      expect(failing).toEqual(
        expect.arrayContaining([
          ['setup', 'setup of clusters/production', ['config-error']],
          [
            'manifests',
            'clusters/staging/settings.yaml:1 ConfigMap shop/settings',
            ['schema-violation'],
          ],
        ]),
      );
    }
  });

  it('checks every other world when the code of one stops cosi, and reports them together', async () => {
    // A real process: a loop that never yields stops the worker the check runs in.
    const stuck = path.join(dir, 'clusters', 'stuck');
    await mkdir(stuck);
    await writeFile(
      path.join(stuck, 'cosi.config.mjs'),
      `export default { definitions: [{ type: 'VMs.example.org' }], controllers: [{ name: 'Spinner', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [] }, mapInput: async () => [], reconcile: () => { for (;;); } }] };\n`,
    );
    await writeFile(
      path.join(stuck, 'vm.yaml'),
      'metadata: { type: VMs.example.org, id: web }\nspec: {}\n',
    );
    await writeFile(
      path.join(dir, 'clusters', 'staging', 'settings.yaml'),
      SETTINGS('staging').replace('kind: ConfigMap', 'kind: ConfigMap\nimmutable: maybe'),
    );
    const r = await runCosi(
      [
        'check',
        '--each',
        'clusters/stuck',
        'clusters/staging',
        'clusters/production',
        '--timeout',
        '2s',
      ],
      dir,
      60_000,
    );
    expect(r.stdout).toMatch(
      /^clusters\/stuck\/vm\.yaml:1:1: error\[controller-failed\]: Controller "Spinner" \(on VMs\.example\.org\(default\/web\)\) was still running/m,
    );
    expect(r.stdout).toMatch(/^clusters\/staging\/settings\.yaml:3:12: error\[schema-violation\]/m);
    expect(r.stdout).toContain('manifests: 3 resources in 3 files: 2 valid, 1 invalid');
    expect(r.stdout).toContain('convergence: 1 passed, 1 failed');
    expect(r.code).toBe(3);
  }, 60_000);

  it('reads --definitions once for every world, and reports their findings once', async () => {
    await mkdir(path.join(dir, 'crds'));
    await writeFile(
      path.join(dir, 'crds', 'broken.yaml'),
      'apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: x.example.org\nspec:\n  group: example.org\n',
    );
    const r = await cli(
      ['check', '--definitions', 'crds', '--each', 'clusters/production', 'clusters/staging'],
      { cwd: dir },
    );
    expect(r.code).toBe(1);
    // Its three problems, each once (not once per world).
    expect(r.stdout.match(/^crds\/broken\.yaml:6:3: error\[invalid-definition\]: .*$/gm)).toEqual([
      expect.stringContaining("'names'"),
      expect.stringContaining("'scope'"),
      expect.stringContaining("'versions'"),
    ]);
    expect(r.stdout).toContain('manifests: 2 resources in 3 files: 2 valid, 0 invalid');
  });

  it('takes a glob no shell expanded as each path it matches, in order', async () => {
    const r = await cli(['check', '--each', 'clusters/*', '-o', 'json'], { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { cases: { check: string; name: string }[] };
    expect(report.cases.filter((c) => c.check === 'convergence').map((c) => c.name)).toEqual([
      'convergence of clusters/production',
      'convergence of clusters/staging',
    ]);
    // A pattern ending in `/` names directories only, not a file beside them.
    await writeFile(path.join(dir, 'clusters', 'README.yaml'), SETTINGS('readme'));
    const dirs = await cli(['check', '--each', 'clusters/*/', '-o', 'json'], { cwd: dir });
    expect(dirs.code).toBe(0);
    const onlyDirs = JSON.parse(dirs.stdout) as { cases: { check: string; name: string }[] };
    expect(onlyDirs.cases.filter((c) => c.check === 'convergence').map((c) => c.name)).toEqual([
      'convergence of clusters/production',
      'convergence of clusters/staging',
    ]);
    const none = await cli(['check', '--each', 'elsewhere/*'], { cwd: dir });
    expect(none.code).toBe(1);
    expect(none.stdout).toContain('elsewhere/*');
  });

  it('checks a world named twice once, under its first name', async () => {
    await symlink(path.join(dir, 'clusters', 'staging'), path.join(dir, 'stage'));
    const r = await cli(
      [
        'check',
        '--each',
        'clusters/staging',
        'clusters/*',
        './clusters/staging/',
        path.join(dir, 'clusters', 'staging'),
        'stage',
        '-o',
        'json',
      ],
      { cwd: dir },
    );
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as {
      resources: { resources: number; files: number };
      cases: { check: string; name: string }[];
    };
    expect(report.cases.map((c) => c.name)).toEqual([
      'clusters/staging/settings.yaml:1 ConfigMap shop/settings',
      'convergence of clusters/staging',
      'clusters/production/settings.yaml:1 ConfigMap shop/settings',
      'convergence of clusters/production',
    ]);
    expect(report.resources).toMatchObject({ resources: 2, files: 2 });
  });
});
