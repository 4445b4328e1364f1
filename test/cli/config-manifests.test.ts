import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCosi } from '../support/cosi-process.js';
import { cli } from './run-cli.js';

let dir: string;

const VM_DEFINITION = `metadata:
  type: ResourceDefinitions.meta.cosi.dev
  id: vms.example.org
spec:
  type: VMs.example.org
  defaultNamespace: default
  schema:
    type: object
    required: [cpus]
    properties: { cpus: { type: integer, minimum: 1 } }
`;
const vm = (id: string, cpus: number | string): string =>
  `metadata: { type: vm, id: ${id} }\nspec: { cpus: ${cpus} }\n`;

/** A project: a config (its body given), and files below `dir`. */
async function project(config: string, files: Record<string, string>): Promise<void> {
  await mkdir(path.join(dir, '.git'));
  await writeFile(path.join(dir, 'cosi.config.ts'), `export default ${config};\n`);
  for (const [file, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-config-manifests-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the manifests a config names', { timeout: 60_000 }, () => {
  it('are what get, check and graph read in the project, given no -f', async () => {
    await project(`{ manifests: ['manifests'] }`, {
      'manifests/defs.yaml': VM_DEFINITION,
      'manifests/vms.yaml': `${vm('web-1', 2)}---\n${vm('web-2', 4)}`,
      'other/vms.yaml': vm('elsewhere', 1),
    });
    const get = await cli(['get', 'vm', '-o', 'name'], { cwd: dir });
    expect(get.stdout).toBe('vms.example.org/web-1\nvms.example.org/web-2\n');
    expect(get.code).toBe(0);
    const check = await cli(['check'], { cwd: dir });
    expect(check.stdout + check.stderr).toContain('3 resources in 2 files: 3 valid, 0 invalid');
    expect(check.code).toBe(0);
    expect((await cli(['graph', '--resources', '-o', 'json'], { cwd: dir })).stdout).toContain(
      'web-2',
    );
  });

  it('are relative to the config, wherever in the project the command runs', async () => {
    await project(`{ manifests: ['manifests/*.yaml'] }`, {
      'manifests/defs.yaml': VM_DEFINITION,
      'manifests/vms.yaml': vm('web-1', 2),
      'docs/readme.txt': 'hello\n',
    });
    const get = await cli(['get', 'vm', '-o', 'name'], { cwd: path.join(dir, 'docs') });
    expect(get.stdout).toBe('vms.example.org/web-1\n');
    expect(get.code).toBe(0);
  });

  it('give way to -f and to path arguments', async () => {
    await project(`{ manifests: ['manifests'] }`, {
      'manifests/defs.yaml': VM_DEFINITION,
      'manifests/vms.yaml': vm('web-1', 2),
      'other/all.yaml': `${VM_DEFINITION}---\n${vm('other-1', 1)}`,
    });
    const get = await cli(['get', 'vm', '-o', 'name', '-f', 'other'], { cwd: dir });
    expect(get.stdout).toBe('vms.example.org/other-1\n');
    const check = await cli(['check', 'other/all.yaml'], { cwd: dir });
    expect(check.stdout + check.stderr).toContain('2 resources in 1 file');
  });

  it("skip what the config's ignore patterns name", async () => {
    await project(`{ manifests: ['.'], ignore: ['broken/'] }`, {
      'defs.yaml': VM_DEFINITION,
      'vms.yaml': vm('web-1', 2),
      'broken/bad.yaml': vm('bad', "'many'"),
    });
    const check = await cli(['check'], { cwd: dir });
    expect(check.stdout + check.stderr).toContain('2 resources in 2 files: 2 valid, 0 invalid');
    expect(check.code).toBe(0);
  });

  it("read the config's definition files and Kubernetes version", async () => {
    await project(
      `{ manifests: ['vms.yaml'], definitionFiles: ['defs'], kubernetesVersion: '1.33' }`,
      {
        'defs/vm.yaml': VM_DEFINITION,
        'vms.yaml': `${vm('web-1', 0)}---\napiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: { name: gpu }\nspec: {}\n`,
      },
    );
    const check = await cli(['check'], { cwd: dir });
    const said = check.stdout + check.stderr;
    // The definition's schema is applied (cpus >= 1) ...
    expect(said).toContain('schema-violation');
    // ... and resource.k8s.io/v1 is not served yet in 1.33.
    expect(said).toMatch(/unknown-type|unknown-kind/);
    expect(check.code).toBe(1);
    const newer = await cli(['check', '--kubernetes-version', '1.34'], { cwd: dir });
    expect(newer.stdout + newer.stderr).not.toMatch(/unknown-type|unknown-kind/);
  });

  it('a bad entry alone is a config error at its key in the config', async () => {
    await project(`{\n  manifests: ['ok', 3],\n}`, {});
    const check = await cli(['check'], { cwd: dir });
    expect(check.code).toBe(2);
    expect(check.stdout).toContain(
      'cosi.config.ts:2:3: error[config-error]: manifests[1]: expected a non-empty string, got a number',
    );
  });

  it('a bad entry is a config error naming it', async () => {
    await project(`{ manifests: ['ok', 3], kubernetesVersion: '0.1' }`, {});
    const check = await cli(['check'], { cwd: dir });
    expect(check.code).toBe(2);
    expect(check.stderr).toContain('manifests[1]: expected a non-empty string, got a number');
    expect(check.stderr).toContain('kubernetesVersion: unknown Kubernetes version "0.1"');
  });

  it('without -f and without manifests in the config, the command says how to give them', async () => {
    await project(`{}`, { 'vms.yaml': vm('web-1', 2) });
    const get = await cli(['get', 'vm'], { cwd: dir });
    expect(get.code).toBe(2);
    expect(get.stderr).toContain('no manifests given: pass -f <path>');
    expect(get.stderr).toContain("or name them in cosi.config.ts (manifests: ['manifests/'])");
  });

  it('outside any project, the command says how to start one (review newuser54 #8)', async () => {
    await mkdir(path.join(dir, '.git'));
    for (const args of [['get', 'vm'], ['check'], ['graph']]) {
      const run = await cli(args, { cwd: dir });
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(
        'cosi: no manifests given: pass -f <path> (a file or a directory), or run it in a project whose cosi.config.ts names them (manifests: [...]); cosi init starts one',
      );
    }
  });
});

describe('a config in the wrong place (review firsthour 5)', { timeout: 60_000 }, () => {
  it('outside a project, names a config in a directory below, and how to use it', async () => {
    await mkdir(path.join(dir, '.git'));
    await mkdir(path.join(dir, 'cosi/manifests'), { recursive: true });
    await writeFile(
      path.join(dir, 'cosi/cosi.config.ts'),
      `export default { manifests: ['manifests'] };\n`,
    );
    await writeFile(path.join(dir, 'cosi/manifests/vms.yaml'), VM_DEFINITION);
    // node_modules and hidden directories are not projects of the user's.
    await mkdir(path.join(dir, 'node_modules/x'), { recursive: true });
    await writeFile(path.join(dir, 'node_modules/x/cosi.config.ts'), 'export default {};\n');
    const get = await cli(['get', 'vm'], { cwd: dir });
    expect(get.code).toBe(2);
    expect(get.stderr).toBe(
      "cosi: no manifests given: pass -f <path> (a file or a directory), or run it in a project whose cosi.config.ts names them (manifests: [...]); cosi init starts one (cosi/cosi.config.ts is a project's config: cd cosi, or pass --config cosi/cosi.config.ts)\n",
    );
    // What it says to do works.
    const given = await cli(['get', 'rd', '--config', 'cosi/cosi.config.ts', '-o', 'name'], {
      cwd: dir,
    });
    expect(given.code).toBe(0);
    expect(given.stdout).toContain('vms.example.org');
  });

  it('names a file called nearly as a config, which is never read', async () => {
    await mkdir(path.join(dir, '.git'));
    await writeFile(path.join(dir, 'cosi.conf.ts'), `export default { manifests: ['.'] };\n`);
    const check = await cli(['check'], { cwd: dir });
    expect(check.code).toBe(2);
    expect(check.stderr).toContain(
      'cosi init starts one (cosi.conf.ts is not read as a config: cosi reads cosi.config.ts, cosi.config.mts, cosi.config.js, cosi.config.mjs)\n',
    );
  });
});

describe('an empty -f (a variable left unset)', { timeout: 60_000 }, () => {
  it('is said by run and diff as by apply, not replaced by the manifests the config names', async () => {
    await project(`{ manifests: ['manifests'] }`, {
      'manifests/defs.yaml': VM_DEFINITION,
      'manifests/vms.yaml': vm('web-1', 2),
    });
    const said = 'an empty path ("") names no file or directory';
    const applied = await cli(['apply', '-f', ''], { cwd: dir });
    expect(applied.stdout + applied.stderr).toContain(said);
    // Refused as the manifests are read: the state is never opened.
    const diffed = await cli(['diff', '-f', '', '--state', 'etcd://127.0.0.1:1'], { cwd: dir });
    expect(diffed.code).toBe(2);
    expect(diffed.stderr).toContain(said);
    const run = await runCosi(['run', '-f', ''], dir);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(said);
    expect(run.stderr).not.toContain('applied');
  });
});
