import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeStarterProject } from '../../src/app/init/write-starter-project.js';
import { cli, REPO } from './run-cli.js';

let dir: string;

/**
 * The starter project, with `cosi` installed as a link to this repository (its built types in
 * dist/) and, unless told not to, `typescript` as a link to this repository's compiler.
 */
async function starterProject({ typescript = true } = {}): Promise<void> {
  await mkdir(path.join(dir, '.git'));
  await writeStarterProject(dir);
  await mkdir(path.join(dir, 'node_modules'));
  await symlink(REPO, path.join(dir, 'node_modules/cosi'), 'dir');
  if (typescript) {
    await symlink(
      path.join(REPO, 'node_modules/typescript'),
      path.join(dir, 'node_modules/typescript'),
      'dir',
    );
  }
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-typecheck-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cosi check --typecheck', { timeout: 120_000 }, () => {
  it("passes a config that type-checks against cosi's types", async () => {
    await starterProject();
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toContain('types: 1 passed, 0 failed');
    expect(check.code).toBe(0);
  });

  it('finds a type error in a controller at its file, line and column', async () => {
    await starterProject();
    const config = path.join(dir, 'cosi.config.ts');
    const text = await readFile(config, 'utf8');
    const planted = text.replace(
      'config.spec.replicas = app.spec.replicas;',
      'config.spec.replicas = app.spec.image;',
    );
    expect(planted).not.toBe(text);
    await writeFile(config, planted);
    const line = planted.split('\n').findIndex((l) => l.includes('replicas = app.spec.image;')) + 1;
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toMatch(
      new RegExp(
        `^cosi\\.config\\.ts:${line}:\\d+: error\\[type-error\\]: Type 'string' is not assignable to type 'number'`,
        'm',
      ),
    );
    expect(check.stdout).toContain('types: 0 passed, 1 failed');
    expect(check.code).toBe(1);
    // Without --typecheck the run itself does not notice: the value is only wrong in type.
    expect((await cli(['check'], { cwd: dir })).code).toBe(0);
  });

  it('says how to get TypeScript when the project has none', async () => {
    await starterProject({ typescript: false });
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toContain('error[typescript-missing]');
    expect(check.stdout).toContain('npm install --save-dev typescript');
    expect(check.code).toBe(1);
  });
});
