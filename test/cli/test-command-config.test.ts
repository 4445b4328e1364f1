import { cp, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCosi } from '../support/cosi-process.js';
import { cli, REPO } from './run-cli.js';

/**
 * `cosi test --config`, as `--config` on apply and check: the project config of the scenarios
 * that name none, where none would be found from their manifests or directory.
 */
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-test-config-'));
  // The project's code in project/, its manifests apart, the scenario apart from both.
  await cp(path.join(REPO, 'fixtures/vm-network'), path.join(dir, 'project'), { recursive: true });
  await mkdir(path.join(dir, 'manifests'));
  await mkdir(path.join(dir, 'scenarios'));
  for (const file of ['hosts.yaml', 'vms.yaml']) {
    await rename(path.join(dir, 'project', file), path.join(dir, 'manifests', file));
  }
  const scenario = await readFile(
    path.join(REPO, 'fixtures/scenarios/passing/vm-network.cosi-test.yaml'),
    'utf8',
  );
  await writeFile(
    path.join(dir, 'scenarios', 'vm.cosi-test.yaml'),
    scenario.replace('manifests: ../../vm-network', 'manifests: ../manifests'),
  );
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cosi test --config', () => {
  it('is the config of a scenario that names none', async () => {
    const without = await cli(['test', 'scenarios'], { cwd: dir });
    expect(without.code).not.toBe(0);
    // What the load says to do, which `cosi test` now takes.
    expect(without.stdout).toContain('the type "vm" is not defined');
    expect(without.stdout).toContain('pass --config PATH');
    const given = await cli(['test', 'scenarios', '--config', 'project'], { cwd: dir });
    expect(given.stdout).toContain('scenarios: 1 passed, 0 failed');
    expect(given.code).toBe(0);
  }, 60_000);

  it('is read in the worker thread the built CLI runs the scenarios in', async () => {
    const given = await runCosi(['test', 'scenarios', '--config', 'project/cosi.config.ts'], dir);
    expect(given.stdout).toContain('scenarios: 1 passed, 0 failed');
    expect(given.code).toBe(0);
  }, 60_000);

  it("does not replace a scenario's own config", async () => {
    const file = path.join(dir, 'scenarios', 'vm.cosi-test.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(
      file,
      text.replace('manifests: ../manifests', 'config: ../project\nmanifests: ../manifests'),
    );
    const r = await cli(['test', 'scenarios', '--config', 'nowhere'], { cwd: dir });
    expect(r.stdout).toContain('scenarios: 1 passed, 0 failed');
    expect(r.code).toBe(0);
  }, 60_000);
});
