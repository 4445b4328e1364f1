import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  localImportHint,
  mayBeUndefinedImport,
  missingLocalImports,
} from '../../src/loaders/local-import-hints.js';

/** Files held in memory: the reader `missingLocalImports` takes. */
function filesOf(files: Record<string, string>): (file: string) => string | undefined {
  return (file) => files[file];
}

const TYPES = [
  "import { defineResource } from 'cosi';",
  'export interface AppSpec { image: string }',
  "export const App = defineResource<AppSpec>({ type: 'Apps.example.org' });",
  'export function helper() {}',
  'const Local = 1;',
  'export { Local as Renamed };',
  'export default App;',
  '',
].join('\n');

describe('missingLocalImports', () => {
  it('finds a name the imported module does not export, at its place, with the name meant', () => {
    const read = filesOf({
      '/p/types.ts': TYPES,
      '/p/controllers/total.ts':
        "import type { Controller } from 'cosi';\nimport { APP as App, helper } from '../types';\n",
    });
    expect(missingLocalImports('/p/controllers/total.ts', read)).toEqual([
      {
        file: '/p/controllers/total.ts',
        line: 2,
        col: 10,
        name: 'APP',
        specifier: '../types',
        guess: 'App',
      },
    ]);
  });

  it('resolves ./types.js to types.ts, an index, and reads every kind of export', () => {
    const read = filesOf({
      '/p/types.ts': TYPES,
      '/p/lib/index.ts':
        'export * as all from "./x";\nexport class Thing {}\nexport enum Mode { A }\n',
      '/p/cosi.config.ts': [
        "import { App, AppSpec, helper, Renamed, default as D } from './types.js';",
        "import { all, Thing, Mode } from './lib';",
        "import { type Nope } from './types';",
        "import type { Gone } from './types';",
        '',
      ].join('\n'),
    });
    expect(missingLocalImports('/p/cosi.config.ts', read)).toEqual([]);
  });

  it('judges no module whose exports its text does not tell, nor one it cannot find', () => {
    const read = filesOf({
      '/p/star.ts': "export * from './types';\n",
      '/p/cjs.js': 'module.exports = { a: 1 };\n',
      '/p/destructured.ts': 'export const { a, b } = { a: 1, b: 2 };\n',
      '/p/cosi.config.ts': [
        "import { x } from './star';",
        "import { y } from './cjs.js';",
        "import { z } from './destructured';",
        "import { w } from './missing';",
        "import { v } from 'some-package';",
        "// import { u } from './types';",
        '',
      ].join('\n'),
      '/p/types.ts': TYPES,
    });
    expect(missingLocalImports('/p/cosi.config.ts', read)).toEqual([]);
  });
});

describe('localImportHint', () => {
  it('names the first wrong import among the files, relative to the project', () => {
    const read = filesOf({
      '/p/types.ts': TYPES,
      '/p/cosi.config.ts': "import { App } from './types';\n",
      '/p/controllers/svc.ts': "\nimport { Apps as App } from '../types';\n",
    });
    expect(localImportHint(['/p/cosi.config.ts', '/p/controllers/svc.ts'], '/p', read)).toBe(
      ` (${path.join('controllers', 'svc.ts')}:2:10 imports Apps from '../types', which exports no Apps: did you mean App?)`,
    );
    expect(localImportHint(['/p/cosi.config.ts'], '/p', read)).toBe('');
  });

  it('is asked only of errors an undefined value gives', () => {
    expect(mayBeUndefinedImport("Cannot read properties of undefined (reading 'namespace')")).toBe(
      true,
    );
    expect(mayBeUndefinedImport('makeThing is not a function')).toBe(true);
    expect(mayBeUndefinedImport('no controllers today')).toBe(false);
  });
});
