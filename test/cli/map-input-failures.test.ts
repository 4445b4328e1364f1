/**
 * A queue controller's `mapInput` that returns a pointer of no primary input fails the
 * controller where `cosi test` sees it, as COSI's runtime panics on it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-map-input-failures-'));
  await writeFile(
    path.join(dir, 'cosi.config.ts'),
    [
      "import { defineConfig, defineResource, type QController } from 'cosi';",
      "const App = defineResource<{ image: string }>({ type: 'Apps.example.org' });",
      "const Deploy = defineResource<{ image: string }>({ type: 'Deploys.example.org' });",
      'const mapper: QController = {',
      "  name: 'MapCtl',",
      '  settings: {',
      '    inputs: [',
      "      { namespace: Deploy.namespace, type: Deploy.type, kind: 'primary' },",
      "      { namespace: App.namespace, type: App.type, kind: 'mapped' },",
      '    ],',
      '    outputs: [],',
      '  },',
      '  async reconcile() {},',
      '  // The slip: the App itself, where Deploy.pointer(md.id) was meant.',
      '  async mapInput(_rt, md) {',
      '    return [App.pointer(md.id)];',
      '  },',
      '};',
      "export default defineConfig({ manifests: ['apps.yaml'], definitions: [App, Deploy], controllers: [mapper] });",
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir, 'apps.yaml'),
    'metadata: { type: Deploys.example.org, id: web }\nspec: { image: nginx }\n',
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('a mapInput that returns a pointer of no primary input', () => {
  it('fails a cosi test scenario that expects convergence after a change', async () => {
    await writeFile(
      path.join(dir, 'map.cosi-test.yaml'),
      [
        'name: a new app is mapped',
        'steps:',
        '  - expect-converged: true',
        '  - apply:',
        '      metadata: { type: Apps.example.org, id: web }',
        '      spec: { image: nginx }',
        '  - expect-converged: true',
        '',
      ].join('\n'),
    );
    const r = await cli(['test'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('map.cosi-test.yaml:7:5: error[not-converged]');
    expect(r.stdout).toContain(
      'mapInput of controller "MapCtl" returned Apps.example.org(default/web), which is not a primary input (Deploys.example.org)',
    );
  });
});
