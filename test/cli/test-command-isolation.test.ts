/**
 * `cosi test` runs the scenarios' projects in a supervised worker thread: a controller stuck in a
 * loop, one awaiting a promise that never settles and one that calls `process.exit` fail the step
 * they were in, at its line in the scenario file, with the documented exit codes; the scenarios
 * after a stuck one still run. Real processes, each killed if it outlives its bound.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCosi, type CosiRun } from '../support/cosi-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-test-isolation-'));
  await writeFile(
    path.join(dir, 'vms.yaml'),
    'metadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: 2 }\n',
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A config whose controller runs `body` once the VM has 4 CPUs (`vm` is the VM). */
const config = (
  body: string,
  prelude = '',
): string => `import { defineConfig, defineResource } from 'cosi';
${prelude}
const VM = defineResource<{ cpus: number }>({ type: 'VMs.example.org' });
export default defineConfig({ definitions: [VM], controllers: [{ name: 'Faulty', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [] }, mapInput: async () => [], reconcile: async (rt: any, pointer: any) => { const vm = await rt.get(pointer); if (vm.spec.cpus === 4) { ${body} } } } as never] });
`;

/** A scenario that edits the VM to 4 CPUs at line 5, then expects convergence. */
const EDITING = `name: the VM grows
manifests: vms.yaml
steps:
  - expect-converged: true
  - edit: { type: VMs.example.org, id: web-1, spec: { cpus: 4 } }
  - expect-converged: true
`;

const PASSING = `name: a later scenario
manifests: vms.yaml
steps:
  - expect-converged: true
`;

interface JsonReport {
  cases: { name: string; failed: boolean }[];
}

async function cosiTest(
  configText: string,
  args: readonly string[],
): Promise<CosiRun & { ms: number }> {
  await writeFile(path.join(dir, 'cosi.config.ts'), configText);
  await writeFile(path.join(dir, 'a.cosi-test.yaml'), EDITING);
  await writeFile(path.join(dir, 'b.cosi-test.yaml'), PASSING);
  const started = performance.now();
  const run = await runCosi(['test', ...args], dir, 90_000);
  return { ...run, ms: performance.now() - started };
}

describe('cosi test with a controller that never yields', () => {
  it("fails the step it was stuck in, at the step's line, and runs the next scenario", async () => {
    const r = await cosiTest(config('for (;;);'), ['--timeout', '3s']);
    expect(r.stdout).toMatch(
      /^a\.cosi-test\.yaml:5:5: error\[not-converged\]: Controller "Faulty" \(on VMs\.example\.org\(default\/web-1\)\) was still running after 3(\.\d+)?s without ever yielding/m,
    );
    expect(r.stdout).toMatch(
      /^a\.cosi-test\.yaml:5:5: error\[step-failed\]: 1 later step not run/m,
    );
    expect(r.code).toBe(1);
    // Well before the 60 s default: the bound stopped it.
    expect(r.ms).toBeLessThan(45_000);
  }, 90_000);

  it('reports every step in the -o format, the later scenario passed', async () => {
    const r = await cosiTest(config('for (;;);'), ['--timeout', '3s', '-o', 'json']);
    const report = JSON.parse(r.stdout) as JsonReport;
    expect(report.cases.map((c) => [c.name, c.failed])).toEqual([
      ['a.cosi-test.yaml › the VM grows › 1. expect-converged', false],
      ['a.cosi-test.yaml › the VM grows › 2. edit', true],
      ['b.cosi-test.yaml › a later scenario › 1. expect-converged', false],
    ]);
    expect(r.code).toBe(1);
  }, 90_000);

  it('in the config itself makes a scenario that cannot run (exit 2), at --timeout but never before 5 s', async () => {
    await writeFile(path.join(dir, 'loop.ts'), 'for (;;);\nexport {};\n');
    // The one scenario: each waits the 5 s its config is given before it is stopped.
    const r = await cosiTest(config('return;', "import './loop.ts';"), [
      '--timeout',
      '2s',
      'a.cosi-test.yaml',
    ]);
    expect(r.stdout).toMatch(
      /^a\.cosi-test\.yaml:1:1: error\[invalid-scenario\]: the scenario's config does not load: The config \(while it loaded\) was still running after 5(\.\d+)?s/m,
    );
    expect(r.code).toBe(2);
  }, 90_000);
});

describe('cosi test with a controller awaiting a promise that never settles', () => {
  it('ends at --timeout, failing the step that expects convergence at its line', async () => {
    const r = await cosiTest(config('await new Promise(() => undefined);'), ['--timeout', '3s']);
    expect(r.stdout).toMatch(
      /^a\.cosi-test\.yaml:6:5: error\[not-converged\]: expected the controllers to converge, but they did not \(max-time\): Faulty was still running \(on VMs\.example\.org\(default\/web-1\)\) after 3(\.\d+)?s with nothing else to do/m,
    );
    expect(r.code).toBe(1);
    expect(r.ms).toBeLessThan(45_000);
  }, 90_000);
});

describe('cosi test with a controller that calls process.exit', () => {
  it('fails the step whose convergence it was in, never passes with exit 0', async () => {
    const r = await cosiTest(config('process.exit(0);'), []);
    expect(r.stdout).toMatch(
      /^a\.cosi-test\.yaml:5:5: error\[controller-failed\]: Faulty: called process\.exit\(0\)/m,
    );
    expect(r.code).toBe(1);
  }, 90_000);

  it('taken before cosi could guard it, ends only the worker: a failed step', async () => {
    const r = await cosiTest(
      config(
        'exit(0);',
        'const exit = (process as unknown as { reallyExit: (code: number) => never }).reallyExit;',
      ),
      [],
    );
    expect(r.stdout).toMatch(
      /^a\.cosi-test\.yaml:5:5: error\[controller-failed\]: Controller "Faulty" \(on VMs\.example\.org\(default\/web-1\)\) ended cosi's worker thread/m,
    );
    expect(r.code).toBe(1);
  }, 90_000);
});
