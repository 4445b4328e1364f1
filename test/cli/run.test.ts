import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runRuntime } from '../../src/cli/commands/run.js';
import { parseLeaseTtl, type RunFlags } from '../../src/cli/run/run-plan.js';
import { CliError } from '../../src/cli/exit-codes.js';
import type { CliIo } from '../../src/cli/io.js';
import type { FileEvent, WatchFiles } from '../../src/app/file-events.js';
import { waitFor } from '../support/wait-for.js';
import { cli, REPO } from './run-cli.js';

/** A `cosi run` in this process, its signals and file events driven by the test. */
function harness(cwd: string): {
  io: CliIo;
  stderr: () => string;
  sigterm: () => void;
  sigint: () => void;
  watchFiles: WatchFiles;
  /** The paths the last `watchFiles` watches. */
  watched: () => readonly string[];
  fileChanged: (event: FileEvent) => void;
  /** The codes `io.exit` was called with. */
  exits: number[];
} {
  let stderr = '';
  const exits: number[] = [];
  let onTerm = (): void => undefined;
  let onInt = (): void => undefined;
  let onFile = (_: FileEvent): void => undefined;
  let watched: readonly string[] = [];
  return {
    io: {
      stdout: { write: () => true },
      stderr: { write: (t: string) => (stderr += t) },
      cwd,
      env: {},
      isTTY: false,
      onInterrupt: (handler) => {
        onInt = handler;
        return () => undefined;
      },
      onTerminate: (handler) => {
        onTerm = handler;
        return () => undefined;
      },
      exit: (code) => void exits.push(code),
    },
    exits,
    stderr: () => stderr,
    sigterm: () => onTerm(),
    sigint: () => onInt(),
    watched: (): readonly string[] => watched,
    watchFiles: (paths, onEvent) => {
      watched = paths;
      onFile = onEvent;
      return { close: () => Promise.resolve() };
    },
    fileChanged: (event) => onFile(event),
  };
}

/** A project of one type and one resource, for configs without definitions. */
const ONE_VM = `metadata: { type: ResourceDefinitions.meta.cosi.dev, id: vms.example.org }
spec: { type: VMs.example.org }
---
metadata: { type: vm, id: web-1 }
spec: { cpus: 1 }
`;

const flags = (extra: Partial<RunFlags> = {}): RunFlags => ({
  state: 'memory',
  ...extra,
});

describe('cosi run (in memory)', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-run-cli-'));
    await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  /** Every line `time LEVEL message`: the timestamp an ISO date, the level padded to 5. */
  const TIME = '\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z';
  const line = (level: string, message: string): RegExp =>
    new RegExp(`^${TIME} ${level.padEnd(5)} ${message}$`, 'm');

  it('says what it does, one line per event with its time and level, and exits 0 on SIGTERM', async () => {
    const h = harness(dir);
    const running = runRuntime(h.io, [], flags({ file: ['.'] }), h.watchFiles);
    await waitFor(() => h.stderr().includes('converged in'), 20_000);
    h.sigterm();
    expect(await running).toEqual({ exitCode: 0 });
    expect(h.exits).toEqual([]);
    expect(h.stderr().split('\n')).toEqual([
      expect.stringMatching(line('INFO', 'started as \\S+ on memory')),
      expect.stringMatching(
        line('INFO', 'applied 5 resources \\(5 created, 0 updated, 0 removed\\)'),
      ),
      expect.stringMatching(line('INFO', 'leading: running 3 controllers')),
      // A duration as a duration: `12ms`, `1.5s`.
      expect.stringMatching(line('INFO', 'converged in \\d+(\\.\\d+)?m?s')),
      expect.stringMatching(line('INFO', 'shutting down \\(SIGTERM\\)')),
      expect.stringMatching(line('INFO', 'stopped')),
      '',
    ]);
  }, 60_000);

  it('says that the etcd flags given with a state in memory are ignored (a forgotten --state)', async () => {
    const h = harness(dir);
    const running = runRuntime(
      h.io,
      [dir],
      flags({ leaseTtl: '10s', connectTimeout: '1s' }),
      h.watchFiles,
    );
    await waitFor(() => h.stderr().includes('converged in'), 20_000);
    h.sigterm();
    expect(await running).toEqual({ exitCode: 0 });
    expect(h.stderr().split('\n')[0]).toMatch(
      line(
        'WARN',
        '--lease-ttl, --connect-timeout: only for a state on etcd \\(--state etcd://HOST:PORT\\[/prefix\\]\\); ignored on memory code=ignored-flag',
      ),
    );
    expect(h.stderr().match(/ignored on memory/g)).toHaveLength(1);
    // Through the command line: the defaults shown in the help are not flags given.
    const given = await cli(['run', 'missing.yaml', '--request-timeout', '2s'], {
      cwd: dir,
      onInterrupt: () => () => undefined,
    });
    expect(given.code).toBe(1);
    expect(given.stderr).toMatch(
      line('WARN', '--request-timeout: only for a state on etcd .* code=ignored-flag'),
    );
    const defaults = await cli(['run', 'missing.yaml'], {
      cwd: dir,
      onInterrupt: () => () => undefined,
    });
    expect(defaults.code).toBe(1);
    expect(defaults.stderr).not.toMatch(/ignored/);
  }, 60_000);

  it('serves --metrics-addr and --health-addr from one server when they name one address, however written', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const h = harness(dir);
    const running = runRuntime(
      h.io,
      [dir],
      flags({ metricsAddr: `:${port}`, healthAddr: `0.0.0.0:${port}` }),
      h.watchFiles,
    );
    await waitFor(
      () => h.stderr().includes('converged in'),
      20_000,
      () => h.stderr(),
    );
    h.sigterm();
    // Two servers: the second found the port taken by the first ('pick another'), exit 2.
    expect(await running).toEqual({ exitCode: 0 });
    expect(h.stderr()).toMatch(
      line('INFO', `serving /metrics, /healthz, /readyz on http://0\\.0\\.0\\.0:${port} .*`),
    );
  }, 60_000);

  it('--log-format json: one JSON object per line, with time, level and msg', async () => {
    const h = harness(dir);
    const running = runRuntime(h.io, [dir], flags({ logFormat: 'json' }), h.watchFiles);
    await waitFor(() => h.stderr().includes('converged in'), 20_000);
    h.sigint();
    expect(await running).toEqual({ exitCode: 0 });
    const entries = h
      .stderr()
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(entries.map((e) => e['msg'])).toEqual([
      expect.stringMatching(/^started as /),
      'applied 5 resources (5 created, 0 updated, 0 removed)',
      'leading: running 3 controllers',
      expect.stringMatching(/^converged in /),
      'shutting down (SIGINT)',
      'stopped',
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({
        level: 'info',
        time: expect.stringMatching(new RegExp(`^${TIME}$`)) as unknown,
      });
    }
  }, 60_000);

  it("logs a controller's failures with the controller, the resource and the error's code", async () => {
    const failing = path.join(REPO, 'fixtures/cli/failing-controller');
    const h = harness(failing);
    const running = runRuntime(h.io, ['.'], flags({ logFormat: 'json' }), h.watchFiles);
    const entry = await waitFor(
      () =>
        h
          .stderr()
          .split('\n')
          .filter(Boolean)
          .map((text) => JSON.parse(text) as Record<string, unknown>)
          .find((e) => e['msg'] === 'reconcile failed'),
      20_000,
      () => `a reconcile failure in the log (stderr:\n${h.stderr()})`,
    );
    h.sigterm();
    expect(await running).toEqual({ exitCode: 0 });
    expect(entry).toMatchObject({
      level: 'error',
      controller: 'EchoController',
      resource: 'Counters.test.cosi.dev(default/start)',
      code: expect.any(String) as unknown,
      error: expect.any(String) as unknown,
    });
  }, 60_000);

  it('a controller that logs a cycle, a bigint, an error or a date is logged, and the run goes on', async () => {
    for (const name of ['hosts.yaml', 'vms.yaml']) await rm(path.join(dir, name));
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      `import { controllerManagedBy, defineConfig, defineResource, type Runtime } from 'cosi';
const Job = defineResource<{ n: number }>({ type: 'Jobs.example.org', defaultSpec: () => ({ n: 0 }) });
const circular: Record<string, unknown> = { a: 1 };
circular['self'] = circular;
export default defineConfig({
  definitions: [Job],
  setup: (runtime: Runtime) =>
    controllerManagedBy(runtime).named('Logger').for(Job).complete(({ log }) => {
      log.warn('odd fields', { circular, big: 10n, err: new Error('inner'), when: new Date(0) });
    }),
});
`,
    );
    await writeFile(path.join(dir, 'jobs.yaml'), 'metadata: { type: Jobs.example.org, id: j1 }\n');
    const h = harness(dir);
    const running = runRuntime(h.io, [dir], flags(), h.watchFiles);
    await waitFor(() => h.stderr().includes('converged in'), 20_000);
    await waitFor(
      () => h.stderr().includes('odd fields'),
      5_000,
      () => h.stderr(),
    );
    h.sigterm();
    // It ended the worker ('posted a message ... that cosi cannot read'), and the run exited 1.
    expect(await running).toEqual({ exitCode: 0 });
    expect(h.stderr()).toMatch(
      line(
        'WARN',
        'odd fields controller=Logger .*circular="\\{\\\\"a\\\\":1,\\\\"self\\\\":\\\\"\\[Circular\\]\\\\"\\}" big=10 err=inner when=1970-01-01T00:00:00\\.000Z',
      ),
    );
  }, 60_000);

  it('a second signal while it stops exits at once, with the shell code of the signal', async () => {
    // A controller that never returns, and a long stop bound: the stop is under way when the
    // second signal comes, and nothing in the test ends it first.
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      "export default { controllers: [{ name: 'Stuck', inputs: [], outputs: [], run: () => new Promise(() => {}) }] };\n",
    );
    await rm(path.join(dir, 'cosi.config.ts'));
    await rm(path.join(dir, 'hosts.yaml'));
    await writeFile(path.join(dir, 'vms.yaml'), ONE_VM);
    const h = harness(dir);
    const running = runRuntime(h.io, [dir], flags({ requestTimeout: '30s' }), h.watchFiles);
    await waitFor(() => h.stderr().includes('leading: running 1 controller'), 20_000);
    h.sigterm();
    await waitFor(() => h.stderr().includes('shutting down (SIGTERM)'), 20_000);
    expect(h.exits).toEqual([]);
    h.sigterm();
    expect(h.exits).toEqual([143]);
    expect(h.stderr()).toMatch(
      line('WARN', 'SIGTERM again: exiting now, without finishing the stop'),
    );
    h.sigint();
    expect(h.exits).toEqual([143, 130]);
    // Ctrl-C after a SIGTERM is not 'SIGINT again'.
    expect(h.stderr()).toMatch(
      line('WARN', 'SIGINT after SIGTERM: exiting now, without finishing the stop'),
    );
    // In a test nothing ends the process: the bounded stop still ends the command.
    expect(await running).toEqual({ exitCode: 0 });
  }, 60_000);

  it('with --watch applies the manifests again when a file changes, restarts the controllers when the config does; Ctrl-C stops it', async () => {
    const h = harness(dir);
    const running = runRuntime(h.io, [dir], flags({ watch: true }), h.watchFiles);
    await waitFor(() => h.stderr().includes('leading'), 20_000);
    const vms = path.join(dir, 'vms.yaml');
    await writeFile(vms, (await readFile(vms, 'utf8')).replace('cpus: 6', 'cpus: 3'));
    h.fileChanged({ kind: 'change', path: vms });
    await waitFor(
      () => h.stderr().includes('applied 5 resources (0 created, 1 updated, 0 removed)'),
      20_000,
    );
    // The change is converged on, and said so, as the first apply was (review-new L6).
    const afterApply = () =>
      h.stderr().slice(h.stderr().indexOf('applied 5 resources (0 created, 1 updated'));
    await waitFor(() => /converged in/.test(afterApply()), 20_000);
    expect(afterApply()).toMatch(line('INFO', 'converged in \\d+(\\.\\d+)?(ms|s)'));
    // The project's modules the config imports are watched too, wherever they are.
    expect(h.watched()).toEqual(
      expect.arrayContaining(['cosi.config.ts', 'types.ts'].map((f) => path.join(dir, f))),
    );
    // An edit of the config starts the controllers again with the code as it is now: the
    // placement controller taken out, two run.
    const config = path.join(dir, 'cosi.config.ts');
    const original = await readFile(config, 'utf8');
    await writeFile(config, original.replace(', createPlacementController()]', ']'));
    h.fileChanged({ kind: 'change', path: config });
    await waitFor(() => h.stderr().includes('leading: running 2 controllers'), 20_000);
    const all = h.stderr();
    const restarted = all.slice(all.lastIndexOf('\n', all.indexOf('cosi.config.ts changed')) + 1);
    expect(restarted.split('\n').slice(0, 4)).toEqual([
      expect.stringMatching(
        line(
          'INFO',
          'cosi\\.config\\.ts changed: restarting the controllers to load it code=restarting',
        ),
      ),
      expect.stringMatching(line('INFO', 'started as \\S+ on memory')),
      // In memory the state starts again too, from the manifests.
      expect.stringMatching(
        line('INFO', 'applied 5 resources \\(5 created, 0 updated, 0 removed\\)'),
      ),
      expect.stringMatching(line('INFO', 'leading: running 2 controllers')),
    ]);
    await waitFor(
      () => /converged in/.test(h.stderr().slice(h.stderr().indexOf('running 2'))),
      20_000,
    );
    // A config that cannot be loaded (saved mid-edit) is loaded before anything stops: the two
    // controllers that run keep running, and the log says so; the next change restarts.
    const beforeBroken = h.stderr().length;
    await writeFile(config, `${original}\nexport const = ;\n`);
    h.fileChanged({ kind: 'change', path: config });
    await waitFor(() => h.stderr().includes('code=restart-failed'), 20_000);
    expect(h.stderr().slice(beforeBroken).split('\n')).toEqual([
      expect.stringMatching(
        line(
          'INFO',
          'cosi\\.config\\.ts changed: restarting the controllers to load it code=restarting',
        ),
      ),
      expect.stringMatching(line('ERROR', 'cosi\\.config\\.ts:\\d+:\\d+: .* code=config')),
      expect.stringMatching(
        line(
          'ERROR',
          'not restarted: the config cannot be loaded \\(the last good code keeps running\\); it restarts at the next change of the files code=restart-failed',
        ),
      ),
      '',
    ]);
    await writeFile(config, original);
    h.fileChanged({ kind: 'change', path: config });
    // Three controllers lead again: the second time the log says so.
    await waitFor(() => h.stderr().split('leading: running 3 controllers').length === 3, 20_000);
    expect(h.stderr().split('code=restarting').length).toBe(4);
    expect(h.stderr()).not.toContain('the last start failed');
    await writeFile(vms, 'metadata: { type: vm }\n');
    h.fileChanged({ kind: 'change', path: vms });
    await waitFor(() => h.stderr().includes('not applied: the manifests have errors'), 20_000);
    expect(h.stderr()).toMatch(line('ERROR', 'vms\\.yaml:1:\\d+: .* code=\\S+.*'));
    h.sigint();
    expect(await running).toEqual({ exitCode: 0 });
    expect(h.stderr()).toContain('shutting down (SIGINT)');
  }, 60_000);

  it('with --watch an edit saved before its file watcher is ready (still scanning) is applied once it is', async () => {
    const h = harness(dir);
    // A watcher whose initial scan ends when the test says: it reports nothing before, as
    // chokidar reports nothing of a save that lands while it still scans.
    let ready: (() => void) | undefined;
    const watchFiles: WatchFiles = (paths, onEvent) => ({
      ...h.watchFiles(paths, onEvent),
      ready: new Promise<void>((resolve) => (ready = resolve)),
    });
    const running = runRuntime(h.io, [dir], flags({ watch: true }), watchFiles);
    await waitFor(() => ready !== undefined && h.stderr().includes('converged in'), 20_000);
    // Saved as the start said it applied, as a user (or a test) does who waits for that line.
    const vms = path.join(dir, 'vms.yaml');
    await writeFile(vms, (await readFile(vms, 'utf8')).replace('cpus: 6', 'cpus: 3'));
    ready?.();
    await waitFor(
      () => h.stderr().includes('applied 5 resources (0 created, 1 updated, 0 removed)'),
      20_000,
      h.stderr,
    );
    // The files copied before the start are not changes: no restart, one apply of the edit.
    expect(h.stderr()).not.toContain('restarting');
    expect(h.stderr().match(/applied 5 resources/g)).toHaveLength(2);
    h.sigint();
    expect(await running).toEqual({ exitCode: 0 });
  }, 60_000);

  it('with --watch a save of the config while it restarts starts it again: the last save runs', async () => {
    const h = harness(dir);
    const running = runRuntime(h.io, [dir], flags({ watch: true }), h.watchFiles);
    await waitFor(() => h.stderr().includes('leading: running 3 controllers'), 20_000);
    const config = path.join(dir, 'cosi.config.ts');
    const original = await readFile(config, 'utf8');
    const twoControllers = original.replace(', createPlacementController()]', ']');
    // The last save: one controller (the host status setup taken out too).
    const last = twoControllers.replace('setup: setupHostStatusController,', '');
    // The first save, whose load stands for an editor saving again just after the restart read
    // it: the file is the last save, and the watcher says so, while the restart goes on. It no
    // longer imports placement.ts, so the files watched change with the restart too.
    const hook = 'cosiRunTestSavedAgain';
    const saved = globalThis as { cosiRunTestSavedAgain?: () => void };
    saved.cosiRunTestSavedAgain = () => h.fileChanged({ kind: 'change', path: config });
    try {
      await writeFile(
        config,
        `${twoControllers}\nimport { writeFileSync } from 'node:fs';\n` +
          `writeFileSync(${JSON.stringify(config)}, ${JSON.stringify(last)});\n` +
          `(globalThis as Record<string, (() => void) | undefined>).${hook}?.();\n`,
      );
      h.fileChanged({ kind: 'change', path: config });
      await waitFor(() => h.stderr().includes('leading: running 2 controllers'), 20_000);
      // The save during the restart is loaded by one more: the controllers run the file as it is.
      await waitFor(
        () => h.stderr().includes('leading: running 1 controller\n'),
        20_000,
        () => h.stderr(),
      );
    } finally {
      delete saved.cosiRunTestSavedAgain;
    }
    expect(h.stderr().split('code=restarting').length).toBe(3);
    h.sigint();
    expect(await running).toEqual({ exitCode: 0 });
  }, 60_000);

  it('exits 1 with the findings, starting nothing, when the manifests have errors', async () => {
    await writeFile(path.join(dir, 'vms.yaml'), 'metadata: { type: vm }\n');
    const h = harness(dir);
    expect(await runRuntime(h.io, [dir], flags(), h.watchFiles)).toEqual({ exitCode: 1 });
    expect(h.stderr()).toContain('vms.yaml:1:');
    expect(h.stderr()).toContain('not started: the manifests have errors');
  });

  it('a config whose setup throws is a config error naming the file: exit 2, no crash', async () => {
    await writeFile(
      path.join(dir, 'cosi.config.mjs'),
      "export default { setup: () => { throw new Error('boom'); } };\n",
    );
    await rm(path.join(dir, 'cosi.config.ts'));
    await rm(path.join(dir, 'hosts.yaml'));
    await writeFile(path.join(dir, 'vms.yaml'), ONE_VM);
    // Leading at once (in memory), the failure is the start's: one log line, exit 2.
    const result = await cli(['run', '.'], { cwd: dir, onInterrupt: () => () => undefined });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      line('ERROR', 'cosi\\.config\\.mjs:1:\\d+: setup failed: boom code=config'),
    );
  });

  it('refuses a bad --state or --lease-ttl as usage errors', async () => {
    const bad = await cli(['run', '-f', dir, '--state', 'redis://x:1']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--state: unknown state scheme "redis"');
    expect(() => parseLeaseTtl('1500ms')).toThrow(CliError);
    expect(() => parseLeaseTtl('0s')).toThrow(/at least 1s/);
    expect(parseLeaseTtl('10s')).toBe(10);
  });

  it('refuses a wait past a day (a Node timer overflows at 24.8 days and fires after 1 ms)', async () => {
    expect(parseLeaseTtl('24h')).toBe(86_400);
    expect(() => parseLeaseTtl('1000h')).toThrow('--lease-ttl: at most 24h, got "1000h"');
    for (const [flag, key] of [
      ['--request-timeout', 'requestTimeout'],
      ['--connect-timeout', 'connectTimeout'],
    ] as const) {
      const h = harness(dir);
      await expect(
        runRuntime(h.io, [dir], flags({ state: 'etcd://127.0.0.1:1/x', [key]: '1000h' })),
      ).rejects.toThrow(`${flag}: at most 24h, got "1000h"`);
    }
    const diff = await cli([
      'diff',
      '-f',
      dir,
      '--state',
      'etcd://127.0.0.1:1/x',
      '--connect-timeout',
      '25h',
    ]);
    expect(diff).toMatchObject({ code: 2, stdout: '' });
    expect(diff.stderr).toContain('--connect-timeout: at most 24h, got "25h"');
    const get = await cli([
      'get',
      'vm',
      '--state',
      'etcd://127.0.0.1:1/x',
      '--request-timeout',
      '25h',
    ]);
    expect(get.code).toBe(2);
    expect(get.stderr).toContain('--request-timeout: at most 24h, got "25h"');
  });

  it('get and graph --state: usage errors, and an unreachable state in one line', async () => {
    const bad = await cli(['get', 'vm', '--state', 'etcd://nowhere']);
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toContain('--state: "etcd://nowhere" has no port');
    const noResources = await cli(['graph', '-f', dir, '--state', 'etcd://127.0.0.1:1']);
    expect(noResources.code).toBe(2);
    expect(noResources.stderr).toContain('give --resources too');
    const unreachable = await cli(['get', 'vm', '--state', 'etcd://127.0.0.1:1/x']);
    expect(unreachable.code).toBe(2);
    expect(unreachable.stderr).toBe(
      'cosi: cannot reach etcd at 127.0.0.1:1: connection refused (nothing listens on that port): check that etcd runs there and the --state URL\n',
    );
  }, 60_000);

  it('waits --connect-timeout for an etcd that refuses connections, then exits 2 in one line saying what to do', async () => {
    const h = harness(dir);
    // Port 1 on loopback: nothing listens there.
    const started = performance.now();
    expect(
      await runRuntime(
        h.io,
        [dir],
        flags({ state: 'etcd://127.0.0.1:1/x', connectTimeout: '2s' }),
        h.watchFiles,
      ),
    ).toEqual({ exitCode: 2 });
    // It tried for the whole 2 s (an etcd starting beside it would have been found).
    expect(performance.now() - started).toBeGreaterThanOrEqual(2_000);
    expect(h.stderr().split('\n')).toEqual([
      expect.stringMatching(
        line(
          'INFO',
          'waiting for etcd at 127\\.0\\.0\\.1:1: connection refused \\(nothing listens on that port\\); trying again until --connect-timeout \\(2s\\) has passed',
        ),
      ),
      expect.stringMatching(
        line(
          'ERROR',
          'cannot reach etcd at 127\\.0\\.0\\.1:1 within 2s \\(--connect-timeout\\): connection refused \\(nothing listens on that port\\): check that etcd runs there and the --state URL, or raise --connect-timeout code=etcd-unreachable',
        ),
      ),
      '',
    ]);
  }, 60_000);

  it('refuses --log-format and listen addresses it cannot use, as usage errors', async () => {
    const h = harness(dir);
    await expect(
      runRuntime(h.io, [dir], flags({ logFormat: 'xml' }), h.watchFiles),
    ).rejects.toThrow(/--log-format: text or json, got "xml"/);
    expect(
      await runRuntime(h.io, [dir], flags({ metricsAddr: 'localhost' }), h.watchFiles),
    ).toEqual({ exitCode: 2 });
    expect(h.stderr()).toMatch(/--metrics-addr: expected HOST:PORT or :PORT/);
  });
});
