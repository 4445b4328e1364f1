/**
 * A test project given no manifests starts from those its config names, as every command and a
 * `cosi test` scenario do, with the config's ignore patterns: an empty project would let
 * `expectConverged` and every absence check pass on nothing.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestProject, expectResource, type TestProject } from '../../src/testing/index.js';

const VMS = `
metadata: { type: ResourceDefinitions.meta.cosi.dev, id: vms.example.org }
spec: { type: VMs.example.org, displayType: VM, defaultNamespace: default }
---
metadata: { type: vm, id: web-1 }
spec: { cpus: 2 }
`;

let dir: string;
const open: TestProject[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-test-context-'));
  await mkdir(path.join(dir, 'manifests'));
  await mkdir(path.join(dir, 'test'));
  await writeFile(path.join(dir, 'manifests', 'vms.yaml'), VMS);
  // What the config's ignore leaves out: read, it would be a second definition of the type.
  await writeFile(path.join(dir, 'manifests', 'draft.yaml'), VMS);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
  await rm(dir, { recursive: true, force: true });
});

async function project(options: Parameters<typeof createTestProject>[0]): Promise<TestProject> {
  const p = await createTestProject(options);
  open.push(p);
  return p;
}

describe('createTestProject without manifests', () => {
  it("reads the config's manifests, relative to the config, with its ignore patterns", async () => {
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      "export default { manifests: ['manifests'], ignore: ['draft.yaml'] };\n",
    );
    // From a directory below the config's, as a test file's directory would be.
    const p = await project({ cwd: path.join(dir, 'test') });
    expect(p.config?.file).toBe(path.join(dir, 'cosi.config.mjs'));
    await p.converge();
    await expectResource(p, 'vm', 'web-1', { cpus: 2 });
  });

  it("reads paths applied later with the config's ignore too", async () => {
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      "export default { manifests: ['manifests'], ignore: ['draft.yaml'] };\n",
    );
    const p = await project({ cwd: dir });
    await mkdir(path.join(dir, 'more'));
    await writeFile(
      path.join(dir, 'more', 'web-2.yaml'),
      'metadata: { type: vm, id: web-2 }\nspec: { cpus: 4 }\n',
    );
    // Read, it would be refused: a type nothing defines.
    await writeFile(
      path.join(dir, 'more', 'draft.yaml'),
      'metadata: { type: nosuch, id: x }\nspec: {}\n',
    );
    await p.apply('more');
    await expectResource(p, 'vm', 'web-2', { cpus: 4 });
  });

  it("reads a config object's manifests relative to cwd", async () => {
    const p = await project({
      cwd: dir,
      config: { manifests: ['manifests'], ignore: ['draft.yaml'] },
    });
    await expectResource(p, 'vm', 'web-1', { cpus: 2 });
  });

  it("takes manifests given, even none, instead of the config's", async () => {
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      "export default { manifests: ['manifests'], ignore: ['draft.yaml'] };\n",
    );
    const p = await project({ cwd: dir, manifests: [] });
    expect(await p.resources()).toEqual([]);
  });

  it("applies the config's ignore to manifest paths given too, as cosi check -f does", async () => {
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      "export default { ignore: ['draft.yaml'] };\n",
    );
    const p = await project({ cwd: dir, manifests: 'manifests' });
    await expectResource(p, 'vm', 'web-1', { cpus: 2 });
  });
});
