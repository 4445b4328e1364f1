import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

/** A user's test of a project, typed against cosi's built declarations and vitest's. */
const USER_TEST = `import { expect } from 'vitest';
import 'cosi/testing/matchers';
import { createTestProject } from 'cosi/testing';

const project = await createTestProject({ manifests: 'manifests' });
expect(await project.converge()).toConverge();
expect(await project.converge()).not.toConverge();
await expect(project).toHaveResource('Deployment', 'shop', { spec: { replicas: 1 } });
await expect(project).not.toHaveResource('Ingress', 'blog');
await expect(project).toHaveFinding({ code: 'reconcile-failed' });
await expect(Promise.resolve(project)).resolves.toHaveResource('Deployment', 'shop');
// @ts-expect-error not a matcher
expect(project).toHaveResources('Deployment');
// @ts-expect-error a type is a string
await expect(project).toHaveResource(1, 'shop');
`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-matcher-types-'));
  await mkdir(path.join(dir, 'node_modules'));
  await symlink(REPO, path.join(dir, 'node_modules/cosi'), 'dir');
  await symlink(
    path.join(REPO, 'node_modules/vitest'),
    path.join(dir, 'node_modules/vitest'),
    'dir',
  );
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
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe(
  "cosi/testing/matchers' types in a user's project (vitest 4)",
  { timeout: 120_000 },
  () => {
    it.each(['typescript', 'typescript-7'])(
      'type-check with %s: matchers, .not and .resolves typed, a wrong call refused',
      async (typescript) => {
        const tsc = path.join(REPO, 'node_modules', typescript, 'bin/tsc');
        // Fails on an unused @ts-expect-error too: the wrong calls must be errors.
        const checked = await run(process.execPath, [tsc], { cwd: dir }).then(
          (done) => ({ code: 0, stdout: done.stdout }),
          (error: unknown) => error as { code: number; stdout: string },
        );
        expect(checked.stdout).toBe('');
        expect(checked.code).toBe(0);
      },
    );
  },
);
