/**
 * One run loads one config. Paths that each have a config of their own are refused: checked
 * with the first config found, the other's controllers never ran, and the verdict depended on
 * the order of the paths (`cosi check a b` passed where `cosi check b a` failed).
 */
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-config-per-path-'));
  await mkdir(path.join(dir, '.git'));
  await cp(path.join(REPO, 'fixtures/cli/counter.ts'), path.join(dir, 'counter.ts'));
  // b: fixtures/cli/failing-controller, whose controller fails on its counter.
  await cp(path.join(REPO, 'fixtures/cli/failing-controller'), path.join(dir, 'b'), {
    recursive: true,
  });
  // a: the same types, no controller, a counter that is fine.
  await mkdir(path.join(dir, 'a'));
  await writeFile(
    path.join(dir, 'a', 'cosi.config.ts'),
    "import { defineConfig } from 'cosi';\nimport { Counter, Echo } from '../counter.js';\n" +
      'export default defineConfig({ definitions: [Counter, Echo] });\n',
  );
  await writeFile(
    path.join(dir, 'a', 'counters.yaml'),
    'metadata:\n  type: counter\n  id: other\nspec:\n  value: 2\n',
  );
  // c: manifests of no config of their own.
  await mkdir(path.join(dir, 'c'));
  await writeFile(
    path.join(dir, 'c', 'counters.yaml'),
    'metadata:\n  type: counter\n  id: third\nspec:\n  value: 3\n',
  );
}, 60_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('paths with configs of their own', () => {
  it('fails on its own the path whose controller fails', async () => {
    const r = await cli(['check', 'b'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/error\[reconcile-failed\]: EchoController/);
  });

  it.each([
    [['a', 'b'], 'a/cosi.config.ts (for a) and b/cosi.config.ts (for b)'],
    [['b', 'a'], 'b/cosi.config.ts (for b) and a/cosi.config.ts (for a)'],
    [['a/counters.yaml', 'b/counters.yaml'], 'a/cosi.config.ts (for a/counters.yaml) and'],
  ])('are refused in any order (%j), naming both configs and what to do', async (paths, named) => {
    const r = await cli(['check', ...paths], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('error[config-error]: the paths have different configs, ');
    expect(r.stdout).toContain(named);
    expect(r.stdout).toContain(
      ', and a run loads one: check each with its own (--each) or name one (--config)',
    );
  });

  it('check together when they share one, or only one has one', async () => {
    const same = await cli(['check', 'a', 'a/counters.yaml', 'c'], { cwd: dir });
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/^manifests: 2 resources in 2 files: 2 valid, 0 invalid$/m);
    const named = await cli(['check', 'a', 'b', '--config', 'b'], { cwd: dir });
    expect(named.code).toBe(1);
    expect(named.stdout).toMatch(/error\[reconcile-failed\]: EchoController/);
  });

  it('--each checks each with its own', async () => {
    const r = await cli(['check', '--each', 'a', 'b'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/error\[reconcile-failed\]: EchoController/);
  });
});
