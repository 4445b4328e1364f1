/**
 * The bounds stop a project's code that does not: a controller that writes in a loop stops at
 * the write bound, a reconcile that awaits a promise that never settles at `--timeout` (named,
 * with its resource and how long it was waited on), a config whose top-level await or `setup`
 * never settles is a configuration error. Real processes, each killed if it outlives its bound.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCosi, type CosiRun } from '../support/cosi-process.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-user-code-bounds-'));
  await writeFile(
    path.join(dir, 'vms.yaml'),
    'metadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: 2 }\n',
  );
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const HEADER = `import { defineConfig, defineResource } from 'cosi';
const VM = defineResource<{ cpus: number }>({ type: 'VMs.example.org' });
const Out = defineResource<{ n: number }>({ type: 'Outs.example.org' });
const weakVMs = [{ namespace: 'default', type: 'VMs.example.org', kind: 'weak' }];
`;

async function check(config: string, ...flags: string[]): Promise<CosiRun> {
  await writeFile(path.join(dir, 'cosi.config.ts'), HEADER + config);
  return runCosi(['check', '-f', 'vms.yaml', ...flags], dir, 30_000);
}

describe('a controller that does not stop', () => {
  it('writing in a loop that never yields is stopped at the write bound and named', async () => {
    const r = await check(
      `export default defineConfig({ definitions: [VM, Out], controllers: [{ name: 'Looper', inputs: weakVMs, outputs: [{ type: 'Outs.example.org', kind: 'exclusive' }],
  run: async (rt: any) => { for (let i = 0; ; i++) await rt.modify(Out.create('x'), (o: any) => { o.spec.n = i; }); } } as never] });
`,
      '--max-writes',
      '1000',
    );
    expect(r.stdout).toMatch(
      /did not converge \(max-writes\): kept changing, over the last 1001 writes: Outs\.example\.org\(default\/x\) \(1001 writes by Looper/,
    );
    expect(r.code).toBe(3);
    // Its refused write is where the run stopped, not a failure it recovered from.
    expect(r.stdout).not.toMatch(/controller-recovered/);
  }, 30_000);

  it('awaiting a promise that never settles in a reconcile is stopped at --timeout, with its resource', async () => {
    const r = await check(
      `export default defineConfig({ definitions: [VM], controllers: [{ name: 'Waiter', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [] }, mapInput: async () => [], reconcile: () => new Promise(() => {}) } as never] });
`,
      '--timeout',
      '2s',
    );
    expect(r.stdout).toMatch(
      /did not converge \(max-time\): Waiter was still running \(on VMs\.example\.org\(default\/web-1\)\) after 2(\.\d+)?s with nothing else to do/,
    );
    expect(r.code).toBe(3);
  }, 30_000);

  it('awaiting a promise that never settles in a run is stopped at --timeout and named', async () => {
    const r = await check(
      `export default defineConfig({ definitions: [VM], controllers: [{ name: 'Waiter', inputs: weakVMs, outputs: [], run: () => new Promise(() => {}) } as never] });
`,
      '--timeout',
      '2s',
    );
    expect(r.stdout).toMatch(/Waiter was still running after 2(\.\d+)?s with nothing else to do/);
    expect(r.code).toBe(3);
  }, 30_000);
});

describe('a config that does not finish', () => {
  it('at a top-level await that never settles is a configuration error at --timeout, never before 5 s', async () => {
    const r = await check(
      'await new Promise(() => {});\nexport default defineConfig({ definitions: [VM] });\n',
      '--timeout',
      '2s',
    );
    expect(r.stderr).toMatch(
      /^cosi: cosi\.config\.ts: cannot load the config: it did not finish within 5s$/m,
    );
    expect(r.code).toBe(2);
  }, 30_000);

  it('that leaves a timer running does not keep cosi from ending', async () => {
    const r = await check(
      'await new Promise(() => { setInterval(() => {}, 1000); });\nexport default defineConfig({ definitions: [VM] });\n',
      '--timeout',
      '1s',
    );
    expect(r.stderr).toMatch(/cannot load the config: it did not finish within 5s/);
    expect(r.code).toBe(2);
  }, 30_000);

  it('that takes a moment to load is given it, whatever --timeout says', async () => {
    // About 300 ms of work at import, as a large generated module takes on a busy machine.
    const r = await check(
      'const until = Date.now() + 300; while (Date.now() < until);\nexport default defineConfig({ definitions: [VM] });\n',
      '--timeout',
      '100ms',
    );
    expect(r.stderr).not.toMatch(/config/);
    expect(r.code).toBe(0);
  }, 30_000);

  it('refuses --timeout 0: a bound of nothing', async () => {
    const r = await check(
      'export default defineConfig({ definitions: [VM] });\n',
      '--timeout',
      '0',
    );
    expect(r.stderr).toMatch(/--timeout: must be more than 0/);
    expect(r.code).toBe(2);
  }, 30_000);

  it('in a setup that never settles is a configuration error at --timeout, never before 5 s', async () => {
    const r = await check(
      'export default defineConfig({ definitions: [VM], setup: () => new Promise(() => {}) });\n',
      '--timeout',
      '2s',
    );
    expect(r.stderr).toMatch(
      /^cosi: cosi\.config\.ts: setup failed: it did not finish within 5s$/m,
    );
    expect(r.code).toBe(2);
  }, 30_000);
});
