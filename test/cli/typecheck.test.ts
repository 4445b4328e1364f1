import { chmod, mkdir, mkdtemp, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { STARTER_FILES } from '../../src/app/init/starter-files.js';
import { writeStarterProject } from '../../src/app/init/write-starter-project.js';
import { parseCompilerOutput, typecheckConfig } from '../../src/app/check/typecheck-config.js';
import { cli, REPO } from './run-cli.js';
import { waitFor } from '../support/wait-for.js';

let dir: string;

/**
 * The compilers a project may have: TypeScript 5 (a compiler in JavaScript with an API) and 7
 * (`npm install typescript` since 7.0: a native compiler whose package has no compiler API),
 * each this repository's copy (`typescript`, and `typescript-7` installed as an alias).
 */
const COMPILERS = [
  { name: 'TypeScript 5', package: 'typescript' },
  { name: 'TypeScript 7', package: 'typescript-7' },
] as const;

/**
 * The starter project, with `cosi` installed as a link to this repository (its built types in
 * dist/) and, unless told not to, `typescript` as a link to one of this repository's compilers.
 */
async function starterProject({
  typescript = 'typescript',
  tsconfig = true,
}: { typescript?: string | false; tsconfig?: boolean } = {}): Promise<void> {
  await mkdir(path.join(dir, '.git'));
  await writeStarterProject(
    dir,
    STARTER_FILES.filter((f) => tsconfig || f.path !== 'tsconfig.json'),
  );
  await mkdir(path.join(dir, 'node_modules'));
  await symlink(REPO, path.join(dir, 'node_modules/cosi'), 'dir');
  if (typescript !== false) {
    await symlink(
      path.join(REPO, 'node_modules', typescript),
      path.join(dir, 'node_modules/typescript'),
      'dir',
    );
  }
}

/** The starter config with a controller's line made a type error; the line it is on. */
async function plantTypeError(): Promise<number> {
  const config = path.join(dir, 'cosi.config.ts');
  const text = await readFile(config, 'utf8');
  const planted = text.replace(
    'config.spec.replicas = app.spec.replicas ?? 1;',
    'config.spec.replicas = app.spec.image;',
  );
  expect(planted).not.toBe(text);
  await writeFile(config, planted);
  return planted.split('\n').findIndex((l) => l.includes('replicas = app.spec.image;')) + 1;
}

/** A `typescript` package of the project's whose `tsc` is `script`. */
async function fakeCompiler(script: string): Promise<void> {
  await starterProject({ typescript: false });
  const root = path.join(dir, 'node_modules/typescript');
  await mkdir(path.join(root, 'bin'), { recursive: true });
  await writeFile(
    path.join(root, 'package.json'),
    JSON.stringify({ name: 'typescript', version: '0.0.0-fake', bin: { tsc: './bin/tsc' } }),
  );
  await writeFile(path.join(root, 'bin/tsc'), script);
  await chmod(path.join(root, 'bin/tsc'), 0o755);
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-typecheck-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(COMPILERS)('cosi check --typecheck with $name', { timeout: 120_000 }, (compiler) => {
  it("passes a config that type-checks against cosi's types", async () => {
    await starterProject({ typescript: compiler.package });
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toContain('types: 1 passed, 0 failed');
    expect(check.code).toBe(0);
  });

  it.each([
    ['with the tsconfig.json init writes', true],
    ['without a tsconfig.json (strict NodeNext defaults)', false],
  ])('finds a type error in a controller at its file, line and column, %s', async (_, tsconfig) => {
    await starterProject({ typescript: compiler.package, tsconfig });
    const line = await plantTypeError();
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toMatch(
      new RegExp(
        `^cosi\\.config\\.ts:${line}:\\d+: error\\[type-error\\]: Type 'string' is not assignable to type 'number'\\. \\(TS2322\\)$`,
        'm',
      ),
    );
    expect(check.stdout).toContain('types: 0 passed, 1 failed');
    expect(check.code).toBe(1);
    // Without --typecheck the run itself does not notice: the value is only wrong in type.
    expect((await cli(['check'], { cwd: dir })).code).toBe(0);
  });

  it("shows the whole advice of create()'s refusal of a draft made without its spec", async () => {
    await starterProject({ typescript: compiler.package });
    const config = path.join(dir, 'cosi.config.ts');
    await writeFile(
      config,
      `${await readFile(config, 'utf8')}
const Specless = defineResource<{ size: number }>({ type: 'Speclesses.example.org' });
export const store = (state: import('cosi').State) => state.create(Specless.create('x'));
`,
    );
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toMatch(
      /^cosi\.config\.ts:\d+:\d+: error\[type-error\]: .*SpeclessDraft/m,
    );
    expect(check.stdout).toContain(
      'left without a spec: give create() one, use modify(), or add a defaultSpec"',
    );
    expect(check.stdout).not.toContain('characters)');
    expect(check.code).toBe(1);
  });

  it('type-checks a config that does not load as well: its type errors are beside the config error', async () => {
    await starterProject({ typescript: compiler.package });
    const line = await plantTypeError();
    const config = path.join(dir, 'cosi.config.ts');
    const text = await readFile(config, 'utf8');
    const misspelt = text.replace('controllers:', 'controller:');
    expect(misspelt).not.toBe(text);
    await writeFile(config, misspelt);
    const check = await cli(['check', '--typecheck', '-o', 'json'], { cwd: dir });
    expect(check.code).toBe(2);
    const report = JSON.parse(check.stdout) as {
      cases: { check: string; findings: { code: string; line: number }[] }[];
    };
    const codes = report.cases.flatMap((c) => c.findings.map((f) => [c.check, f.code, f.line]));
    expect(codes).toContainEqual(['types', 'type-error', line]);
    expect(codes).toContainEqual(['setup', 'config-error', expect.any(Number)]);
  });

  it("takes the project's tsconfig.json, checks only the config's files, and leaves nothing behind", async () => {
    await starterProject({ typescript: compiler.package });
    // An option the defaults do not have, and a file of the project's outside the config's imports.
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      `${JSON.stringify({ compilerOptions: { strict: true, module: 'preserve', noUnusedLocals: true, skipLibCheck: true }, include: ['**/*.ts'] })}\n`,
    );
    await writeFile(path.join(dir, 'other.ts'), "export const other: number = 'not the config';\n");
    const config = path.join(dir, 'cosi.config.ts');
    const text = await readFile(config, 'utf8');
    await writeFile(config, text.replace('import {', 'const unused = 1;\nimport {'));
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toMatch(
      /^cosi\.config\.ts:8:7: error\[type-error\]: 'unused' is declared but its value is never read\. \(TS6133\)$/m,
    );
    expect(check.stdout).not.toContain('other.ts');
    expect(check.stdout).toContain('types: 0 passed, 1 failed');
    // The tsconfig cosi gave the compiler (beside the project's) is gone.
    expect((await readdir(dir)).filter((f) => f.includes('tsconfig'))).toEqual(['tsconfig.json']);
  });

  it("checks a config beside the project's rootDir (an app's tsconfig for its src/)", async () => {
    await starterProject({ typescript: compiler.package });
    await mkdir(path.join(dir, 'src'));
    await writeFile(path.join(dir, 'src/app.ts'), 'export const app = 1;\n');
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      `${JSON.stringify({ compilerOptions: { rootDir: 'src', outDir: 'dist', strict: true, module: 'preserve', skipLibCheck: true }, include: ['src'] })}\n`,
    );
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toContain('types: 1 passed, 0 failed');
    expect(check.code).toBe(0);
  });

  it('checks a JavaScript config as JavaScript (checkJs), with or without a tsconfig.json', async () => {
    await starterProject({ typescript: compiler.package, tsconfig: false });
    await rm(path.join(dir, 'cosi.config.ts'));
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      "import { defineConfig } from 'cosi';\n\n/** @type {number} */\nconst replicas = 'three';\n\nexport default defineConfig({ definitions: [], manifests: [String(replicas)] });\n",
    );
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toMatch(
      /^cosi\.config\.mjs:4:7: error\[type-error\]: Type 'string' is not assignable to type 'number'\. \(TS2322\)$/m,
    );
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      `${JSON.stringify({ compilerOptions: { strict: true, module: 'preserve', skipLibCheck: true } })}\n`,
    );
    const withTsconfig = await cli(['check', '--typecheck'], { cwd: dir });
    expect(withTsconfig.stdout).toMatch(/^cosi\.config\.mjs:4:7: error\[type-error\]/m);
  });

  it("reports an error of the project's tsconfig.json at that file", async () => {
    await starterProject({ typescript: compiler.package });
    await writeFile(
      path.join(dir, 'tsconfig.json'),
      '{\n  "compilerOptions": {\n    "notAnOption": true\n  }\n}\n',
    );
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toMatch(
      /^tsconfig\.json:3:5: error\[type-error\]: Unknown compiler option 'notAnOption'\. \(TS5023\)$/m,
    );
    expect(check.code).toBe(1);
  });
});

describe('cosi check --typecheck without a usable compiler', { timeout: 120_000 }, () => {
  it('says how to get TypeScript when the project has none', async () => {
    await starterProject({ typescript: false });
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toContain('error[typescript-missing]');
    expect(check.stdout).toContain('npm install --save-dev typescript');
    expect(check.code).toBe(1);
  });

  it('stops a compiler that does not finish in time, and says so', async () => {
    await fakeCompiler('setInterval(() => {}, 1000);\n');
    const types = await typecheckConfig(path.join(dir, 'cosi.config.ts'), dir, { waitMs: 300 });
    expect(types.findings).toEqual([
      expect.objectContaining({
        code: 'typecheck-failed',
        file: 'cosi.config.ts',
        message: 'TypeScript 0.0.0-fake did not finish the type check within 300ms: it was stopped',
      }),
    ]);
    expect((await readdir(dir)).filter((f) => f.includes('tsconfig'))).toEqual(['tsconfig.json']);
  });

  it('reports a compiler that fails without a diagnostic, with what it said', async () => {
    await fakeCompiler("process.stderr.write('out of memory, somehow\\n'); process.exit(3);\n");
    const check = await cli(['check', '--typecheck'], { cwd: dir });
    expect(check.stdout).toContain(
      'error[typecheck-failed]: TypeScript 0.0.0-fake exited with code 3: out of memory, somehow',
    );
    expect(check.code).toBe(1);
  });
});

/** Whether process `pid` is still running (a zombie is not: it has ended, unreaped). */
async function running(pid: number): Promise<boolean> {
  try {
    const stat = await readFile(`/proc/${String(pid)}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z /.test(stat);
  } catch {
    return false;
  }
}

describe('cosi check --typecheck stopped by a signal', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)(
    'on %s stops the compiler and removes the tsconfig it wrote beside the project',
    { timeout: 120_000 },
    async (signal) => {
      // A compiler that says where it is, then never finishes.
      await fakeCompiler(
        "require('node:fs').writeFileSync(require('node:path').join(__dirname, '../../../tsc.pid'), String(process.pid));\n" +
          'setInterval(() => {}, 1000);\n',
      );
      const cosi = spawn(
        process.execPath,
        [path.join(REPO, 'bin/cosi.js'), 'check', '--typecheck'],
        {
          cwd: dir,
          stdio: 'ignore',
        },
      );
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) =>
        cosi.once('exit', (code, killedBy) => resolve(killedBy ?? code)),
      );
      let pid: number | undefined;
      try {
        pid = Number(
          await waitFor(
            () => readFile(path.join(dir, 'tsc.pid'), 'utf8'),
            60_000,
            'the compiler to start',
          ),
        );
        expect((await readdir(dir)).some((f) => f.startsWith('.cosi-typecheck-'))).toBe(true);
        cosi.kill(signal);
        expect(await exited).toBe(signal);
        // Before, the compiler ran on, adopted by init, and its tsconfig stayed in the project.
        await waitFor(async () => !(await running(pid ?? 0)), 20_000, 'the compiler to stop');
        await waitFor(
          async () => !(await readdir(dir)).some((f) => f.startsWith('.cosi-typecheck-')),
          20_000,
          'the generated tsconfig to be removed',
        );
      } finally {
        cosi.kill('SIGKILL');
        if (pid !== undefined && (await running(pid))) process.kill(pid, 'SIGKILL');
      }
    },
  );
});

describe('parseCompilerOutput', () => {
  it('reads placed and global errors, joining the lines of a chained message', () => {
    const output = [
      "src/a.ts(3,7): error TS2322: Type '{ a: string; }' is not assignable to type 'B'.",
      "  Types of property 'a' are incompatible.",
      "    Type 'string' is not assignable to type 'number'.",
      "error TS5023: Unknown compiler option 'x'.",
      "C:\\work\\b (1).ts(10,2): error TS1005: ';' expected.\r",
      'Found 3 errors.',
      '  not a continuation: the line above was no error',
    ].join('\n');
    expect(parseCompilerOutput(output)).toEqual([
      {
        file: 'src/a.ts',
        line: 3,
        col: 7,
        code: 2322,
        message:
          "Type '{ a: string; }' is not assignable to type 'B'. Types of property 'a' are incompatible. Type 'string' is not assignable to type 'number'.",
      },
      { line: 0, col: 0, code: 5023, message: "Unknown compiler option 'x'." },
      { file: 'C:\\work\\b (1).ts', line: 10, col: 2, code: 1005, message: "';' expected." },
    ]);
  });
});
