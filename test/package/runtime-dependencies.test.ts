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

/** Every `.js` file below `dir`. */
async function scripts(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
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

/** The packages the built code imports, statically or dynamically, each with a file that does. */
async function importedPackages(): Promise<Map<string, string>> {
  const files = [...(await scripts(path.join(REPO, 'dist'))), path.join(REPO, 'bin/cosi.js')];
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

describe('the runtime dependencies', () => {
  it('are every package the built code imports, and only those', async () => {
    const manifest = JSON.parse(
      await readFile(path.join(REPO, 'package.json'), 'utf8'),
    ) as Manifest;
    const imported = await importedPackages();
    const runtime = Object.keys(manifest.dependencies).sort();
    // Nothing imported at run time is a dev dependency, or missing.
    const notRuntime = [...imported].filter(([name]) => !runtime.includes(name));
    expect(notRuntime).toEqual([]);
    // No runtime dependency is unused.
    expect(runtime.filter((name) => !imported.has(name))).toEqual([]);
    // Test data and build tools stay dev dependencies.
    for (const dev of ['@bufbuild/cel-spec', 'typescript', 'vitest', 'eslint', 'fast-check']) {
      expect(Object.keys(manifest.devDependencies)).toContain(dev);
    }
  });
});
