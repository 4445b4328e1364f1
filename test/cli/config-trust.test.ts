/**
 * A config that cosi finds by itself, climbing from the manifests, is run only when it can be
 * trusted: the current user's (or root's), and written by nobody else. `--config` runs any.
 */
import { chmod, chown, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-config-trust-'));
  await mkdir(path.join(dir, 'a', 'b'), { recursive: true });
  await writeFile(
    path.join(dir, 'cosi.config.mjs'),
    "export default { definitions: [{ type: 'VMs.example.org' }] };\n",
  );
  await writeFile(
    path.join(dir, 'a', 'b', 'vm.yaml'),
    'metadata: { type: VMs.example.org, id: web }\nspec: {}\n',
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a config found above the manifests', () => {
  it('runs when it is the user’s own and nobody else may write it', async () => {
    const r = await cli(['check', '-f', path.join(dir, 'a', 'b', 'vm.yaml')], { cwd: '/' });
    expect(r.code).toBe(0);
  });

  it('is refused, with what to do, when anyone may write it or its directory', async () => {
    await chmod(path.join(dir, 'cosi.config.mjs'), 0o666);
    const file = path.join(dir, 'a', 'b', 'vm.yaml');
    const r = await cli(['check', '-f', file], { cwd: '/' });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(
      /cosi\.config\.mjs: error\[config-error\]: cosi runs no config found by itself that anyone may write: .*pass --config .*cosi\.config\.mjs to run it all the same/,
    );
    await chmod(path.join(dir, 'cosi.config.mjs'), 0o644);
    await chmod(dir, 0o777);
    const open = await cli(['check', '-f', file], { cwd: '/' });
    expect(open.code).toBe(2);
    expect(open.stdout).toMatch(/that is in a directory anyone may write/);
    // Named, it runs.
    const named = await cli(['check', '-f', file, '--config', path.join(dir, 'cosi.config.mjs')], {
      cwd: '/',
    });
    expect(named.code).toBe(0);
  });

  it.runIf(process.getuid?.() === 0)('is refused when another user owns it', async () => {
    await chown(path.join(dir, 'cosi.config.mjs'), 4321, 4321);
    const r = await cli(['check', '-f', path.join(dir, 'a', 'b', 'vm.yaml')], { cwd: '/' });
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/belongs to another user \(uid 4321\)/);
  });
});
