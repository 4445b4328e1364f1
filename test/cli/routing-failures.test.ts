/**
 * A builder's predicate that throws fails the controller where `cosi check` and `cosi test` see
 * it: the change it was routing is retried and, still failing, reported as failed, never as a
 * controller that recovered.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-routing-failures-'));
  await writeFile(
    path.join(dir, 'cosi.config.ts'),
    [
      "import { controllerManagedBy, defineConfig, defineResource, predicateFuncs } from 'cosi';",
      "const App = defineResource<{ image: string }>({ type: 'Apps.example.org' });",
      "const Deploy = defineResource<{ image: string }>({ type: 'Deploys.example.org' });",
      'export default defineConfig({',
      "  manifests: ['apps.yaml'],",
      '  definitions: [App, Deploy],',
      '  setup: (runtime) =>',
      '    controllerManagedBy(runtime)',
      '      .for(App, {',
      '        predicates: [',
      '          predicateFuncs({',
      '            create: (e) => (e.object.metadata.annotations as any).team.length > 0,',
      '          }),',
      '        ],',
      '      })',
      '      .withOptions({ outputs: [Deploy] })',
      '      .complete(async () => undefined),',
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

interface Finding {
  readonly code: string;
  readonly severity: string;
  readonly message: string;
  readonly file: string;
  readonly line: number;
}

describe('a builder predicate that throws', () => {
  it('fails cosi check with a finding that says the controller could not route the change', async () => {
    const r = await cli(['check', '-f', 'apps.yaml', '-o', 'json'], { cwd: dir });
    expect(r.code).toBe(1);
    const findings = (JSON.parse(r.stdout) as { cases: { findings: Finding[] }[] }).cases.flatMap(
      (c) => c.findings,
    );
    expect(findings.map((f) => f.code)).not.toContain('controller-recovered');
    const failed = findings.find((f) => f.code === 'reconcile-failed');
    expect(failed).toMatchObject({ severity: 'error', file: 'apps.yaml', line: 1 });
    expect(failed?.message).toMatch(
      /^app could not map the change of Apps\.example\.org\(default\/web\) to the items it affects after \d+ attempts: /,
    );
  });

  it('fails a cosi test scenario that expects convergence', async () => {
    await writeFile(
      path.join(dir, 'apps.cosi-test.yaml'),
      'name: converges\nsteps:\n  - expect-converged: true\n',
    );
    const r = await cli(['test'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('error[not-converged]');
  });
});
