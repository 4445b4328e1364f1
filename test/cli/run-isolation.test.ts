/**
 * `cosi run` runs the project's controllers in a supervised worker thread; signals, the
 * endpoints and the log stay on the main thread. A controller's fault is a log line naming it and
 * its resource: one that throws or calls `process.exit` is logged and retried (controller-runtime
 * recovers a panicking reconciler); one that stops its thread (a loop that never yields, the heap
 * exhausted, an exit cosi could not catch) ends the run with exit 1, for its supervisor to
 * restart it. The built CLI as real processes; every wait bounded, none a fixed sleep.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { exitWithin, spawnCosi, type CosiProcess } from '../support/cosi-process.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';
import { waitFor } from '../support/wait-for.js';
import { REPO } from './run-cli.js';

const HEADER = `import { defineConfig, defineResource } from 'cosi';
const VM = defineResource<{ cpus: number }>({ type: 'VMs.example.org' });
`;

/** A queue controller over the VMs whose reconcile is `body`. */
const reconciling = (name: string, body: string): string =>
  `export default defineConfig({ definitions: [VM], controllers: [{ name: '${name}', settings: { inputs: [{ namespace: 'default', type: 'VMs.example.org', kind: 'primary' }], outputs: [] }, mapInput: async () => [], reconcile: async () => { ${body} } } as never] });
`;

/** The JSON log lines a process wrote so far. */
const entries = (p: CosiProcess): Record<string, unknown>[] =>
  p
    .stderr()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

/** Waits (bounded) for a log entry matching `fields`. */
const entry = (p: CosiProcess, fields: Record<string, unknown>): Promise<Record<string, unknown>> =>
  p.waitUntil(
    () => entries(p).find((e) => Object.entries(fields).every(([k, v]) => e[k] === v)),
    30_000,
    `a log entry with ${JSON.stringify(fields)}`,
  );

const WEB_1 = 'VMs.example.org(default/web-1)';

let dir: string;
const processes: CosiProcess[] = [];
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-run-isolation-'));
  await writeFile(
    path.join(dir, 'vms.yaml'),
    'metadata: { type: VMs.example.org, id: web-1 }\nspec: { cpus: 2 }\n',
  );
});
afterEach(async () => {
  for (const p of processes.splice(0)) {
    p.kill('SIGKILL');
    await p.exited;
  }
  await rm(dir, { recursive: true, force: true });
});

async function run(
  config: string,
  extra: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<CosiProcess> {
  await writeFile(path.join(dir, 'cosi.config.ts'), HEADER + config);
  const p = spawnCosi(['run', '-f', 'vms.yaml', '--log-format', 'json', ...extra], dir, { env });
  processes.push(p);
  return p;
}

describe('cosi run (in memory): a controller stuck in a loop that never yields', () => {
  it('is stopped at --timeout, logged with its resource; health answers meanwhile; exit 1', async () => {
    const p = await run(reconciling('Spinner', 'for (;;);'), [
      '--timeout',
      '4s',
      '--health-addr',
      '127.0.0.1:0',
    ]);
    const address = (
      await p.waitUntil(
        () => entries(p).find((e) => typeof e['address'] === 'string'),
        30_000,
        'the health address',
      )
    )['address'] as string;
    await entry(p, { msg: 'leading: running 1 controller' });
    // The controller spins in the worker; the main thread still answers (were the spin on the main
    // thread, nothing would ever answer: the bound is for a loaded machine).
    const health = await fetch(`http://${address}/healthz`, {
      signal: AbortSignal.timeout(15_000),
    });
    expect(health.status).toBe(200);
    const fault = await entry(p, { code: 'user-code-stuck' });
    expect(fault).toMatchObject({
      level: 'error',
      controller: 'Spinner',
      resource: WEB_1,
      msg: expect.stringMatching(
        /^Controller "Spinner" \(on VMs\.example\.org\(default\/web-1\)\) was still running after 4(\.\d+)?s without ever yielding/,
      ) as unknown,
    });
    expect(await exitWithin(p, 20_000)).toBe(1);
    expect(entries(p).map((e) => e['msg'])).toContain(
      "shutting down (the controllers' worker thread stopped; exiting with 1 to be restarted)",
    );
  }, 60_000);
});

describe('cosi run (in memory): a config that never finishes loading', () => {
  it('is stopped at --timeout, never before 5 s: a configuration error naming the config, exit 2', async () => {
    await writeFile(path.join(dir, 'loop.ts'), 'for (;;);\nexport {};\n');
    const p = await run(`import './loop.ts';\n${reconciling('Fine', 'return;')}`, [
      '--timeout',
      '2s',
    ]);
    const refused = await entry(p, { code: 'config' });
    expect(refused['msg']).toMatch(
      /^The config \(while it loaded\) was still running after 5(\.\d+)?s/,
    );
    expect(await exitWithin(p, 20_000)).toBe(2);
  }, 60_000);
});

describe('cosi run (in memory): a reconcile awaiting a promise that never settles', () => {
  it('is logged once --timeout has passed, the run goes on, and SIGTERM still exits 0', async () => {
    const p = await run(reconciling('Waiter', 'await new Promise(() => {});'), [
      '--timeout',
      '1s',
      '--request-timeout',
      '2s',
    ]);
    const stalled = await entry(p, { code: 'reconcile-stalled' });
    expect(stalled).toMatchObject({
      level: 'error',
      controller: 'Waiter',
      resource: WEB_1,
      msg: expect.stringMatching(/^reconcile still running after 1(\.\d+)?s/) as unknown,
    });
    p.kill('SIGTERM');
    // The stuck reconcile holds the stop until its bound (--request-timeout): then it exits.
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 60_000);
});

describe('cosi run (in memory): a second signal while the stop waits on a spinning controller', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} again exits at once with ${code}: no stack trace, no ProcessExitError`, async () => {
      // The worker spins (never detected before --timeout, 60 s): it never answers the stop,
      // which the main thread waits on for its bound (--request-timeout, 2 min here). Only the
      // second signal can end the process within the test's bounds.
      const p = await run(reconciling('Spinner', 'for (;;);'), [
        '--timeout',
        '60s',
        '--request-timeout',
        '120s',
      ]);
      await entry(p, { msg: 'leading: running 1 controller' });
      p.kill(signal);
      await entry(p, { msg: `shutting down (${signal})` });
      p.kill(signal);
      expect(await exitWithin(p, 20_000)).toBe(code);
      expect(p.stderr()).not.toMatch(/ProcessExitError|\n\s+at /);
      expect(entries(p).at(-1)).toMatchObject({
        level: 'warn',
        msg: `${signal} again: exiting now, without finishing the stop`,
      });
    }, 60_000);
  }
});

describe('cosi run (in memory): a second signal with stderr read slowly (a busy log reader)', () => {
  it('exits with the shell code once the log has left it: its tail, and why it stopped, are kept', async () => {
    // Failures for a second (a long log), then a reconcile that spins: the stop waits on it (for
    // --request-timeout, 2 min), so only the second signal ends the process.
    const vms = Array.from(
      { length: 700 },
      (_, i) => `metadata: { type: VMs.example.org, id: vm-${i} }\nspec: { cpus: 1 }\n`,
    );
    await writeFile(path.join(dir, 'vms.yaml'), vms.join('---\n'));
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      HEADER +
        reconciling(
          'Flood',
          "const g = globalThis as { t?: number }; g.t ??= Date.now(); if (Date.now() - g.t > 1000) for (;;); throw new Error('failed ' + 'x'.repeat(300));",
        ),
    );
    const child = spawn(
      process.execPath,
      [
        path.join(REPO, 'bin/cosi.js'),
        'run',
        '-f',
        'vms.yaml',
        '--log-format',
        'json',
        '--timeout',
        '60s',
        '--request-timeout',
        '120s',
        '--health-addr',
        '127.0.0.1:0',
      ],
      { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, NO_COLOR: '1' } },
    );
    const closed = new Promise<number | NodeJS.Signals | null>((resolve) =>
      child.once('close', (code, signal) => resolve(code ?? signal)),
    );
    try {
      let stderr = '';
      const stream = child.stderr;
      stream.setEncoding('utf8');
      const onData = (chunk: string): void => {
        stderr += chunk;
      };
      stream.on('data', onData);
      const address = await waitFor(
        () => /"address":"([^"]+)"/.exec(stderr)?.[1],
        30_000,
        () => `the health address (stderr:\n${stderr})`,
      );
      // From here on nobody reads its stderr: the pipe fills, and the log waits in the process.
      stream.pause();
      const readyz = async (): Promise<string> =>
        (await fetch(`http://${address}/readyz`, { signal: AbortSignal.timeout(10_000) })).text();
      await waitFor(async () => (await readyz()).includes('leading'), 30_000);
      // Spinning: the worker no longer answers, and /readyz serves its last figures after 1 s.
      await waitFor(
        async () => {
          const asked = performance.now();
          await readyz();
          return performance.now() - asked > 900;
        },
        30_000,
        'the reconcile to spin',
      );
      child.kill('SIGTERM');
      await waitFor(async () => (await readyz()).includes('stopping'), 30_000);
      child.kill('SIGTERM');
      // Read again once it exited, or after 1 s: one that did not wait for its log has ended by
      // then, the rest of its log lost; one that waits ends only once it is read.
      await waitFor(() => child.exitCode !== null || child.signalCode !== null, 1_000).catch(
        () => undefined,
      );
      stream.resume();
      expect(await closed).toBe(143);
      const lines = stderr.trimEnd().split('\n');
      const entries = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(entries.filter((e) => e['msg'] === 'reconcile failed').length).toBeGreaterThan(300);
      expect(entries.map((e) => e['msg'])).toContain('shutting down (SIGTERM)');
      expect(entries.at(-1)).toMatchObject({
        level: 'warn',
        msg: 'SIGTERM again: exiting now, without finishing the stop',
      });
    } finally {
      child.kill('SIGKILL');
      await closed;
    }
  }, 90_000);
});

describe('cosi run (in memory): a controller that fails every reconcile', () => {
  it('is not converged: a warning names it, and /readyz answers 503 with its error', async () => {
    const p = await run(reconciling('Failer', "throw new Error('boom');"), [
      '--health-addr',
      '127.0.0.1:0',
    ]);
    const address = (
      await p.waitUntil(
        () => entries(p).find((e) => typeof e['address'] === 'string'),
        30_000,
        'the health address',
      )
    )['address'] as string;
    const settled = await p.waitUntil(
      () => entries(p).find((e) => String(e['msg']).startsWith('settled in ')),
      30_000,
      'the leader to settle',
    );
    expect(settled).toMatchObject({
      level: 'warn',
      msg: expect.stringMatching(
        /, not converged: controller Failer is failing: .*boom/,
      ) as unknown,
    });
    expect(entries(p).map((e) => e['msg'])).not.toContainEqual(
      expect.stringMatching(/^converged in /),
    );
    const ready = await fetch(`http://${address}/readyz`, { signal: AbortSignal.timeout(15_000) });
    expect(ready.status).toBe(503);
    expect(await ready.text()).toMatch(/^not ready: leading: controller Failer is failing: .*boom/);
    p.kill('SIGTERM');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 60_000);
});

describe('cosi run (in memory): a reconcile that throws', () => {
  it("is logged with where the project's code threw it (at=file:line:col), as apply shows it", async () => {
    const p = await run(reconciling('Thrower', "throw new Error('boom');"));
    const failed = await entry(p, { msg: 'reconcile failed' });
    // The throw is on the config's last line (HEADER's two lines, then the config).
    expect(failed).toMatchObject({
      level: 'error',
      controller: 'Thrower',
      resource: WEB_1,
      error: 'boom',
      at: expect.stringMatching(/^cosi\.config\.ts:3:\d+$/) as unknown,
    });
    p.kill('SIGTERM');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 60_000);
});

describe('cosi run (in memory): a generic transform that fails on one resource', () => {
  it('logs the failed pass with the resource it failed on (resource=, in JSON too)', async () => {
    await writeFile(
      path.join(dir, 'more.yaml'),
      'metadata: { type: VMs.example.org, id: web-2 }\nspec: { cpus: 1 }\n',
    );
    const p = await run(
      `import { createTransformController } from 'cosi';
const Out = defineResource<{ cpus: number }>({ type: 'Outs.example.org' });
export default defineConfig({ definitions: [VM, Out], controllers: [createTransformController({ name: 'T', input: VM, output: Out, mapMetadata: (vm) => Out.create(vm.metadata.id), transform: (_ctx, vm, out) => { if (vm.metadata.id === 'web-1') throw new Error('boom'); out.spec.cpus = vm.spec.cpus; } })] });
`,
      ['-f', 'more.yaml'],
    );
    const failed = await entry(p, { msg: 'controller failed' });
    expect(failed).toMatchObject({
      level: 'error',
      controller: 'T',
      resource: WEB_1,
      code: 'reconcile-cycle',
      error: expect.stringContaining(`transform of ${WEB_1}: boom`) as unknown,
    });
    p.kill('SIGTERM');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 60_000);
});

describe("cosi run (in memory): what the project's code prints", () => {
  it('is logged, a record per print with its level, controller and resource: never a raw line', async () => {
    const p = await run(
      `console.log('config loaded');
${reconciling(
  'Chatty',
  "console.log('reconciling', 'multi\\nline'); console.error('printed', new Error('printed error')); console.warn('careful'); process.stderr.write('half'); console.warn('warned'); process.stdout.write('raw '); process.stdout.write('write\\n'); process.stderr.write('no line end'); await new Promise((r) => setTimeout(r, 1)); console.info('later');",
)}`,
    );
    await entry(p, { msg: 'later' });
    p.kill('SIGTERM');
    expect(await exitWithin(p, 20_000)).toBe(0);
    // Every line of stderr is one JSON object: the multi-line prints are one record each.
    const lines = p.stderr().trimEnd().split('\n');
    for (const line of lines) expect(line).toMatch(/^\{.*\}$/);
    const at = { controller: 'Chatty', resource: WEB_1 };
    const printed = entries(p).filter((e) => e['output'] !== undefined);
    for (const e of printed) expect(typeof e['time']).toBe('string');
    expect(printed.map(({ time: _, ...rest }) => rest)).toEqual([
      { level: 'info', msg: 'config loaded', output: 'stdout' },
      {
        level: 'info',
        msg: 'reconciling multi\nline',
        ...at,
        output: 'stdout',
      },
      {
        level: 'error',
        msg: expect.stringMatching(
          /^printed Error: printed error\n {4}at .*cosi\.config\.ts:\d+:\d+/,
        ) as unknown,
        ...at,
        output: 'stderr',
      },
      { level: 'warn', msg: 'careful', ...at, output: 'stderr' },
      // A stderr write without a line end is its own record, not the start of console.warn's.
      { level: 'error', msg: 'half', ...at, output: 'stderr' },
      { level: 'warn', msg: 'warned', ...at, output: 'stderr' },
      { level: 'info', msg: 'raw write', ...at, output: 'stdout' },
      // Without a line end: logged at the end of the turn, or before what another stream prints.
      { level: 'error', msg: 'no line end', ...at, output: 'stderr' },
      { level: 'info', msg: 'later', ...at, output: 'stdout' },
    ]);
  }, 60_000);
});

describe('cosi run (in memory): process.exit in a controller', () => {
  it('is a failed reconcile, logged with the controller and resource, and retried: not an exit', async () => {
    const p = await run(reconciling('Quitter', 'process.exit(3);'));
    const failed = await entry(p, { code: 'process-exit' });
    expect(failed).toMatchObject({ level: 'error', controller: 'Quitter', resource: WEB_1 });
    expect(String(failed['error'])).toContain('called process.exit(3)');
    // Retried with backoff, as any reconcile that fails.
    await p.waitUntil(
      () => entries(p).filter((e) => e['code'] === 'process-exit').length >= 2,
      30_000,
      'a retry',
    );
    p.kill('SIGTERM');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 60_000);

  it('taken before cosi could guard it ends the worker: logged, exit 1', async () => {
    const p = await run(
      `const exit = (process as unknown as { reallyExit: (code: number) => never }).reallyExit;\n${reconciling('Quitter', 'exit(0);')}`,
    );
    const fault = await entry(p, { code: 'process-exit' });
    expect(fault).toMatchObject({ level: 'error', controller: 'Quitter', resource: WEB_1 });
    expect(String(fault['msg'])).toContain("ended cosi's worker thread");
    expect(await exitWithin(p, 20_000)).toBe(1);
  }, 60_000);
});

describe('cosi run (in memory): a controller that exhausts the heap', () => {
  it('is logged naming it, and the run exits 1', async () => {
    const p = await run(
      reconciling(
        'Hog',
        'const kept: number[][] = []; for (;;) kept.push(new Array(100_000).fill(1));',
      ),
      [],
      { COSI_WORKER_HEAP_MB: '48' },
    );
    const fault = await entry(p, { code: 'out-of-memory' });
    expect(fault).toMatchObject({ level: 'error', controller: 'Hog', resource: WEB_1 });
    expect(String(fault['msg'])).toMatch(/ran out of memory \(the heap limit is 48 MB/);
    expect(await exitWithin(p, 20_000)).toBe(1);
  }, 60_000);
});

describe('cosi run (in memory): a controller that faults before the run has started', () => {
  /** A controller object whose `inputs` getter runs `body`: read when it is registered. */
  const declaring = (name: string, body: string): string =>
    `export default defineConfig({ definitions: [VM], controllers: [{ name: '${name}', get inputs() { ${body} }, outputs: [], run: async () => undefined } as never] });
`;

  it('stuck while its object is read is stopped at --timeout, logged naming it; exit 1', async () => {
    const p = await run(declaring('Getter', 'for (;;);'), ['--timeout', '2s']);
    const fault = await entry(p, { code: 'user-code-stuck' });
    expect(fault).toMatchObject({
      level: 'error',
      controller: 'Getter',
      msg: expect.stringMatching(
        /^Controller "Getter" was still running after 2(\.\d+)?s/,
      ) as unknown,
    });
    expect(await exitWithin(p, 20_000)).toBe(1);
    // It never started: no line said it had.
    expect(entries(p).map((e) => e['msg'])).not.toContainEqual(
      expect.stringMatching(/^started as/),
    );
  }, 60_000);

  it('exhausting the heap while its object is read is logged naming it, not as cosi; exit 1', async () => {
    const p = await run(
      declaring(
        'Hog',
        'const kept: number[][] = []; for (;;) kept.push(new Array(100_000).fill(1));',
      ),
      [],
      { COSI_WORKER_HEAP_MB: '48' },
    );
    const fault = await entry(p, { code: 'out-of-memory' });
    expect(fault).toMatchObject({ level: 'error', controller: 'Hog' });
    expect(String(fault['msg'])).toMatch(/^Controller "Hog" ran out of memory/);
    expect(await exitWithin(p, 20_000)).toBe(1);
  }, 60_000);

  it('throwing while its object is read is a configuration error naming it; exit 2', async () => {
    const p = await run(declaring('Thrower', "throw new Error('no inputs');"));
    const refused = await entry(p, { code: 'config' });
    expect(refused['msg']).toBe(
      'cosi.config.ts: cannot register the controllers: controller "Thrower" cannot be read: no inputs',
    );
    expect(await exitWithin(p, 20_000)).toBe(2);
  }, 60_000);

  /**
   * A controller object whose `name` getter runs `body` from its second read on: the first is the
   * config's check as it loads (a getter that faults there is the config's fault), the next is
   * cosi's, when it registers the controller.
   */
  const naming = (body: string): string =>
    `let reads = 0;
export default defineConfig({ definitions: [VM], controllers: [{ get name(): string { if (++reads > 1) { ${body} } return 'Named'; }, inputs: [], outputs: [], run: async () => undefined } as never] });
`;

  it('stuck while its name is read is stopped at --timeout, logged by its place; exit 1', async () => {
    const p = await run(naming('for (;;);'), ['--timeout', '2s']);
    const fault = await entry(p, { code: 'user-code-stuck' });
    expect(fault).toMatchObject({
      level: 'error',
      controller: 'controllers[0]',
      msg: expect.stringMatching(
        /^Controller "controllers\[0\]" was still running after 2(\.\d+)?s/,
      ) as unknown,
    });
    expect(await exitWithin(p, 20_000)).toBe(1);
  }, 60_000);

  it('stuck while the runtime registers it (a later read) is stopped at --timeout (never before 5 s) as the config; exit 2', async () => {
    // Read as the config loads, then twice as its declarations are read (its name, then with the
    // rest): the fourth read is the runtime's own, as it registers it.
    const p = await run(
      `let reads = 0;
export default defineConfig({ definitions: [VM], controllers: [{ get name(): string { if (++reads > 3) { for (;;); } return 'Late'; }, inputs: [], outputs: [], run: async () => undefined } as never] });
`,
      ['--timeout', '2s'],
    );
    const fault = await entry(p, { code: 'config' });
    expect(String(fault['msg'])).toMatch(
      /^The config \(while it loaded\) was still running after 5(\.\d+)?s/,
    );
    expect(await exitWithin(p, 20_000)).toBe(2);
  }, 60_000);

  it('throwing while its name is read is a configuration error naming its place; exit 2', async () => {
    const p = await run(naming("throw new Error('no name');"));
    const refused = await entry(p, { code: 'config' });
    expect(refused['msg']).toBe(
      'cosi.config.ts: cannot register the controllers: controller "controllers[0]" cannot be read: no name',
    );
    expect(await exitWithin(p, 20_000)).toBe(2);
  }, 60_000);
});

describe.skipIf(!etcdAvailable)('cosi run on etcd: a leader whose controller gets stuck', () => {
  let etcd: EtcdServer;
  beforeAll(async () => {
    etcd = await startEtcd();
  }, 60_000);
  afterAll(async () => {
    await etcd.stop();
  });

  it('logs it, releases its lease and exits 1; the next leader stops on SIGTERM while it spins', async () => {
    const state = `etcd://${etcd.endpoint.replace(/^http:\/\//, '')}/isolation`;
    const p = await run(reconciling('Spinner', 'for (;;);'), [
      '--state',
      state,
      '--timeout',
      '3s',
      '--lease-ttl',
      '30s',
    ]);
    await entry(p, { msg: 'elected leader: running 1 controller' });
    const fault = await entry(p, { code: 'user-code-stuck' });
    expect(fault).toMatchObject({ controller: 'Spinner', resource: WEB_1 });
    expect(await exitWithin(p, 20_000)).toBe(1);
    // Released, not left to expire: a second process leads at once, well within the 30 s TTL.
    const next = await run(reconciling('Spinner', 'for (;;);'), ['--state', state]);
    await entry(next, { msg: 'elected leader: running 1 controller' });
    // Its controller spins in the worker: the signal is the main thread's, the stop is bounded
    // (--request-timeout, 5 s), and the worker is ended after it.
    next.kill('SIGTERM');
    expect(await exitWithin(next, 20_000)).toBe(0);
  }, 90_000);

  it('a second SIGTERM while the stop waits on a spinning controller exits at once with 143', async () => {
    const state = `etcd://${etcd.endpoint.replace(/^http:\/\//, '')}/second-signal`;
    const p = await run(reconciling('Spinner', 'for (;;);'), [
      '--state',
      state,
      '--timeout',
      '60s',
      '--request-timeout',
      '120s',
    ]);
    await entry(p, { msg: 'elected leader: running 1 controller' });
    p.kill('SIGTERM');
    await entry(p, { msg: 'shutting down (SIGTERM)' });
    p.kill('SIGTERM');
    expect(await exitWithin(p, 20_000)).toBe(143);
    expect(p.stderr()).not.toMatch(/ProcessExitError|\n\s+at /);
  }, 90_000);
});
