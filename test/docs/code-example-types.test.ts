/**
 * The TypeScript examples of README.md and docs/*.md type-check as a user's project would check
 * them (strict, the options of the tsconfig.json `cosi init` writes), against this repository's
 * source. code-examples.test.ts and testing-doc.test.ts run them, but through vitest, which strips
 * types: an example that no longer compiles (a call whose signature changed, a `create` that the
 * types now refuse) would still pass there.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO, allBlocks, type DocBlock } from './doc-blocks.js';

const run = promisify(execFile);

const examples = allBlocks().filter((b) => b.language === 'ts' && b.notRun === undefined);

/** The module a block is written to: its page and line, so that an error names them. */
const moduleOf = (b: DocBlock): string => `${b.page.replace(/[/.]/g, '-')}-${String(b.line)}.ts`;

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-doc-types-'));
  // The examples' other imports (vitest, node's types) resolve from this repository's packages.
  await symlink(path.join(REPO, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  await writeFile(path.join(dir, 'package.json'), '{ "type": "module" }\n');
  const src = (file: string): string[] => [path.join(REPO, 'src', file)];
  await writeFile(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'es2022',
        lib: ['es2023'], // cosi's source, compiled here, uses es2023's Intl
        module: 'esnext',
        moduleResolution: 'bundler',
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        paths: {
          cosi: src('index.ts'),
          'cosi/loaders': src('loaders/index.ts'),
          'cosi/testing': src('testing/index.ts'),
          'cosi/testing/matchers': src('testing/register-matchers.ts'),
        },
      },
      include: ['*.ts'],
    }),
  );
  // Each block a module of its own: the examples declare the same names.
  for (const b of examples) await writeFile(path.join(dir, moduleOf(b)), `${b.text}export {};\n`);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

it('finds the examples', () => {
  expect(examples.length).toBeGreaterThanOrEqual(8);
});

it('type-checks every TypeScript example of the docs', async () => {
  const tsc = path.join(REPO, 'node_modules/typescript-7/bin/tsc');
  const checked = await run(process.execPath, [tsc, '-p', '.', '--pretty', 'false'], {
    cwd: dir,
  }).then(
    () => '',
    (error: unknown) => (error as { stdout?: string }).stdout ?? String(error),
  );
  // An error at the page's own line: `docs/controllers.md:151:5: ...`.
  const errors = checked
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const at = /^(.+)\((\d+),(\d+)\): (.*)$/.exec(line);
      const block = examples.find((b) => moduleOf(b) === at?.[1]);
      if (at === null || block === undefined) return line;
      return `${block.page}:${String(block.line + Number(at[2]))}:${at[3] ?? ''}: ${at[4] ?? ''}`;
    });
  expect(errors).toEqual([]);
}, 120_000);
