import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STARTER_FILES } from '../../src/app/init/starter-files.js';
import { promisify } from 'node:util';
import { cli, REPO } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-init-'));
  // The repository root for config discovery: nothing above the temp dir is looked at.
  await mkdir(path.join(dir, '.git'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('cosi init', { timeout: 60_000 }, () => {
  it('writes a config, a manifest, a golden tree and a CI job', async () => {
    // proj is its repository's root: the CI job is its own.
    await mkdir(path.join(dir, 'proj/.git'), { recursive: true });
    const init = await cli(['init', 'proj'], { cwd: dir });
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    for (const file of STARTER_FILES) {
      expect(init.stdout).toContain(`wrote ${path.join('proj', file.path)}`);
      expect(await readFile(path.join(dir, 'proj', file.path), 'utf8')).toBe(file.text);
    }
    expect(STARTER_FILES.map((f) => f.path)).toEqual(
      expect.arrayContaining(['cosi.config.ts', '.github/workflows/cosi.yml']),
    );
    const workflow = await readFile(path.join(dir, 'proj/.github/workflows/cosi.yml'), 'utf8');
    // The project's own cosi, as its lock file pins it: installed first, never fetched by npx.
    const steps = workflow.split('\n').flatMap((line) => /^\s+- run: (.*)$/.exec(line)?.[1] ?? []);
    // It type-checks the config with the project's TypeScript: a type error the example's data
    // does not reach fails it too.
    // Then the controller's tests, in Node's own runner.
    expect(steps).toEqual([
      'npm ci',
      'npx cosi check --expect expected --typecheck -o github',
      'node --test',
    ]);
  });

  it("writes the CI job of a project in a subdirectory at the repository's root, working in it", async () => {
    const init = await cli(['init', 'platform/cosi'], { cwd: dir });
    expect([init.code, init.stderr]).toEqual([0, '']);
    expect(init.stdout).toContain(
      'wrote .github/workflows/cosi.yml (at the repository root, where GitHub reads workflows',
    );
    expect(init.stdout).toContain('wrote platform/cosi/cosi.config.ts');
    await expect(readdir(path.join(dir, 'platform/cosi/.github'))).rejects.toThrow();
    const workflow = await readFile(path.join(dir, '.github/workflows/cosi.yml'), 'utf8');
    expect(workflow).toMatch(
      /\n {4}defaults:\n {6}run:\n {8}working-directory: "platform\/cosi"\n {4}steps:\n/,
    );
    // A second project's job would replace the first's: refused, nothing written.
    const second = await cli(['init', 'platform/other'], { cwd: dir });
    expect(second.code).toBe(2);
    expect(second.stderr).toContain('../../.github/workflows/cosi.yml already exists');
    await expect(readdir(path.join(dir, 'platform/other'))).rejects.toThrow();
    // From inside the project, the job is named where it is.
    const inside = path.join(dir, 'apps/one');
    await mkdir(inside, { recursive: true });
    await rm(path.join(dir, '.github'), { recursive: true });
    const here = await cli(['init'], { cwd: inside });
    expect(here.stdout).toContain('wrote ../../.github/workflows/cosi.yml (at the repository root');
  });

  it('writes a project that passes cosi check, golden test included, with no -f', async () => {
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    const check = await cli(['check', '--expect', 'expected'], { cwd: dir });
    const said = check.stdout + check.stderr;
    expect(said).toContain('manifests: 2 resources in 1 file: 2 valid, 0 invalid');
    expect(said).toContain('expectations: 4 passed, 0 failed');
    expect(said).toContain('8 passed, 0 failed');
    expect(check.code).toBe(0);
    // A walk of the whole project leaves the golden files out (.cosiignore), as the docs say.
    const walked = await cli(['check', '.'], { cwd: dir });
    expect(walked.stdout).toContain('manifests: 2 resources in 1 file: 2 valid, 0 invalid');
    expect(walked.code).toBe(0);
    // The controller works: its output is what the golden tree records.
    const get = await cli(['get', 'appconfig', 'api', '-o', 'jsonpath={.spec.registry}'], {
      cwd: dir,
    });
    expect(get.stdout).toBe('ghcr.io\n');
  });

  it('a change to a manifest fails the golden test', async () => {
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    const manifest = path.join(dir, 'manifests/apps.yaml');
    await writeFile(
      manifest,
      (await readFile(manifest, 'utf8')).replace('replicas: 3', 'replicas: 4'),
    );
    const check = await cli(['check', '--expect', 'expected'], { cwd: dir });
    expect(check.code).toBe(1);
    expect(check.stdout + check.stderr).toContain('unexpected-state');
  });

  it('writes a test of the controller with cosi/testing that node --test runs, and that fails when the controller changes', async () => {
    expect((await cli(['init'], { cwd: dir })).code).toBe(0);
    // cosi as the project's dependency (this repository, built), as the install line links it.
    await mkdir(path.join(dir, 'node_modules'));
    await symlink(REPO, path.join(dir, 'node_modules/cosi'));
    const run = promisify(execFile);
    // Node's own discovery of test files: test/apps.test.mjs, nothing else.
    const passed = await run(process.execPath, ['--test', '--test-reporter=tap'], { cwd: dir });
    expect(passed.stdout).toMatch(/^# pass 3$/m);
    expect(passed.stdout).toContain(
      'ok 1 - the manifests converge to the golden tree in expected/',
    );
    // A controller that gets the registry wrong fails both: the golden tree at its line, the
    // applied App with the spec's diff.
    const config = path.join(dir, 'cosi.config.ts');
    await writeFile(
      config,
      (await readFile(config, 'utf8')).replace(
        "rest.length > 0 ? first : 'docker.io'",
        "rest.length > 9 ? first : 'docker.io'",
      ),
    );
    const failed = await run(process.execPath, ['--test', '--test-reporter=tap'], {
      cwd: dir,
    }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stdout: string },
    );
    expect(failed?.code).toBe(1);
    // The single pass too, at its assertion.
    expect(failed?.stdout).toMatch(/^# fail 3$/m);
    expect(failed?.stdout).toContain(
      'not ok 3 - one pass of the controller alone makes an AppConfig for each App',
    );
    expect(failed?.stdout).toContain(
      'expected/AppConfigs.example.org.yaml:11:13: error[unexpected-state]: AppConfigs.example.org(default/api) differs from the expectation',
    );
    expect(failed?.stdout).toContain('-registry: quay.io');
    // Recorded on request, the golden tree is what cosi check then expects.
    await run(process.execPath, ['--test'], {
      cwd: dir,
      env: { ...process.env, COSI_UPDATE_GOLDEN: '1' },
    }).catch(() => undefined);
    expect(
      await readFile(path.join(dir, 'expected/AppConfigs.example.org.yaml'), 'utf8'),
    ).not.toContain('registry: ghcr.io');
    const check = await cli(['check', '--expect', 'expected'], { cwd: dir });
    expect(check.stdout).toContain('expectations: 4 passed, 0 failed');
  }, 120_000);

  it("quotes a directory with a space in its next steps' cd, and says at once where it cannot make one", async () => {
    const spaced = await cli(['init', 'my proj'], { cwd: dir });
    expect(spaced.code).toBe(0);
    expect(spaced.stdout).toContain("\n  cd 'my proj'\n");
    // Node's own recursive mkdir never returns there: /proc takes no directory.
    const proc = await cli(['init', '/proc/cosi-init-test/project'], { cwd: dir });
    expect(proc.code).toBe(2);
    expect(proc.stderr).toMatch(
      /^cosi: init: cannot write the project: ENOENT.*'\/proc\/cosi-init-test'/,
    );
  });

  it('refuses to overwrite any file, names every one there, and writes nothing', async () => {
    await mkdir(path.join(dir, 'manifests'));
    await writeFile(path.join(dir, 'manifests/apps.yaml'), 'mine\n');
    await writeFile(path.join(dir, 'cosi.config.ts'), '// mine\n');
    const init = await cli(['init'], { cwd: dir });
    expect(init.code).toBe(2);
    expect(init.stderr).toContain('cosi.config.ts, manifests/apps.yaml already exist');
    expect(init.stdout).toBe('');
    expect(await readFile(path.join(dir, 'manifests/apps.yaml'), 'utf8')).toBe('mine\n');
    expect(await readFile(path.join(dir, 'cosi.config.ts'), 'utf8')).toBe('// mine\n');
    expect((await readdir(dir)).sort()).toEqual(['.git', 'cosi.config.ts', 'manifests']);
  });

  it('refuses manifests/ or expected/ that hold files of the project, which the starter would read as its own (review firsthour 2)', async () => {
    // A ConfigMap in manifests/: written beside it, the starter failed cosi check at once.
    await mkdir(path.join(dir, 'manifests'));
    await writeFile(
      path.join(dir, 'manifests/cm.yaml'),
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
    );
    await writeFile(path.join(dir, 'README.md'), '# mine\n');
    const init = await cli(['init'], { cwd: dir });
    expect(init.code).toBe(2);
    expect(init.stderr).toBe(
      'cosi: init: manifests/ already holds cm.yaml, which the starter project would read as its own (it reads every file of manifests/: its check would not pass): cosi init writes a new project and overwrites nothing (run it in an empty directory (cosi init DIR makes one), or move these away)\n',
    );
    expect(init.stdout).toBe('');
    expect((await readdir(dir)).sort()).toEqual(['.git', 'README.md', 'manifests']);
    expect(await readdir(path.join(dir, 'manifests'))).toEqual(['cm.yaml']);
    // expected/ too, its files named (three, and how many more); other files are no reason.
    await rm(path.join(dir, 'manifests'), { recursive: true });
    await mkdir(path.join(dir, 'expected'));
    for (const name of ['a.yaml', 'b.yaml', 'c.yaml', 'd.yaml']) {
      await writeFile(path.join(dir, 'expected', name), '');
    }
    const again = await cli(['init'], { cwd: dir });
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('expected/ already holds a.yaml, b.yaml, c.yaml and 1 more,');
    await rm(path.join(dir, 'expected'), { recursive: true });
    const written = await cli(['init'], { cwd: dir });
    expect(written.code).toBe(0);
    expect(written.stdout).toContain('wrote manifests/apps.yaml');
  });

  it('names a file where a directory of the starter goes, rather than failing on the path (review firsthour 2)', async () => {
    await writeFile(path.join(dir, 'manifests'), 'mine\n');
    const init = await cli(['init'], { cwd: dir });
    expect(init.code).toBe(2);
    expect(init.stderr).toContain('cosi: init: manifests already exists: cosi init writes');
    expect((await readdir(dir)).sort()).toEqual(['.git', 'manifests']);
  });

  it('writes nothing through a directory that is a link out of the project', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'cosi-init-outside-'));
    try {
      await symlink(outside, path.join(dir, 'expected'));
      await symlink(outside, path.join(dir, '.github'));
      const init = await cli(['init'], { cwd: dir });
      expect(init.code).toBe(2);
      expect(init.stderr).toContain(
        'expected, .github are links (a file written through one could land outside the project)',
      );
      expect(await readdir(outside)).toEqual([]);
      expect((await readdir(dir)).sort()).toEqual(['.git', '.github', 'expected']);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('writes a tsconfig.json only when there is none: an existing one is kept, never a refusal', async () => {
    await writeFile(path.join(dir, 'tsconfig.json'), '{ "compilerOptions": {} }\n');
    const init = await cli(['init'], { cwd: dir });
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('wrote cosi.config.ts');
    expect(init.stdout).not.toContain('tsconfig.json');
    expect(await readFile(path.join(dir, 'tsconfig.json'), 'utf8')).toBe(
      '{ "compilerOptions": {} }\n',
    );
  });

  it("warns when the tsconfig.json it keeps lacks what cosi's type declarations need, saying what to set", async () => {
    const kept = async (tsconfig: string, sub: string) => {
      // Each its own repository: one CI job each.
      await mkdir(path.join(dir, sub, '.git'), { recursive: true });
      await writeFile(path.join(dir, sub, 'tsconfig.json'), tsconfig);
      return cli(['init', sub], { cwd: dir });
    };
    const bare = await kept('{ "compilerOptions": {} }\n', 'bare');
    expect(bare.code).toBe(0);
    expect(bare.stderr).toMatch(
      /^cosi: warning: bare\/tsconfig\.json \(kept\) has no "skipLibCheck": true, and its "target" is older than cosi's type declarations need .*; set "skipLibCheck": true, or "target": "es2022", in its compilerOptions\n$/,
    );
    const oldLib = await kept(
      '{ "compilerOptions": { "target": "es2022", "lib": ["es2020"] } }',
      'lib',
    );
    expect(oldLib.stderr).toContain('or "target": "es2022" and "es2022" in "lib", in');
    // JSON with comments and trailing commas, as tsc reads it.
    for (const [sub, text] of [
      ['skip', '{ "compilerOptions": { "skipLibCheck": true } }'],
      ['es2020', '{ "compilerOptions": { "target": "es2020", "lib": ["ES2021", "DOM"] } }'],
      [
        'target',
        '{\n  // new enough\n  "$schema": "https://json.schemastore.org/tsconfig",\n  "compilerOptions": { "target": "ESNext", /* any lib */ },\n}\n',
      ],
      ['extends', '{ "extends": "@tsconfig/node20/tsconfig.json" }'],
    ] as const) {
      const quiet = await kept(text, sub);
      expect([quiet.code, quiet.stderr], sub).toEqual([0, '']);
    }
  });

  it("writes a tsconfig.json every TypeScript from 5.0 reads: module esnext with the bundler's resolution, not preserve (5.4+)", () => {
    const tsconfig = STARTER_FILES.find((file) => file.path === 'tsconfig.json');
    const { compilerOptions } = JSON.parse(tsconfig?.text ?? '{}') as {
      compilerOptions: Record<string, unknown>;
    };
    expect(compilerOptions).toMatchObject({ module: 'esnext', moduleResolution: 'bundler' });
  });

  it.each(['typescript', 'typescript-7'])(
    'writes a project whose own tsc (%s) type-checks the config, and finds a planted error',
    async (typescript) => {
      expect((await cli(['init'], { cwd: dir })).code).toBe(0);
      await mkdir(path.join(dir, 'node_modules'));
      await symlink(REPO, path.join(dir, 'node_modules/cosi'), 'dir');
      const tsc = path.join(REPO, 'node_modules', typescript, 'bin/tsc');
      const run = promisify(execFile);
      // The project's tsconfig.json as init wrote it, as `npx tsc` reads it.
      await expect(run(process.execPath, [tsc], { cwd: dir })).resolves.toMatchObject({
        stdout: '',
      });
      const config = path.join(dir, 'cosi.config.ts');
      const text = await readFile(config, 'utf8');
      await writeFile(config, text.replace('app.spec.replicas ?? 1;', 'app.spec.image;'));
      const planted = await run(process.execPath, [tsc], { cwd: dir }).then(
        () => undefined,
        (error: unknown) => error as { stdout: string; code: number },
      );
      expect(planted?.stdout).toMatch(/^cosi\.config\.ts\(\d+,\d+\): error TS2322:/m);
      expect(planted?.code).not.toBe(0);
    },
    60_000,
  );

  it('--help names every file init writes', async () => {
    const help = await cli(['init', '--help']);
    expect(help.code).toBe(0);
    const text = help.stdout.replace(/\s+/g, ' ');
    for (const file of STARTER_FILES) {
      // expected/Apps.example.org.yaml is 'the golden tree ... (expected/)', the CI job's file
      // '.github/workflows'.
      const named = /^[^/]+\//.exec(file.path)?.[0] ?? file.path;
      expect(text, file.path).toContain(named === '.github/' ? '.github/workflows' : named);
    }
  });

  it('does not tell to install the TypeScript that the project depends on already', async () => {
    await mkdir(path.join(dir, 'proj'));
    await writeFile(
      path.join(dir, 'proj/package.json'),
      '{ "name": "proj", "devDependencies": { "typescript": "^7.0.2" } }\n',
    );
    const init = await cli(['init', 'proj'], { cwd: dir });
    expect(init.code).toBe(0);
    const line = init.stdout.split('\n').find((l) => l.includes('npm install'));
    expect(line?.trim()).toBe(`npm install --save-dev ${REPO}`);
  });

  it('ends with an install line of this cosi (not on the registry) that works: npx cosi runs it', async () => {
    const init = await cli(['init', 'proj'], { cwd: dir });
    expect(init.code).toBe(0);
    const line = init.stdout.split('\n').find((l) => l.includes('npm install'));
    // The project has no package.json: one first, so that npm installs into it, not above it.
    expect(line?.trim()).toBe(`npm init -y && npm install --save-dev ${REPO} typescript`);
    // The line as a user runs it, without TypeScript (from the registry) and offline: npm links
    // this repository as the project's cosi, and writes package.json and its lock for CI.
    const project = path.join(dir, 'proj');
    const run = promisify(execFile);
    await run('npm', ['init', '-y'], { cwd: project });
    const args = (line ?? '').trim().split(' && ')[1]?.split(' ').slice(1, -1) ?? [];
    await run('npm', [...args, '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], {
      cwd: project,
    });
    const manifest = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {
      devDependencies?: Record<string, string>;
    };
    expect(manifest.devDependencies?.['cosi']).toMatch(/^file:/);
    expect(await readFile(path.join(project, 'package-lock.json'), 'utf8')).toContain('"cosi"');
    const check = await run('npx', ['--offline', 'cosi', 'check', '--expect', 'expected'], {
      cwd: project,
    });
    expect(check.stdout).toMatch(/^8 passed, 0 failed$/m);
  }, 120_000);
});
