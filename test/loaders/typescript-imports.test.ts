import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pointImportsAtTypeScript } from '../../src/loaders/typescript-imports.js';

const dir = path.resolve('/project/config');
const file = path.join(dir, 'cosi.config.ts');
/** A file system holding `files` (paths relative to `dir`). */
const holding =
  (...files: string[]) =>
  (candidate: string): boolean =>
    files.some((f) => path.resolve(dir, f) === candidate);

describe('the imports of a transpiled TypeScript file', () => {
  it('name the .ts file when the .js file they name is not there', () => {
    const code =
      'var _t = await jitiImport("./types.js");\nvar _c = require("../lib/controllers.js");';
    expect(pointImportsAtTypeScript(code, file, holding('types.ts', '../lib/controllers.ts'))).toBe(
      'var _t = await jitiImport("./types.ts");\nvar _c = require("../lib/controllers.ts");',
    );
  });

  it('map .mjs to .mts and .cjs to .cts', () => {
    const code = 'jitiImport("./a.mjs"); jitiImport("./b.cjs");';
    expect(pointImportsAtTypeScript(code, file, holding('a.mts', 'b.cts'))).toBe(
      'jitiImport("./a.mts"); jitiImport("./b.cts");',
    );
  });

  it('are left alone when the .js file exists, or no .ts file does', () => {
    const code = 'jitiImport("./built.js"); jitiImport("./missing.js");';
    expect(pointImportsAtTypeScript(code, file, holding('built.js', 'built.ts'))).toBe(code);
  });

  it('are left alone when they name a package or a file without a script extension', () => {
    const code = 'jitiImport("cosi"); jitiImport("yaml/dist/index.js"); jitiImport("./data.json");';
    expect(pointImportsAtTypeScript(code, file, () => true)).toBe(code);
  });

  it('touch only the import calls of the transpiled output, not strings that look alike', () => {
    const code = 'const note = "./types.js"; myImport("./types.js");';
    expect(pointImportsAtTypeScript(code, file, holding('types.ts'))).toBe(code);
  });
});
