import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** The vitest 5 a user installs today (`npm install vitest`), pinned. */
const VITEST_5 = 'vitest@5.1.2';

/** A user's test of a project, typed against cosi's built declarations and vitest's. */
const USER_TEST = `import { expect } from 'vitest';
import { defineResource } from 'cosi';
import 'cosi/testing/matchers';
import { createTestProject } from 'cosi/testing';

const NetworkConfig = defineResource<{ bridge: string }>({ type: 'NetworkConfigs.example.org' });

const project = await createTestProject({ manifests: 'manifests' });
expect(await project.converge()).toConverge();
expect(await project.converge()).not.toConverge();
await expect(project).toHaveResource('Deployment', 'shop', { spec: { replicas: 1 } });
await expect(project).not.toHaveResource('Ingress', 'blog');
await expect(project).toHaveFinding({ code: 'reconcile-failed' });
await expect(Promise.resolve(project)).resolves.toHaveResource('Deployment', 'shop');
// @ts-expect-error not a matcher
expect(project).toHaveResources('Deployment');
// @ts-expect-error a type is a string or a type's handle
await expect(project).toHaveResource(1, 'shop');
// The handle, as every call that names a type takes it, types the expected spec.
await expect(project).toHaveResource(NetworkConfig, 'web-1', { bridge: 'br-debian' });
await expect(project).not.toHaveResource(NetworkConfig, 'web-9');
// @ts-expect-error \`bridg\` is not a field of a NetworkConfig's spec
await expect(project).toHaveResource(NetworkConfig, 'web-1', { bridg: 'br-debian' });
`;

/** A user's project in `dir` typed against this repository's cosi, with its test file. */
async function userProject(dir: string): Promise<void> {
  await mkdir(path.join(dir, 'node_modules'), { recursive: true });
  await symlink(REPO, path.join(dir, 'node_modules/cosi'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  await writeFile(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'es2022',
        module: 'preserve',
        noEmit: true,
        skipLibCheck: true,
      },
      include: ['*.ts'],
    }),
  );
  await writeFile(path.join(dir, 'project.test.ts'), USER_TEST);
}

/** `tsc` in `dir`, of this repository's `typescript` (5.9) or `typescript-7`. */
function typeCheck(dir: string, typescript: string): Promise<{ code: number; stdout: string }> {
  const tsc = path.join(REPO, 'node_modules', typescript, 'bin/tsc');
  return run(process.execPath, [tsc], { cwd: dir }).then(
    (done) => ({ code: 0, stdout: done.stdout }),
    (error: unknown) => error as { code: number; stdout: string },
  );
}

/** A project with this repository's vitest (4). */
let dir4: string;
/** A project with vitest 5, installed in it. */
let dir5: string;
beforeAll(async () => {
  dir4 = await mkdtemp(path.join(tmpdir(), 'cosi-matcher-types-'));
  await userProject(dir4);
  await symlink(
    path.join(REPO, 'node_modules/vitest'),
    path.join(dir4, 'node_modules/vitest'),
    'dir',
  );
  // vitest 5 cannot be a dev dependency beside vitest 4 (npm refuses their browser packages'
  // peer ranges): the user's project installs its own, from npm's cache or the registry, as
  // installed-package.test.ts installs cosi's dependencies.
  // (Its types only: vitest 5 runs on Node 22.12 and later.)
  dir5 = await mkdtemp(path.join(tmpdir(), 'cosi-matcher-types-5-'));
  await run(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', VITEST_5],
    { cwd: dir5 },
  );
  await userProject(dir5);
}, 300_000);
afterAll(async () => {
  await rm(dir4, { recursive: true, force: true });
  await rm(dir5, { recursive: true, force: true });
});

describe("cosi/testing/matchers in a user's project", { timeout: 120_000 }, () => {
  it.each([
    ['vitest 4', 'typescript'],
    ['vitest 4', 'typescript-7'],
    ['vitest 5', 'typescript'],
    ['vitest 5', 'typescript-7'],
  ])('%s, %s: matchers, .not and .resolves typed, a wrong call refused', async (vitest, ts) => {
    // Fails on an unused @ts-expect-error too: the wrong calls must be errors.
    const checked = await typeCheck(vitest === 'vitest 5' ? dir5 : dir4, ts);
    expect(checked.stdout).toBe('');
    expect(checked.code).toBe(0);
  });
});
