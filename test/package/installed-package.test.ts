/**
 * The package as a user gets it: `npm pack`, then `npm install ./cosi-*.tgz` in an empty
 * project (dependencies from the npm registry, or npm's cache), then the installed `cosi` and a
 * TypeScript project that imports it. One pack and one install per run: slow (a minute or so).
 * Like the other tests that run `bin/cosi.js`, it packs the current `dist/` (`npm run build`).
 */
import { execFile, spawn } from 'node:child_process';
import {
  copyFile,
  mkdir,
  mkdtemp,
  readFile,
  readdir,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { relativeLinksOf } from '../docs/doc-links.js';

const REPO = path.resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let dir: string | undefined;
let project: string;
/** The packed tarball. */
let tarball: string;

interface Outcome {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs a program in the user's project; its exit code and output, never a throw. */
async function inProject(file: string, args: readonly string[]): Promise<Outcome> {
  try {
    const { stdout, stderr } = await run(file, [...args], {
      cwd: project,
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 120_000,
      maxBuffer: 16 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return {
      code: typeof e.code === 'number' ? e.code : -1,
      stdout: e.stdout ?? '',
      stderr: e.stderr ?? '',
    };
  }
}

const cosi = (...args: string[]): Promise<Outcome> =>
  inProject(path.join(project, 'node_modules/.bin/cosi'), args);

/** The repository's compiler, on the user's project (its tsconfig.json): a user's `tsc --noEmit`. */
const tsc = (): Promise<Outcome> =>
  inProject(process.execPath, [
    path.join(REPO, 'node_modules/typescript/bin/tsc'),
    '--noEmit',
    '-p',
    '.',
  ]);

beforeAll(async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'cosi-package-'));
  dir = root;
  project = path.join(root, 'user-project');
  const packed = await run(
    NPM,
    ['pack', '--ignore-scripts', '--json', '--pack-destination', root],
    {
      cwd: REPO,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  tarball = path.join(root, filename);
  await mkdir(path.join(project, '.git'), { recursive: true });
  await writeFile(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: 'user-project', private: true, type: 'module' }, null, 2)}\n`,
  );
  await copyFile(path.join(root, filename), path.join(project, filename));
  await run(
    NPM,
    ['install', '--no-audit', '--no-fund', '--prefer-offline', '--ignore-scripts', `./${filename}`],
    { cwd: project, timeout: 600_000, maxBuffer: 64 * 1024 * 1024 },
  );
}, 660_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe('the packed package, installed in an empty project', { timeout: 180_000 }, () => {
  it('runs cosi, from node_modules/.bin and through npx', async () => {
    const { version } = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as {
      version: string;
    };
    expect(await cosi('--version')).toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
    const help = await cosi('--help');
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('init [dir]');
    const npx = await inProject(NPM, ['exec', '--offline', '--', 'cosi', 'version']);
    expect(npx.stdout).toContain(`cosi ${version}`);
  });

  it('runs through npx from the tarball, in a directory with no project', async () => {
    const { version } = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as {
      version: string;
    };
    const empty = path.join(dir ?? '', 'no-project');
    await mkdir(empty);
    // npx installs the package in npm's cache, under _npx/: what this run adds there is removed.
    const npxCache = path.join((await run(NPM, ['config', 'get', 'cache'])).stdout.trim(), '_npx');
    const before = new Set(await readdir(npxCache).catch(() => []));
    try {
      const npx = await run(
        NPM,
        ['exec', '--yes', '--prefer-offline', `--package=${tarball}`, '--', 'cosi', 'version'],
        { cwd: empty, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
      );
      expect(npx.stdout).toContain(`cosi ${version}`);
      expect(await readdir(empty)).toEqual([]);
    } finally {
      for (const added of await readdir(npxCache).catch(() => [])) {
        if (!before.has(added))
          await rm(path.join(npxCache, added), { recursive: true, force: true });
      }
    }
  }, 660_000);

  it('ships the built code with its TypeScript sources and declaration maps, not the tests', async () => {
    const shipped = path.join(project, 'node_modules/cosi');
    expect((await readdir(shipped)).sort()).toEqual(
      [
        'README.md',
        'bin',
        'dist',
        'docs',
        'fixtures',
        'kubernetes-openapi',
        'package.json',
        'src',
      ].sort(),
    );
    const files = await readdir(path.join(shipped, 'dist'), { recursive: true });
    expect(files).toContain('index.d.ts');
    // The only maps are the declarations', one for each, and each points into the shipped src/
    // (the go-to-definition test below follows one as an editor does).
    const maps = files.filter((f) => f.endsWith('.map'));
    expect(maps.filter((f) => !f.endsWith('.d.ts.map'))).toEqual([]);
    expect(maps.length).toBe(files.filter((f) => f.endsWith('.d.ts')).length);
    const unresolved: string[] = [];
    for (const map of maps) {
      const file = path.join(shipped, 'dist', map);
      const { sources } = JSON.parse(await readFile(file, 'utf8')) as { sources: string[] };
      for (const source of sources) {
        const target = path.resolve(path.dirname(file), source);
        const inSrc = target.startsWith(path.join(shipped, 'src') + path.sep);
        if (!inSrc || !(await exists(target))) unresolved.push(`${map}: ${source}`);
      }
    }
    expect(unresolved).toEqual([]);
    // No build tool or test data came along as a dependency.
    for (const dev of ['typescript', 'vitest', 'eslint', 'prettier', 'fast-check']) {
      await expect(stat(path.join(project, 'node_modules', dev))).rejects.toThrow();
    }
  });

  it('ships what its docs link to: every relative link of README and docs/ resolves inside the package', async () => {
    const shipped = path.join(project, 'node_modules/cosi');
    const pages = [
      'README.md',
      ...(await readdir(path.join(shipped, 'docs')))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    const targets = new Set<string>();
    const missing: string[] = [];
    for (const page of pages) {
      for (const link of relativeLinksOf(await readFile(path.join(shipped, page), 'utf8'))) {
        const target = link.split('#')[0] ?? '';
        if (target === '') continue;
        const file = path.relative(shipped, path.resolve(shipped, path.dirname(page), target));
        targets.add(file);
        const inside = !file.startsWith('..') && !path.isAbsolute(file);
        if (!inside || !(await exists(path.join(shipped, file)))) missing.push(`${page}: ${link}`);
      }
    }
    // The scan finds README's links into the docs and docs/api.md's into the sources.
    expect(targets).toContain('docs/cli.md');
    expect(targets).toContain('src/engine/errors.ts');
    expect(missing).toEqual([]);
  });

  it("ships the example projects its docs' examples run on, reached the way README says", async () => {
    const shipped = path.join(project, 'node_modules/cosi');
    const pages = [
      'README.md',
      ...(await readdir(path.join(shipped, 'docs')))
        .filter((name) => name.endsWith('.md'))
        .map((name) => `docs/${name}`),
    ];
    const named = new Set<string>();
    for (const page of pages) {
      const text = await readFile(path.join(shipped, page), 'utf8');
      for (const [, fixture = ''] of text.matchAll(/(?<![\w/.-])fixtures\/([\w.-]+)/g))
        named.add(fixture);
    }
    // The pages run `cosi ... -f fixtures/vm-network` and a dozen more of them.
    expect(named).toContain('vm-network');
    const missing: string[] = [];
    for (const fixture of named) {
      if (!(await exists(path.join(shipped, 'fixtures', fixture)))) missing.push(fixture);
    }
    expect(missing).toEqual([]);
    // README's block, as a user types it in the project's directory: a copy of the examples
    // beside the project, and one of the pages' commands run there with the project's cosi.
    const readme = await readFile(path.join(shipped, 'README.md'), 'utf8');
    const block =
      /<!-- not run: it copies from the installed package[^\n]*-->\n\n```sh\n([\s\S]*?)```/.exec(
        readme,
      )?.[1];
    expect(block, "README's block that copies the examples").toBeDefined();
    const ran = await inProject('bash', ['-e', '-c', block ?? 'false']);
    expect(ran.stderr).toMatch(/^converged, 13 resources, 3 controllers /m);
    expect(ran.stdout).toMatch(/^default\s+VM\s+web-1\s+3\s/m);
    expect(ran.code).toBe(0);
  });

  it('starts a project with cosi init that passes cosi check at once, and its CI job', async () => {
    const init = await cosi('init');
    expect(init.code).toBe(0);
    // The project's own cosi runs it: TypeScript alone is left to install.
    expect(init.stdout).toContain('\n  npm install --save-dev typescript\n');
    const check = await cosi('check', '--expect', 'expected');
    expect(check.stdout).toContain('8 passed, 0 failed');
    expect(check.code).toBe(0);
    // The CI job's steps after its `npm ci` (this project is installed already), as the runner
    // runs them: npx finds the installed cosi, offline.
    const workflow = await readFile(path.join(project, '.github/workflows/cosi.yml'), 'utf8');
    const [install, ...steps] = workflow
      .split('\n')
      .flatMap((line) => /^\s+- run: (.*)$/.exec(line)?.[1] ?? []);
    expect(install).toBe('npm ci');
    // With the TypeScript init says to install (the repository's, linked), as `npm ci` gives it.
    const typescript = path.join(project, 'node_modules/typescript');
    await symlink(path.join(REPO, 'node_modules/typescript'), typescript, 'dir');
    try {
      expect(steps).toEqual([
        'npx cosi check --expect expected --typecheck -o github',
        'node --test',
      ]);
      const [checkStep = '', testStep = ''] = steps;
      const checked = await inProject('sh', ['-c', checkStep.replace(/^npx /, 'npx --offline ')]);
      // The golden test's 8 and the type check.
      expect(checked.stdout, checkStep).toMatch(/^9 passed, 0 failed$/m);
      expect(checked.code, checkStep).toBe(0);
      // The starter's own test, with cosi/testing from the installed package.
      const tested = await inProject('sh', ['-c', testStep]);
      expect(tested.stdout, testStep).toMatch(/^# pass 3$/m);
      expect(tested.stdout, testStep).toMatch(/^# fail 0$/m);
      expect(tested.code, testStep).toBe(0);
    } finally {
      await rm(typescript);
    }
  });

  it('is installed from its installed directory (the line cosi init prints) with its scripts run', async () => {
    // npm runs a directory dependency's `prepare`: the package's own must not need the
    // repository's build scripts, which it does not ship.
    const other = path.join(dir ?? '', 'other-project');
    await mkdir(other);
    await writeFile(path.join(other, 'package.json'), '{ "name": "other", "private": true }\n');
    const installed = await run(
      NPM,
      [
        'install',
        '--save-dev',
        '--offline',
        '--no-audit',
        '--no-fund',
        path.join(project, 'node_modules/cosi'),
      ],
      { cwd: other, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 },
    );
    expect(installed.stderr).not.toMatch(/npm error/);
    const version = await run(process.execPath, [
      path.join(other, 'node_modules/cosi/bin/cosi.js'),
      '--version',
    ]);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+/);
  }, 660_000);

  it("type-checks the project against cosi's types, and tsc finds a planted error", async () => {
    // (init ran in the test before: the project has its config.)
    await writeFile(
      path.join(project, 'tsconfig.json'),
      `${JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          noEmit: true,
          types: [],
          skipLibCheck: true,
        },
        include: ['*.ts'],
      })}\n`,
    );
    const clean = await tsc();
    expect(clean.stdout).toBe('');
    expect(clean.code).toBe(0);
    const config = path.join(project, 'cosi.config.ts');
    const text = await readFile(config, 'utf8');
    await writeFile(
      config,
      text.replace(
        'config.spec.replicas = app.spec.replicas ?? 1;',
        'config.spec.replicas = app.spec.image;',
      ),
    );
    try {
      const planted = await tsc();
      expect(planted.stdout).toMatch(
        /^cosi\.config\.ts\(\d+,\d+\): error TS2322: Type 'string' is not assignable to type 'number'/m,
      );
      expect(planted.code).not.toBe(0);
      // cosi check --typecheck says so too, with the project's own TypeScript, once it has one.
      const without = await cosi('check', '--typecheck');
      expect(without.stdout).toContain('npm install --save-dev typescript');
      expect(without.code).toBe(1);
      // What `npm install typescript` gives since 7.0: the native compiler, no compiler API.
      await symlink(
        path.join(REPO, 'node_modules/typescript-7'),
        path.join(project, 'node_modules/typescript'),
        'dir',
      );
      const typed = await cosi('check', '--typecheck');
      expect(typed.stdout).toMatch(
        /^cosi\.config\.ts:\d+:\d+: error\[type-error\]: Type 'string'/m,
      );
      expect(typed.code).toBe(1);
    } finally {
      await writeFile(config, text);
    }
  });
  it('has its types found by the older module resolution too (node10: no exports map)', async () => {
    // (init is the tests' before.) An editor or a tsconfig of old defaults resolves `cosi` and
    // its subpaths by package.json's `types` and `typesVersions`.
    await writeFile(
      path.join(project, 'node10.ts'),
      "import { defineConfig } from 'cosi';\nimport { createTestProject } from 'cosi/testing';\n" +
        "import { readManifests } from 'cosi/loaders';\n" +
        'export const kinds: [typeof defineConfig, typeof createTestProject, typeof readManifests] = [defineConfig, createTestProject, readManifests];\n' +
        "export const wrong: number = defineConfig({ definitions: [] }).definitions?.length ?? 'none';\n",
    );
    await writeFile(
      path.join(project, 'tsconfig.node10.json'),
      `${JSON.stringify({
        compilerOptions: {
          strict: true,
          module: 'commonjs',
          moduleResolution: 'node10',
          ignoreDeprecations: '5.0',
          target: 'es2022',
          noEmit: true,
          types: [],
          skipLibCheck: true,
        },
        files: ['node10.ts'],
      })}\n`,
    );
    try {
      const node10 = await inProject(process.execPath, [
        path.join(REPO, 'node_modules/typescript/bin/tsc'),
        '-p',
        'tsconfig.node10.json',
      ]);
      // The one error is the planted one: every import resolved, with its types.
      const errors = node10.stdout.split('\n').filter((line) => line.includes('error TS'));
      expect(errors).toEqual([
        expect.stringMatching(/^node10\.ts\(5,\d+\): error TS2322: Type 'number \| "none"'/),
      ]);
    } finally {
      await rm(path.join(project, 'node10.ts'), { force: true });
      await rm(path.join(project, 'tsconfig.node10.json'), { force: true });
    }
  });

  it("takes an editor's go-to-definition into cosi's TypeScript source, not its declarations", async () => {
    // (init and the tsconfig.json are the tests' before.)
    const config = path.join(project, 'cosi.config.ts');
    const lines = (await readFile(config, 'utf8')).split('\n');
    const line = lines.findIndex((text) => text.startsWith('export default defineConfig('));
    expect(line).toBeGreaterThan(-1);
    const found = await definitionsAt(config, line + 1, 'export default '.length + 1);
    const shipped = path.join(project, 'node_modules/cosi');
    expect(found.map((d) => path.relative(shipped, d.file))).toEqual([
      expect.stringMatching(/^src[\\/].*\.ts$/),
    ]);
    const [definition] = found;
    const source = (await readFile(definition?.file ?? '', 'utf8')).split('\n');
    expect(source[(definition?.start.line ?? 0) - 1]).toContain('function defineConfig');
  });

  it('installs what README says: its package count, and its files within 15%', async () => {
    const readme = await readFile(path.join(REPO, 'README.md'), 'utf8');
    const stated = /\*\*(\d+) packages, \d+ MB on disk\*\* \((\d+) MB of\s+files/.exec(readme);
    expect(stated, 'README states "**N packages, N MB on disk** (N MB of files"').not.toBeNull();
    const [packages, megabytes] = [Number(stated?.[1]), Number(stated?.[2])];
    const lock = JSON.parse(
      await readFile(path.join(project, 'node_modules/.package-lock.json'), 'utf8'),
    ) as { packages: Record<string, unknown> };
    const installed = Object.keys(lock.packages).filter((key) => key.startsWith('node_modules/'));
    expect(installed.length).toBeGreaterThanOrEqual(Math.floor(packages * 0.9));
    expect(installed.length).toBeLessThanOrEqual(Math.ceil(packages * 1.1));
    const bytes = await filesSize(path.join(project, 'node_modules'));
    expect(bytes / 2 ** 20).toBeGreaterThan(megabytes * 0.85);
    expect(bytes / 2 ** 20).toBeLessThan(megabytes * 1.15);
    // And the tarball's size, as npm says it (decimal megabytes).
    const packed = /`npm pack` makes the package \((\d+(?:\.\d+)?) MB\)/.exec(readme);
    expect(packed, 'README states "`npm pack` makes the package (N MB)"').not.toBeNull();
    const tarballMb = (await stat(tarball)).size / 1e6;
    expect(tarballMb).toBeGreaterThan(Number(packed?.[1]) * 0.85);
    expect(tarballMb).toBeLessThan(Number(packed?.[1]) * 1.15);
  });
});

interface Definition {
  readonly file: string;
  readonly start: { readonly line: number; readonly offset: number };
}

/**
 * What an editor's go-to-definition finds at a place of a file (1-based line and column): the
 * answer of tsserver, the TypeScript service editors run, asked as they ask it (open the file,
 * then `definition`), in the user's project.
 */
async function definitionsAt(file: string, line: number, offset: number): Promise<Definition[]> {
  const server = spawn(
    process.execPath,
    [
      path.join(REPO, 'node_modules/typescript/lib/tsserver.js'),
      '--disableAutomaticTypingAcquisition',
    ],
    { cwd: project, stdio: ['pipe', 'pipe', 'ignore'] },
  );
  try {
    const answer = new Promise<Definition[]>((resolve, reject) => {
      let pending = '';
      server.stdout.setEncoding('utf8');
      server.stdout.on('data', (chunk: string) => {
        const lines = (pending + chunk).split('\n');
        pending = lines.pop() ?? '';
        for (const text of lines) {
          if (!text.startsWith('{')) continue; // a message's Content-Length header
          const message = JSON.parse(text) as {
            type: string;
            request_seq?: number;
            success?: boolean;
            message?: string;
            body?: Definition[];
          };
          if (message.type !== 'response' || message.request_seq !== 2) continue;
          if (message.success === true) resolve(message.body ?? []);
          else reject(new Error(`tsserver: ${message.message ?? 'definition failed'}`));
        }
      });
      server.on('exit', (code) =>
        reject(new Error(`tsserver exited (${code}) before it answered`)),
      );
    });
    const requests = [
      { seq: 1, type: 'request', command: 'open', arguments: { file } },
      { seq: 2, type: 'request', command: 'definition', arguments: { file, line, offset } },
    ];
    for (const request of requests) server.stdin.write(`${JSON.stringify(request)}\n`);
    return await answer;
  } finally {
    server.kill();
  }
}

/** The bytes of the files below `dir`, symbolic links not followed. */
async function filesSize(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += await filesSize(full);
    else if (entry.isFile()) total += (await stat(full)).size;
  }
  return total;
}

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );
