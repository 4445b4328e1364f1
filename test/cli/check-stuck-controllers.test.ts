/**
 * `cosi check` counts a controller the run stopped waiting on (a reconcile or pass that never
 * returned) as failed, with a finding of its own, not as passed because it threw nothing.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-check-stuck-'));
  await writeFile(
    path.join(dir, 'cosi.config.ts'),
    [
      "import { defineConfig, defineResource, type Controller, type QController } from 'cosi';",
      "const App = defineResource<{ image: string }>({ type: 'Apps.example.org' });",
      "const Svc = defineResource<{ port: number }>({ type: 'Svcs.example.org' });",
      'const hang: Controller = {',
      "  name: 'HangController',",
      "  inputs: [{ namespace: App.namespace, type: App.type, kind: 'weak' }],",
      '  outputs: [],',
      '  async run(rt) {',
      '    for await (const _ of rt.events()) await new Promise(() => {});',
      '  },',
      '};',
      'const qhang: QController = {',
      "  name: 'QHang',",
      '  settings: {',
      "    inputs: [{ namespace: App.namespace, type: App.type, kind: 'primary' }],",
      "    outputs: [{ type: Svc.type, kind: 'exclusive' }],",
      '  },',
      '  async reconcile() {',
      '    await new Promise(() => {});',
      '  },',
      '  async mapInput() {',
      '    return [];',
      '  },',
      '};',
      'const fine: Controller = {',
      "  name: 'FineController',",
      "  inputs: [{ namespace: App.namespace, type: App.type, kind: 'weak' }],",
      '  outputs: [],',
      '  async run(rt) {',
      '    for await (const _ of rt.events()) rt.resetRestartBackoff();',
      '  },',
      '};',
      'export default defineConfig({ definitions: [App, Svc], controllers: [hang, qhang, fine] });',
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir, 'apps.yaml'),
    'metadata: { type: Apps.example.org, id: web }\nspec: { image: nginx }\n',
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('controllers still running at the stall bound', () => {
  it('are counted as failed by cosi check, each with a finding', async () => {
    const r = await cli(['check', '-f', 'apps.yaml', '--timeout', '1s'], { cwd: dir });
    expect(r.code).toBe(3);
    expect(r.stdout).toContain('controllers: 1 passed, 2 failed');
    expect(r.stdout).toMatch(
      /^cosi\.config\.ts: error\[controller-failed\]: HangController did not finish: it was still running after 1(\.\d+)?s/m,
    );
    expect(r.stdout).toMatch(
      /^apps\.yaml:1:1: error\[controller-failed\]: QHang did not finish: it was still running \(on Apps\.example\.org\(default\/web\)\) after 1(\.\d+)?s/m,
    );
  }, 30_000);
});
