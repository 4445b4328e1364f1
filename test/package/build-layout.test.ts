/**
 * `dist/` is bundled (scripts/build.mjs): only the modules it keeps as entries are files of
 * their own. Every path into `dist/` that the package's exports, the bin, the benchmarks, the
 * tests and cosi's own code (a worker's entry) name must be one of them.
 */
import { execFileSync } from 'node:child_process';
import { access, readFile, readdir } from 'node:fs/promises';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');

/** The `.ts` files below `dir`. */
async function sources(dir: string): Promise<string[]> {
  const entries = await readdir(path.join(REPO, dir), { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name));
}

/**
 * The `dist/...` modules a file names: `../dist/x.js`, `dist('x.js')`, `'./dist/x.js'`,
 * `packageFile('dist/x.js')` (or `.cjs`, the worker's script).
 */
function distPaths(text: string): string[] {
  const named = [
    ...text.matchAll(/(?:\.\.?\/)+dist\/([\w/.-]+\.c?js)/g),
    ...text.matchAll(/\bdist\(['`]([\w/.-]+\.c?js)['`]\)/g),
    ...text.matchAll(/\bpackageFile\(['`]dist\/([\w/.-]+\.c?js)['`]\)/g),
  ];
  return named.map((m) => m[1] ?? '');
}

const exists = (file: string): Promise<boolean> =>
  access(file).then(
    () => true,
    () => false,
  );

describe('the bundled dist/', () => {
  it('has a file for every module the exports, the bin, benchmarks and tests load by path', async () => {
    const files = [
      ...(await sources('bench')),
      ...(await sources('src')),
      // This file's own examples are not paths.
      ...(await sources('test')).filter((file) => file !== import.meta.filename),
      path.join(REPO, 'bin/cosi.js'),
      path.join(REPO, 'package.json'),
    ];
    const named = new Set<string>();
    for (const file of files) for (const p of distPaths(await readFile(file, 'utf8'))) named.add(p);
    // The scan finds what it should: the exports and the benchmarks' deep imports.
    expect(named).toContain('index.js');
    expect(named).toContain('app/state-diff.js');
    expect(named).toContain('cli/scenario-worker.js');
    expect(named).toContain('cli/cli-script.cjs');
    expect(named).toContain('cli/cli-entry.cjs');
    const missing: string[] = [];
    for (const p of named) if (!(await exists(path.join(REPO, 'dist', p)))) missing.push(p);
    expect(missing).toEqual([]);
  });

  it("has the CLI's script in ASCII alone (read as Latin-1 at every start)", async () => {
    const bytes = await readFile(path.join(REPO, 'dist/cli/cli-script.cjs'));
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.findIndex((byte) => byte > 0x7f)).toBe(-1);
  });

  it("finds no module of cosi's by a path relative to its own place (its chunk's, once bundled)", async () => {
    const relative: string[] = [];
    for (const file of await sources('src')) {
      const text = await readFile(file, 'utf8');
      if (/new URL\(\s*['`]\.\.?\/[^'`]*\.js['`],\s*import\.meta\.url/.test(text)) {
        relative.push(path.relative(REPO, file));
      }
    }
    expect(relative).toEqual([]);
  });

  it("says the package's version, which the build writes into the code", async () => {
    const { version } = JSON.parse(await readFile(path.join(REPO, 'package.json'), 'utf8')) as {
      version: string;
    };
    const script = await readFile(path.join(REPO, 'dist/cli/cli-script.cjs'), 'utf8');
    expect(script).not.toContain('__COSI_VERSION__');
    const said = execFileSync(process.execPath, [path.join(REPO, 'bin/cosi.js'), 'version'], {
      encoding: 'utf8',
    });
    expect(said).toMatch(new RegExp(`^cosi ${version.replaceAll('.', '\\.')} \\(engine `));
  });
});
