/**
 * A directory met while walking that holds a config of its own is a project of its own: set
 * aside, counted skipped in every format with how to check it, not checked with the config of the
 * run (whose controllers are not its own: its own never ran, and its manifests passed or failed
 * for the wrong reasons). `--config` names one config for everything: then it is walked.
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { walkManifestTree } from '../../src/loaders/walk-manifest-tree.js';
import { cli, REPO } from './run-cli.js';

const HOW = 'check it with cosi check b (or beside the others with --each';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-nested-project-'));
  await mkdir(path.join(dir, '.git'));
  await cp(path.join(REPO, 'fixtures/cli/counter.ts'), path.join(dir, 'counter.ts'));
  // The root: the same types as b's, no controller, a counter that is fine.
  await writeFile(
    path.join(dir, 'cosi.config.ts'),
    "import { defineConfig } from 'cosi';\nimport { Counter, Echo } from './counter.js';\n" +
      'export default defineConfig({ definitions: [Counter, Echo] });\n',
  );
  await writeFile(
    path.join(dir, 'counters.yaml'),
    'metadata:\n  type: counter\n  id: other\nspec:\n  value: 2\n',
  );
  // b: fixtures/cli/failing-controller, whose controller fails on its counter.
  await cp(path.join(REPO, 'fixtures/cli/failing-controller'), path.join(dir, 'b'), {
    recursive: true,
  });
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a directory with a config of its own, met while walking', () => {
  it('is set aside with how to check it, counted skipped, not checked with the root config', async () => {
    const r = await cli(['check', '.'], { cwd: dir });
    expect(r.stdout).toContain('b: note[nested-project]: a project with a config of its own');
    expect(r.stdout).toContain('(b/cosi.config.ts), not walked');
    expect(r.stdout).toContain(HOW);
    expect(r.stdout).toContain(
      'manifests: 1 resource in 1 file: 1 valid, 0 invalid; set aside: 1 project with a config of its own',
    );
    expect(r.stdout).toMatch(/\n\d+ passed, 0 failed, 1 skipped\n/);
    expect(r.code).toBe(0);
  });

  it('is one skipped case in JSON, JUnit, TAP and github, with its reason', async () => {
    const json = await cli(['check', '.', '-o', 'json'], { cwd: dir });
    const report = JSON.parse(json.stdout) as {
      skipped: number;
      checks: { check: string; skipped: number }[];
      unrendered: { path: string; kind: string; file: string; message: string }[];
      cases: { name: string }[];
    };
    expect(report.skipped).toBe(1);
    expect(report.checks).toContainEqual({ check: 'set aside', passed: 0, failed: 0, skipped: 1 });
    expect(report.unrendered).toEqual([
      expect.objectContaining({ path: 'b', kind: 'nested-project', file: 'b/cosi.config.ts' }),
    ]);
    expect(report.unrendered[0]?.message).toContain(HOW);
    expect(report.cases.map((c) => c.name).filter((n) => n.startsWith('b/'))).toEqual([]);

    const junit = await cli(['check', '.', '-o', 'junit'], { cwd: dir });
    expect(junit.stdout).toMatch(
      /<testcase classname="set aside" name="b"><skipped message="[^"]*check it with cosi check b/,
    );
    const tap = await cli(['check', '.', '-o', 'tap'], { cwd: dir });
    expect(tap.stdout).toMatch(/\nok \d+ - set aside: b # SKIP a project with a config of its own/);
    const github = await cli(['check', '.', '-o', 'github'], { cwd: dir });
    expect(github.stdout).toContain('::notice file=b/cosi.config.ts,');
    expect(github.stdout).toContain(HOW);
    for (const r of [json, junit, tap, github]) expect(r.code).toBe(0);
  });

  it('is checked with its own controllers when named, or with --each', async () => {
    const each = await cli(['check', '--each', '.', 'b', '-o', 'json'], { cwd: dir });
    const report = JSON.parse(each.stdout) as {
      unrendered?: { path: string }[];
      cases: { name: string; findings: { code: string }[] }[];
    };
    expect(report.cases.flatMap((c) => c.findings.map((f) => f.code))).toContain(
      'reconcile-failed',
    );
    // Checked in its own world, b is not also set aside in that of '.'.
    expect(report.unrendered ?? []).toEqual([]);
    expect(report.cases.map((c) => c.name)).toContain('b/counters.yaml:1 counter start');
    expect(each.code).toBe(1);
  });

  it('is walked with --config, the one config named for everything', async () => {
    const root = await cli(['check', '.', '--config', 'cosi.config.ts', '-o', 'json'], {
      cwd: dir,
    });
    const report = JSON.parse(root.stdout) as { skipped: number; cases: { name: string }[] };
    expect(report.skipped).toBe(0);
    expect(report.cases.map((c) => c.name)).toContain('b/counters.yaml:1 counter start');
    const b = await cli(['check', '.', '--config', 'b/cosi.config.ts'], { cwd: dir });
    expect(b.stdout).toMatch(/error\[reconcile-failed\]: EchoController/);
    expect(b.stdout).not.toContain('nested-project');
    expect(b.code).toBe(1);
  });
});

describe('walkManifestTree setAsideProjects', () => {
  it('walks a directory named, and the one holding the run config', async () => {
    const named = await walkManifestTree(['b'], { cwd: dir, setAsideProjects: {} });
    expect(named.unrendered).toEqual([]);
    expect(named.files.map((f) => f.display)).toEqual(['b/counters.yaml']);
    const except = await walkManifestTree(['.'], {
      cwd: dir,
      setAsideProjects: { except: path.join(dir, 'b', 'cosi.config.ts') },
    });
    expect(except.unrendered).toEqual([]);
    expect(except.files.map((f) => f.display)).toContain('b/counters.yaml');
    const without = await walkManifestTree(['.'], { cwd: dir });
    expect(without.unrendered).toEqual([]);
  });
});

describe('many projects with configs of their own', () => {
  it('are named in the line that counts those not listed', async () => {
    const many = await mkdtemp(path.join(tmpdir(), 'cosi-nested-projects-'));
    try {
      await mkdir(path.join(many, '.git'));
      for (let i = 0; i < 12; i++) {
        await mkdir(path.join(many, `p${String(i).padStart(2, '0')}`));
        await writeFile(
          path.join(many, `p${String(i).padStart(2, '0')}`, 'cosi.config.ts'),
          'export default {};\n',
        );
      }
      await writeFile(
        path.join(many, 'cm.yaml'),
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
      );
      const r = await cli(['check', '.'], { cwd: many });
      expect(r.stdout).toContain(
        'and 2 more charts, kustomizations and projects with configs of their own set aside (-o json lists them)\n',
      );
      expect(r.stdout).toContain('set aside: 12 projects with configs of their own');
      expect(r.code).toBe(0);
    } finally {
      await rm(many, { recursive: true, force: true });
    }
  });
});
