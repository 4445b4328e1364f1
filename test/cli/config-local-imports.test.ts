/**
 * A config or module that imports a name one of the project's own modules does not export: Node
 * would refuse the import; the config's loader gives the name as undefined, and the error names
 * the import, wherever the undefined value then fails (review newuser54 #2).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-local-imports-'));
  await mkdir(path.join(dir, '.git'));
  await mkdir(path.join(dir, 'controllers'));
  await writeFile(
    path.join(dir, 'types.ts'),
    [
      "import { defineResource } from 'cosi';",
      "export const App = defineResource<{ image: string }>({ type: 'Apps.example.org' });",
      "export const Total = defineResource<{ apps: number }>({ type: 'Totals.example.org' });",
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir, 'apps.yaml'),
    'metadata: { type: app, id: web }\nspec: { image: nginx }\n',
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A whole-world controller module, importing App as `imported` names it. */
const totalModule = (imported: string): string =>
  [
    "import { listAll, type Controller } from 'cosi';",
    `import { ${imported}, Total } from '../types';`,
    'export const totalController: Controller = {',
    "  name: 'TotalController',",
    "  inputs: [{ namespace: App.namespace, type: App.type, kind: 'weak' }],",
    "  outputs: [{ type: Total.type, kind: 'exclusive' }],",
    '  async run(rt) {',
    '    for await (const _ of rt.events()) {',
    '      const apps = await listAll(rt, App);',
    "      await rt.modify(Total.create('all'), (t) => { t.spec.apps = apps.length; });",
    '    }',
    '  },',
    '};',
    '',
  ].join('\n');

const check = () => cli(['check', '-f', 'apps.yaml'], { cwd: dir });

describe('a name imported from a module of the project that does not export it', () => {
  it('is named where the undefined value fails as the config loads', async () => {
    await writeFile(path.join(dir, 'controllers', 'total.ts'), totalModule('APP as App'));
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      "import { App, Total } from './types';\nimport { totalController } from './controllers/total';\nexport default { definitions: [App, Total], controllers: [totalController] };\n",
    );
    const r = await check();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^cosi: controllers\/total\.ts:5:\d+: cannot load the config: Cannot read properties of undefined \(reading 'namespace'\) \(controllers\/total\.ts:2:10 imports APP from '\.\.\/types', which exports no APP: did you mean App\?\)$/m,
    );
    // Imported as exported, the same project checks.
    await writeFile(path.join(dir, 'controllers', 'total.ts'), totalModule('App'));
    const fixed = await check();
    expect(fixed.stderr).toBe('');
    expect(fixed.code).toBe(0);
  });

  it("is named when a controller fails on it: a name used only in the controller's code", async () => {
    // Only the reconcile reads APP: the config loads, and the controller fails as it runs.
    await writeFile(
      path.join(dir, 'controllers', 'total.ts'),
      totalModule('APP, App as Apps')
        .replace('listAll(rt, App)', 'listAll(rt, APP)')
        .replace(
          'namespace: App.namespace, type: App.type',
          'namespace: Apps.namespace, type: Apps.type',
        ),
    );
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      "import { App, Total } from './types';\nimport { totalController } from './controllers/total';\nexport default { definitions: [App, Total], controllers: [totalController] };\n",
    );
    const hint =
      "(controllers/total.ts:2:10 imports APP from '../types', which exports no APP: did you mean App?)";
    const r = await check();
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(
      /controllers\/total\.ts:9:\d+: error\[controller-failed\]: TotalController kept failing: Cannot read properties of undefined \(reading '\w+'\) \(controllers\/total\.ts:2:10 imports APP/,
    );
    expect(r.stdout).toContain(hint);
    const apply = await cli(['apply', '-f', 'apps.yaml'], { cwd: dir });
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(`last error: Cannot read properties of undefined`);
    expect(apply.stderr).toContain(hint);
    // A controller failing on an undefined value of its own says nothing of imports.
    await writeFile(
      path.join(dir, 'controllers', 'total.ts'),
      totalModule('App').replace('listAll(rt, App)', 'listAll(rt, undefined as never)'),
    );
    const own = await check();
    expect(own.code).toBe(1);
    expect(own.stdout).toContain(
      'TotalController kept failing: Cannot read properties of undefined',
    );
    expect(own.stdout).not.toContain('imports');
  });

  it('is named in the config: a controller imported under a name its module does not export', async () => {
    await writeFile(path.join(dir, 'controllers', 'total.ts'), totalModule('App'));
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      "import { App, Total } from './types';\nimport { totalControler } from './controllers/total';\nexport default { definitions: [App, Total], controllers: [totalControler] };\n",
    );
    const r = await check();
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(
      "controllers[0]: expected a controller (an object with a `name` and `run` or `reconcile`), got undefined (cosi.config.ts:2:10 imports totalControler from './controllers/total', which exports no totalControler: did you mean totalController?)",
    );
  });

  it('is named when setup fails on it, and an undefined setup is no longer left out silently', async () => {
    await writeFile(
      path.join(dir, 'controllers', 'svc.ts'),
      [
        "import { controllerManagedBy, type Runtime } from 'cosi';",
        "import { Apps as App, Total } from '../types';",
        'export const setupTotal = (runtime: Runtime) =>',
        '  controllerManagedBy(runtime)',
        '    .for(App)',
        '    .owns(Total)',
        '    .complete(async () => {});',
        '',
      ].join('\n'),
    );
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      "import { App, Total } from './types';\nimport { setupTotal } from './controllers/svc';\nexport default { definitions: [App, Total], setup: setupTotal };\n",
    );
    const r = await check();
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^cosi: controllers\/svc\.ts:\d+:\d+: setup failed: for\(\) needs a resource type .* \(controllers\/svc\.ts:2:10 imports Apps from '\.\.\/types', which exports no Apps: did you mean App\?\)$/m,
    );
    // The setup function itself misspelt: undefined, which ran no setup and said nothing.
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      "import { App, Total } from './types';\nimport { setupTotl } from './controllers/svc';\nexport default { definitions: [App, Total], setup: setupTotl };\n",
    );
    const unset = await check();
    expect(unset.code).toBe(2);
    expect(unset.stderr).toContain(
      "`setup` is undefined (cosi.config.ts:2:10 imports setupTotl from './controllers/svc', which exports no setupTotl: did you mean setupTotal?)",
    );
  });
});
