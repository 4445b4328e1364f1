/**
 * A controller's error names where in the project's code it was thrown, for a transform (whose
 * pass throws all its errors together, from inside cosi) as for a queue controller.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli, REPO } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-error-location-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const THROW = 'throw new Error(`no bridge for ${vm.metadata.id}`);';

/** docs/controllers.md's config example, with its transform throwing; and the line of the throw. */
async function failingDocsConfig(): Promise<{ line: number }> {
  const page = await readFile(path.join(REPO, 'docs/controllers.md'), 'utf8');
  const section = page.slice(page.indexOf('\n## The project config\n'));
  const block = /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? '';
  const config = block.replace('net.spec.bridge = `br-${vm.spec.image}`;', THROW);
  expect(config, "the docs' transform example was rewritten to throw").toContain(THROW);
  await writeFile(path.join(dir, 'cosi.config.ts'), config);
  await writeFile(
    path.join(dir, 'vms.yaml'),
    'metadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: 2, image: debian }\n',
  );
  return { line: config.split('\n').findIndex((l) => l.includes(THROW)) + 1 };
}

describe("docs/controllers.md's transform example, when its transform throws", () => {
  it('apply names the line of the config where the transform threw', async () => {
    const { line } = await failingDocsConfig();
    const r = await cli(['apply', '-f', 'vms.yaml', '--stable'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      new RegExp(`last error: .*no bridge for web-1 \\(at cosi\\.config\\.ts:${line}:\\d+\\)`),
    );
  });

  it('check places the controller finding at that line, not at the config as a whole', async () => {
    const { line } = await failingDocsConfig();
    const r = await cli(['check', '-f', 'vms.yaml', '-o', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const findings = (
      JSON.parse(r.stdout) as {
        cases: { findings: { code: string; file: string; line: number }[] }[];
      }
    ).cases.flatMap((c) => c.findings);
    expect(findings.find((f) => f.code === 'controller-failed')).toMatchObject({
      file: 'cosi.config.ts',
      line,
    });
  });
});

describe('a queue controller whose reconcile throws', () => {
  const QTHROW = "throw new Error('boom from qtransform');";

  it('check places the finding at the manifest of the item and names the line that threw', async () => {
    const config = [
      "import { createQTransformController, defineConfig, defineResource } from 'cosi';",
      "const App = defineResource<{ port: number }>({ type: 'Apps.example.org' });",
      "const Svc = defineResource<{ port: number }>({ type: 'Svcs.example.org' });",
      'export default defineConfig({',
      '  definitions: [App, Svc],',
      '  controllers: [',
      '    createQTransformController({',
      "      name: 'SvcController',",
      '      input: App,',
      '      output: Svc,',
      '      mapMetadata: (app) => Svc.create(app.metadata.id),',
      '      unmapMetadata: (svc) => App.pointer(svc.metadata.id),',
      '      transform: () => {',
      `        ${QTHROW}`,
      '      },',
      '    }),',
      '  ],',
      '});',
      '',
    ].join('\n');
    await writeFile(path.join(dir, 'cosi.config.ts'), config);
    await writeFile(
      path.join(dir, 'apps.yaml'),
      'metadata: { type: Apps.example.org, id: api }\nspec: { port: 80 }\n',
    );
    const line = config.split('\n').findIndex((l) => l.includes(QTHROW)) + 1;
    const r = await cli(['check', '-f', 'apps.yaml', '-o', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const findings = (
      JSON.parse(r.stdout) as {
        cases: { findings: { code: string; file: string; line: number; message: string }[] }[];
      }
    ).cases.flatMap((c) => c.findings);
    const failed = findings.find((f) => f.code === 'reconcile-failed');
    expect(failed).toMatchObject({ file: 'apps.yaml', line: 1 });
    expect(failed?.message).toMatch(
      new RegExp(`: boom from qtransform \\(at cosi\\.config\\.ts:${line}:\\d+\\)$`),
    );
  });
});
