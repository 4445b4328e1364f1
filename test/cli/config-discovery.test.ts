import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

const VM_NETWORK = path.join(REPO, 'fixtures/vm-network');
const CI_LAYOUT = path.join(REPO, 'fixtures/ci-layout');

const A_VM = 'metadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: 2 }\n';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-config-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('finding the config', () => {
  it('finds it next to manifest files given one by one', async () => {
    const r = await cli(['apply', '-f', 'vms.yaml', '-f', 'hosts.yaml', '--stable'], {
      cwd: VM_NETWORK,
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^converged, 13 resources, 3 controllers \(cosi\.config\.ts\)/);
    // The file's first run loads the engine and the config's compiler: over 5 s on a loaded machine.
  }, 60_000);

  it('finds it next to the files a quoted glob matches, as next to those the shell names', async () => {
    // Expanded by cosi, not by the shell: the glob names no file itself (review cli3 M1).
    const r = await cli(['get', 'vm', '-f', 'fixtures/vm-network/*.yaml', '-o', 'name', '-q']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('vms.example.org/db-1\nvms.example.org/web-1\nvms.example.org/web-2\n');
    const nested = await cli(['apply', '-f', 'fixtures/ci-layout/manifests/*.y*ml', '--stable']);
    expect(nested.code).toBe(0);
    expect(nested.stderr).toContain('3 controllers (fixtures/ci-layout/cosi.config.ts)');
  });

  it('finds it at the root of a repository whose manifests are in a folder', async () => {
    const r = await cli(['apply', '-f', 'manifests/', '--stable'], { cwd: CI_LAYOUT });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('3 controllers (cosi.config.ts)');
  });

  it('finds it above a manifest folder given from elsewhere', async () => {
    const r = await cli(['apply', '-f', 'fixtures/ci-layout/manifests', '--stable']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('3 controllers (fixtures/ci-layout/cosi.config.ts)');
  });

  it('finds it in the working directory when the manifests are elsewhere', async () => {
    await writeFile(
      path.join(dir, 'vm.yaml'),
      'metadata: { type: vm, id: x }\nspec: { cpus: 1, image: a }\n',
    );
    const r = await cli(['apply', '-f', path.join(dir, 'vm.yaml'), '--stable', '-q'], {
      cwd: VM_NETWORK,
    });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('NetworkConfig');
  });

  it('stops looking at the repository root', async () => {
    // A config above the repository must not be picked up: it would fail to load.
    await writeFile(path.join(dir, 'cosi.config.ts'), 'export default 42;\n');
    const repo = path.join(dir, 'repo');
    await mkdir(path.join(repo, '.git'), { recursive: true });
    await writeFile(path.join(repo, 'vm.yaml'), A_VM);
    const r = await cli(['apply', '-f', 'vm.yaml'], { cwd: repo });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error[unknown-type]');
  });

  it('takes a directory for --config', async () => {
    const r = await cli([
      'apply',
      '-f',
      'fixtures/ci-layout/manifests',
      '--config',
      'fixtures/vm-network',
      '-q',
    ]);
    expect(r.code).toBe(0);
    const none = await cli(['apply', '-f', 'fixtures/minimal', '--config', 'fixtures/minimal']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--config: fixtures/minimal: no cosi.config.ts');
  });

  it('draws the graph from --config alone', async () => {
    const r = await cli(['graph', '--config', 'fixtures/vm-network']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('vmnet.NetworkConfigController');
  });

  it('says which config it loaded with -v, and when there is none', async () => {
    const found = await cli(['apply', '-f', 'fixtures/vm-network', '-v', '--stable']);
    expect(found.stderr).toContain('cosi: config fixtures/vm-network/cosi.config.ts\n');
    await writeFile(path.join(dir, 'vm.yaml'), A_VM);
    const none = await cli(['apply', '-f', 'vm.yaml', '-v'], { cwd: dir });
    expect(none.stderr).toContain('cosi: no config found');
  });

  it('says that no config was found when a type is unknown', async () => {
    await writeFile(path.join(dir, 'vm.yaml'), A_VM);
    const r = await cli(['apply', '-f', 'vm.yaml'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /error\[unknown-type\]: .*no cosi\.config\.ts was found.*--config PATH/,
    );
    // A Kubernetes kind's is a CRD's to define, which its finding names: no word of a config.
    await writeFile(
      path.join(dir, 'widget.yaml'),
      'apiVersion: example.org/v1\nkind: Widget\nmetadata: { name: w }\n',
    );
    const kind = await cli(['check', 'widget.yaml'], { cwd: dir });
    expect(kind.stdout).toContain('no CustomResourceDefinition defines kind Widget');
    expect(kind.stdout).not.toContain('cosi.config.ts');
  });

  it('skips a FIFO named like a config instead of blocking on it', async () => {
    const made = spawnSync('mkfifo', [path.join(dir, 'cosi.config.ts')]);
    expect(made.status).toBe(0);
    await writeFile(path.join(dir, 'vm.yaml'), A_VM);
    const r = await cli(['apply', '-f', 'vm.yaml', '-v'], { cwd: dir });
    expect(r.stderr).toContain('cosi: no config found');
    const explicit = await cli(['apply', '-f', 'vm.yaml', '--config', 'cosi.config.ts'], {
      cwd: dir,
    });
    expect(explicit.code).toBe(2);
    expect(explicit.stderr).toContain('not a regular file');
  });
});

describe('mistakes in the config', () => {
  async function apply(config: string) {
    await writeFile(path.join(dir, 'cosi.config.ts'), config);
    await writeFile(path.join(dir, 'vm.yaml'), A_VM);
    return cli(['apply', '-f', '.'], { cwd: dir });
  }

  it('an unknown key is an error at the key, that suggests the key meant', async () => {
    const r = await apply('export default {\n  definitions: [],\n  controller: [],\n};\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'cosi.config.ts:3:3: unknown key `controller` (did you mean `controllers`?)',
    );
  });

  it('a config without a default export is an error', async () => {
    const r = await apply('export const config = { controllers: [] };\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('cosi.config.ts: the config has no default export');
  });

  it('every wrong value is reported at once, each at its key', async () => {
    const r = await apply(
      'export default { definitions: {}, controllers: [{ name: "x" }, 42], setup: "go" };\n',
    );
    expect(r.code).toBe(2);
    const lines = r.stderr
      .split('\n')
      .map((l) => l.replace(/^cosi: /, ''))
      .filter((l) => l.startsWith('cosi.config.ts:'));
    expect(lines).toEqual([
      'cosi.config.ts:1:18: `definitions` must be an array, not an object',
      'cosi.config.ts:1:35: controllers[0]: expected a controller (an object with a `name` and `run` or `reconcile`), got an object',
      'cosi.config.ts:1:35: controllers[1]: expected a controller (an object with a `name` and `run` or `reconcile`), got a number',
      'cosi.config.ts:1:69: `setup` must be a function, not a string',
    ]);
  });

  it('a definition that is not an object (an import misspelt: undefined) says what was expected', async () => {
    const r = await apply('const Teem = undefined;\nexport default { definitions: [Teem, 7] };\n');
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      'cosi.config.ts:2:18: definitions[0]: expected a resource type (`defineResource(...)`) or a definition (an object with a `type`), got undefined',
    );
    expect(r.stderr).toContain('definitions[1]: expected a resource type');
    expect(r.stderr).not.toContain("Cannot use 'in' operator");
  });

  it("a config that throws names the line in the user's file and the name as written", async () => {
    const r = await apply(
      [
        "import { createTransformControler, defineConfig } from 'cosi';",
        '',
        'export default defineConfig({',
        "  controllers: [createTransformControler({ name: 'x' })],",
        '});',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^cosi: cosi\.config\.ts:4:\d+: cannot load the config: createTransformControler is not exported by 'cosi' \(did you mean createTransformController\?\)$/m,
    );
  });

  it("an import of a module cosi does not have names cosi's modules, at the import", async () => {
    const config = (from: string): string =>
      `import { defineConfig } from 'cosi';\nimport { readManifests } from '${from}';\nexport default defineConfig({ controllers: [] });\nvoid readManifests;\n`;
    const modules = "it has 'cosi', 'cosi/loaders', 'cosi/testing' and 'cosi/testing/matchers'";
    // No cosi in the project: Node cannot find the module at all.
    const bare = await apply(config('cosi/loader'));
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain(
      `cosi: cosi.config.ts:2:31: cannot load the config: 'cosi/loader' is not one of cosi's modules (did you mean 'cosi/loaders'?): ${modules}`,
    );
    // cosi installed: Node refuses a subpath its package.json does not export.
    await mkdir(path.join(dir, 'node_modules'));
    await symlink(REPO, path.join(dir, 'node_modules/cosi'), 'dir');
    const installed = await apply(config('cosi/loader'));
    expect(installed.stderr).toContain(
      `cosi: cosi.config.ts:2:31: cannot load the config: 'cosi/loader' is not one of cosi's modules (did you mean 'cosi/loaders'?): ${modules}`,
    );
    expect(installed.stderr).not.toContain('package.json');
    const cosy = await apply(config('cosy'));
    expect(cosy.stderr).toContain(
      "cosi: cosi.config.ts:2:31: cannot load the config: Cannot find module 'cosy' (did you mean 'cosi'?)",
    );
  });

  it("one of cosi's other modules with no cosi installed says that only 'cosi' is given", async () => {
    const r = await apply(
      "import { createTestProject } from 'cosi/testing';\nexport default { controllers: [] };\nvoid createTestProject;\n",
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "cosi: cosi.config.ts:1:35: cannot load the config: Cannot find module 'cosi/testing': only 'cosi' comes from the cosi that runs the config; its other modules need cosi installed in the project (as cosi init's last lines say)\n",
    );
  });

  it("a name of 'cosi' imported from another of its modules names the module to import it from", async () => {
    await mkdir(path.join(dir, 'node_modules'));
    await symlink(REPO, path.join(dir, 'node_modules/cosi'), 'dir');
    const r = await apply(
      [
        "import { defineConfig, defineResource } from 'cosi/testing';",
        '',
        "const VM = defineResource<{ cpus: number }>({ type: 'VMs.example.org' });",
        'export default defineConfig({ definitions: [VM] });',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^cosi: cosi\.config\.ts:3:\d+: cannot load the config: defineResource is not a function \(its import names defineResource from 'cosi\/testing', which does not export it: import it from 'cosi'\)$/m,
    );
  });

  it('a name of cosi used but misspelt in its import names the import to fix', async () => {
    await writeFile(
      path.join(dir, 'types.ts'),
      "import { definResource } from 'cosi';\nexport const VM = defineResource({ type: 'VMs.example.org' });\n",
    );
    const r = await apply("import { VM } from './types';\nexport default { definitions: [VM] };\n");
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^cosi: types\.ts:2:\d+: cannot load the config: defineResource is not defined \(its import from 'cosi' names definResource, which 'cosi' does not export: did you mean defineResource\?\)$/m,
    );
  });

  it('a module that reads a type of the config that imports it names the import cycle', async () => {
    // The config is still loading while its imports run: App is undefined in the module (review
    // first2 M1); tsc accepts it, and the TypeError alone does not say why.
    await mkdir(path.join(dir, 'controllers'));
    await writeFile(
      path.join(dir, 'controllers', 'total.ts'),
      [
        "import type { Controller } from 'cosi';",
        "import { VM } from '../cosi.config';",
        'export const total: Controller = {',
        "  name: 'Total',",
        "  inputs: [{ namespace: VM.namespace, type: VM.type, kind: 'weak' }],",
        '  outputs: [],',
        '  async run() {},',
        '};',
        '',
      ].join('\n'),
    );
    const r = await apply(
      [
        "import { defineConfig, defineResource } from 'cosi';",
        "import { total } from './controllers/total';",
        "export const VM = defineResource<{ cpus: number }>({ type: 'VMs.example.org' });",
        'export default defineConfig({ definitions: [VM], controllers: [total] });',
        '',
      ].join('\n'),
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^cosi: controllers\/total\.ts:5:\d+: cannot load the config: Cannot read properties of undefined \(reading 'namespace'\) \(import cycle: controllers\/total\.ts imports cosi\.config\.ts, which imports it: move the types to a module both import\)$/m,
    );
    // A type-only import is erased: no cycle, and none is named.
    await writeFile(
      path.join(dir, 'controllers', 'total.ts'),
      "import type { VM } from '../cosi.config';\nexport const total = (undefined as unknown as { v: typeof VM }).v;\n",
    );
    const typeOnly = await apply(
      "import { total } from './controllers/total';\nexport default { controllers: [total] };\n",
    );
    expect(typeOnly.stderr).toMatch(/cannot load the config: Cannot read properties of undefined/);
    expect(typeOnly.stderr).not.toContain('import cycle');
  });

  it('a module the config imports that throws is the place of the error, with its line', async () => {
    await writeFile(
      path.join(dir, 'helper.ts'),
      "export function make(): never {\n  throw new Error('no controllers today');\n}\n",
    );
    const r = await apply(
      "import { make } from './helper.js';\nexport default { controllers: [make()] };\n",
    );
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^cosi: helper\.ts:2:\d+: cannot load the config: no controllers today$/m,
    );
  });
});

describe("docs/ci.md's CI job", () => {
  it('passes on the layout it describes: config at the root, manifests and goldens in folders', async () => {
    const page = await readFile(path.join(REPO, 'docs/ci.md'), 'utf8');
    const job = /- run: npx cosi (check .*)$/m.exec(page)?.[1];
    expect(job).toBeDefined();
    // The job's report goes to a temporary directory, not into the fixture.
    const report = path.join(dir, 'report.html');
    const args = (job ?? '').split(' ').map((arg) => (arg === 'report.html' ? report : arg));
    expect(args).toContain(report);
    const r = await cli(args, { cwd: CI_LAYOUT });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\d+ passed, 0 failed$/);
    expect(await readFile(report, 'utf8')).toMatch(/^<!doctype html>/i);
  });
});
