/**
 * A config whose controllers cannot be registered together is reported problem by problem, each
 * whole, however many there are: one message listing them all was cut in the middle.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-registration-problems-'));
  await writeFile(
    path.join(dir, 'cosi.config.ts'),
    [
      "import { defineConfig, defineResource, type Controller } from 'cosi';",
      "const App = defineResource<{ image: string }>({ type: 'Apps.example.org' });",
      "const Audit = defineResource<{ n: number }>({ type: 'Audits.example.org' });",
      'const auditor: Controller = {',
      "  name: 'AuditController',",
      "  inputs: [{ namespace: App.namespace, type: App.type, kind: 'weak' }],",
      "  outputs: [{ type: Audit.type, kind: 'exclusive' }],",
      '  async run(rt) {',
      '    for await (const _ of rt.events()) rt.resetRestartBackoff();',
      '  },',
      '};',
      'export default defineConfig({',
      '  definitions: [App, Audit],',
      "  controllers: [auditor, { ...auditor, name: 'AuditController2' }, auditor],",
      '});',
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

describe('controllers that cannot be registered together', () => {
  it('are reported by cosi check as one config-error finding per problem, none of them cut', async () => {
    const r = await cli(['check', '-f', 'apps.yaml', '-o', 'json'], { cwd: dir });
    expect(r.code).toBe(2);
    const findings = (
      JSON.parse(r.stdout) as { cases: { findings: { code: string; message: string }[] }[] }
    ).cases.flatMap((c) => c.findings);
    expect(findings.map((f) => [f.code, f.message])).toEqual([
      [
        'config-error',
        'cannot register the controllers: controllers "AuditController" and "AuditController2" both claim exclusive output Audits.example.org',
      ],
      [
        'config-error',
        'cannot register the controllers: controller "AuditController" is already registered',
      ],
      [
        'config-error',
        'cannot register the controllers: controllers "AuditController" and "AuditController" both claim exclusive output Audits.example.org',
      ],
    ]);
  });

  it('are each a line of their own in the usage error of cosi apply', async () => {
    const r = await cli(['apply', '-f', 'apps.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).not.toContain('characters cut');
    expect(r.stderr).toContain(
      'cosi.config.ts: cannot register the controllers: controller "AuditController" is already registered\n',
    );
  });
});
