import { readFile, readdir } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import * as path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const REPO = path.resolve(import.meta.dirname, '../..');

interface Manifest {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

/** Every file below `dir` whose name ends with `suffix`. */
async function filesEndingWith(dir: string, suffix: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith(suffix))
    .map((e) => path.join(e.parentPath, e.name));
}

/** The package a bare specifier names (`@scope/name/sub` -> `@scope/name`); none for a path. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('/') || specifier.startsWith('node:')) {
    return undefined;
  }
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** The packages the files import, statically or dynamically, each with a file that does. */
async function importedPackages(files: readonly string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const file of files) {
    // TypeScript's pre-processor reads the imports (and dynamic imports) as the parser sees
    // them: an import written in a comment or a string is not one.
    const { importedFiles } = ts.preProcessFile(await readFile(file, 'utf8'), true, true);
    for (const { fileName } of importedFiles) {
      const name = packageOf(fileName);
      if (name !== undefined && !builtinModules.includes(name) && !found.has(name)) {
        found.set(name, path.relative(REPO, file));
      }
    }
  }
  return found;
}

const dist = path.join(REPO, 'dist');
/** What the built code imports at run time (the packages bundled into it are not imported). */
const codeImports = async (): Promise<Map<string, string>> =>
  importedPackages([
    ...(await filesEndingWith(dist, '.js')),
    // The worker's script (its imports of packages left out of the bundle are `require`s).
    ...(await filesEndingWith(dist, '.cjs')),
    path.join(REPO, 'bin/cosi.js'),
  ]);
/**
 * What the shipped declarations import: a user's `tsc` reads them, so it needs the package.
 * Except the test runner whose `expect` `cosi/testing/matchers` extends: the user's own.
 */
const typeImports = async (): Promise<Map<string, string>> => {
  const found = await importedPackages(await filesEndingWith(dist, '.d.ts'));
  found.delete('vitest');
  return found;
};

describe('the runtime dependencies', () => {
  it('are every package the built code or its declarations import, and only those', async () => {
    const manifest = JSON.parse(
      await readFile(path.join(REPO, 'package.json'), 'utf8'),
    ) as Manifest;
    const imported = new Map([...(await typeImports()), ...(await codeImports())]);
    const runtime = Object.keys(manifest.dependencies).sort();
    // Nothing imported at run time (or named by a declaration) is a dev dependency, or missing.
    const notRuntime = [...imported].filter(([name]) => !runtime.includes(name));
    expect(notRuntime).toEqual([]);
    // No runtime dependency is unused.
    expect(runtime.filter((name) => !imported.has(name))).toEqual([]);
    // Test data and build tools stay dev dependencies.
    for (const dev of ['@bufbuild/cel-spec', 'typescript', 'vitest', 'eslint', 'fast-check']) {
      expect(Object.keys(manifest.devDependencies)).toContain(dev);
    }
  });

  it('are not imported by the start-up path: those it loads are bundled into dist', async () => {
    const bundled = JSON.parse(
      await readFile(path.join(REPO, 'scripts/bundled-packages.json'), 'utf8'),
    ) as string[];
    const imported = await codeImports();
    expect(bundled.filter((name) => imported.has(name))).toEqual([]);
    // Each is compiled in: a chunk holds its code (yaml's composer, commander's Command).
    const chunks = await filesEndingWith(path.join(dist, 'chunks'), '.js');
    const code = (await Promise.all(chunks.map((file) => readFile(file, 'utf8')))).join('\n');
    expect(code).toContain('node_modules/yaml/dist/compose/composer.js');
    expect(code).toContain('node_modules/commander/lib/command.js');
  });
});
