import { appendFile, cp, mkdir, mkdtemp, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pointerKey } from '../../src/engine/resource/pointer.js';
import type { Resource } from '../../src/engine/resource/resource.js';
import { createColors } from '../../src/cli/render/report.js';
import { renderRoundLines, roundJson } from '../../src/cli/ui/line-stream.js';
import { describeTrigger } from '../../src/cli/ui/round-text.js';
import { watchOutput } from '../../src/cli/commands/watch.js';
import { createRoundViews } from '../../src/cli/ui/round-view.js';
import type { FileEvent, WatchFiles } from '../../src/app/file-events.js';
import {
  startWatchSession,
  type WatchRound,
  type WatchSession,
} from '../../src/app/watch-session.js';
import { runCli } from '../../src/cli/program.js';
import { startEditedWatch } from '../support/watch-edits.js';
import { cli, REPO } from './run-cli.js';

let dir: string;
let session: WatchSession | undefined;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-'));
  await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
});

afterEach(async () => {
  await session?.close();
  session = undefined;
  vi.useRealTimers();
  await rm(dir, { recursive: true, force: true });
});

const key = (type: string, id: string): string => pointerKey({ namespace: 'default', type, id });

/** A watcher driven by the test. */
function syntheticWatcher() {
  let listener: ((event: FileEvent) => void) | undefined;
  const watcher = {
    paths: [] as readonly string[],
    closed: false,
    watch: ((paths, onEvent) => {
      watcher.paths = paths;
      listener = onEvent;
      return {
        close: () => {
          watcher.closed = true;
          return Promise.resolve();
        },
      };
    }) as WatchFiles,
    emit(kind: FileEvent['kind'], file: string) {
      listener?.({ kind, path: path.join(dir, file) });
    },
  };
  return watcher;
}

async function start(watcher = syntheticWatcher()) {
  const rounds: WatchRound[] = [];
  session = await startWatchSession({
    files: ['.'],
    cwd: dir,
    stable: true,
    watch: watcher.watch,
    onRound: (round) => rounds.push(round),
  });
  return { rounds, watcher, session };
}

/** Lets the debounce run out and waits for the round(s) it starts. */
async function flush(s: WatchSession): Promise<void> {
  await vi.advanceTimersByTimeAsync(100);
  await s.idle();
}

function find(round: WatchRound | undefined, type: string, id: string): Resource | undefined {
  const snapshot = round?.snapshot;
  if (!snapshot) throw new Error('no state in the round');
  return snapshot.resources.find((r) => r.metadata.type === type && r.metadata.id === id);
}

async function editFile(file: string, from: string | RegExp, to: string): Promise<void> {
  const full = path.join(dir, file);
  await writeFile(full, (await readFile(full, 'utf8')).replace(from, to));
}

describe('cosi watch session', () => {
  it('starts like cosi apply: loads, converges and reports the first round', async () => {
    const { rounds, watcher } = await start();
    expect(rounds).toHaveLength(1);
    const [first] = rounds;
    expect(first?.trigger).toBe('start');
    expect(first?.report?.converged).toBe(true);
    expect(first?.files).toEqual(['hosts.yaml', 'vms.yaml']);
    expect(find(first, 'NetworkConfigs.example.org', 'web-1')?.spec).toMatchObject({
      bridge: 'br-debian',
    });
    expect(watcher.paths).toEqual([dir, path.join(dir, 'cosi.config.ts')]);
  });

  it('an edit of one VM updates only that VM and what the controllers derived from it', async () => {
    const { rounds, watcher, session: s } = await start();
    const before = rounds[0];
    const versions = (round: WatchRound | undefined) =>
      ['web-1', 'web-2', 'db-1'].map((id) => find(round, 'VMs.example.org', id)?.metadata.version);
    const [web1, web2, db1] = versions(before);
    await editFile('vms.yaml', 'image: postgres', 'image: mariadb');
    watcher.emit('change', 'vms.yaml');
    await flush(s);
    expect(rounds).toHaveLength(2);
    const round = rounds[1];
    expect(round?.trigger).toBe('manifests');
    expect(round?.changed).toEqual(['vms.yaml']);
    expect(round?.cost).toEqual({ read: 1, parsed: 1 });
    expect(round?.changes?.updated).toEqual([key('VMs.example.org', 'db-1')]);
    expect(round?.changes?.created).toEqual([]);
    expect(versions(round)).toEqual([web1, web2, (db1 ?? 0) + 1]);
    expect(find(round, 'NetworkConfigs.example.org', 'db-1')?.spec).toMatchObject({
      bridge: 'br-mariadb',
    });
    expect(find(round, 'NetworkConfigs.example.org', 'web-1')?.metadata.version).toBe(1);
    expect(round?.report?.converged).toBe(true);
  });

  it('applies only the resources of the edited file, and everything after a round that applied nothing', async () => {
    await writeFile(
      path.join(dir, 'more.yaml'),
      Array.from(
        { length: 10 },
        (_, i) => `metadata:\n  type: host\n  id: extra-${i}\nspec:\n  cpus: 8\n  zone: z1\n`,
      ).join('---\n'),
    );
    const { rounds, watcher, session: s } = await start();
    const applier = () => rounds.at(-1)?.project?.applier;
    expect(applier()?.size).toBe(15);
    await editFile('vms.yaml', 'image: postgres', 'image: mariadb');
    watcher.emit('change', 'vms.yaml');
    await flush(s);
    expect(rounds[1]?.changes?.updated).toEqual([key('VMs.example.org', 'db-1')]);
    expect(applier()?.compared).toBe(3);
    // The round's snapshot says what changed since the last: the VM and its NetworkConfig.
    expect(rounds[1]?.snapshot?.changes?.since).toBe(rounds[0]?.snapshot?.resources);
    expect(rounds[1]?.snapshot?.changes?.list.map((c) => c.after?.metadata.type ?? '')).toEqual([
      'NetworkConfigs.example.org',
      'VMs.example.org',
    ]);
    // An invalid edit applies nothing: the next good one is applied whole.
    await editFile('hosts.yaml', 'cpus: 4', 'cpus: 0');
    watcher.emit('change', 'hosts.yaml');
    await flush(s);
    expect(rounds[2]?.applied).toBe(false);
    await editFile('hosts.yaml', 'cpus: 0', 'cpus: 4');
    watcher.emit('change', 'hosts.yaml');
    await flush(s);
    expect(rounds[3]?.applied).toBe(true);
    expect(applier()?.compared).toBe(15);
  }, 30_000);

  it('a deleted file tears its resources down and the controllers clean up what they derived', async () => {
    await writeFile(
      path.join(dir, 'extra.yaml'),
      'metadata: {type: vm, id: extra-1}\nspec: {cpus: 1, image: alpine, host: node-b}\n',
    );
    const { rounds, watcher, session: s } = await start();
    expect(find(rounds[0], 'NetworkConfigs.example.org', 'extra-1')).toBeDefined();
    expect(find(rounds[0], 'Placements.example.org', 'extra-1')).toBeDefined();
    await unlink(path.join(dir, 'extra.yaml'));
    watcher.emit('unlink', 'extra.yaml');
    await flush(s);
    const round = rounds[1];
    // Said removed, not changed.
    expect(round?.changed).toEqual(['extra.yaml']);
    expect(round?.removed).toEqual(['extra.yaml']);
    expect(describeTrigger(round!)).toBe('extra.yaml removed');
    expect(round?.changes?.tornDown).toEqual([key('VMs.example.org', 'extra-1')]);
    expect(round?.files).toEqual(['hosts.yaml', 'vms.yaml']);
    expect(round?.cost).toEqual({ read: 0, parsed: 0 });
    expect(round?.report?.converged).toBe(true);
    expect(find(round, 'VMs.example.org', 'extra-1')).toBeUndefined();
    expect(find(round, 'NetworkConfigs.example.org', 'extra-1')).toBeUndefined();
    expect(find(round, 'Placements.example.org', 'extra-1')).toBeUndefined();
    expect(find(round, 'NetworkConfigs.example.org', 'web-1')).toBeDefined();
  });

  it('removing a host removes the status the builder controller keeps for it', async () => {
    const { rounds, watcher, session: s } = await start();
    expect(find(rounds[0], 'HostStatuses.example.org', 'node-b')).toBeDefined();
    const hosts = path.join(dir, 'hosts.yaml');
    const text = await readFile(hosts, 'utf8');
    await writeFile(hosts, text.slice(0, text.indexOf('---')));
    watcher.emit('change', 'hosts.yaml');
    await flush(s);
    const round = rounds[1];
    expect(round?.report?.converged).toBe(true);
    expect(find(round, 'Hosts.example.org', 'node-b')).toBeUndefined();
    expect(find(round, 'HostStatuses.example.org', 'node-b')).toBeUndefined();
    expect(find(round, 'HostStatuses.example.org', 'node-a')).toBeDefined();
  });

  it('an invalid edit shows its findings, applies nothing and keeps the last good state running', async () => {
    const { rounds, watcher, session: s } = await start();
    await editFile('vms.yaml', 'cpus: 6', 'cpus: 0');
    watcher.emit('change', 'vms.yaml');
    await flush(s);
    const bad = rounds[1];
    expect(bad?.applied).toBe(false);
    expect(bad?.report).toBeUndefined();
    expect(bad?.findings.map((f) => [f.code, f.file])).toEqual([['schema-violation', 'vms.yaml']]);
    expect(bad?.project).toBe(rounds[0]?.project);
    expect(find(bad, 'VMs.example.org', 'db-1')?.spec).toMatchObject({ cpus: 6 });

    await editFile('vms.yaml', 'cpus: 0', 'cpus: 3');
    watcher.emit('change', 'vms.yaml');
    await flush(s);
    const fixed = rounds[2];
    expect(fixed?.applied).toBe(true);
    expect(fixed?.findings).toEqual([]);
    expect(fixed?.changes?.updated).toEqual([key('VMs.example.org', 'db-1')]);
    expect(find(fixed, 'Placements.example.org', 'db-1')?.spec).toMatchObject({ fits: true });
  });

  it('batches rapid edits into one round after the debounce', async () => {
    const { rounds, watcher, session: s } = await start();
    await editFile('vms.yaml', 'image: postgres', 'image: mariadb');
    watcher.emit('change', 'vms.yaml');
    await vi.advanceTimersByTimeAsync(60);
    await editFile('hosts.yaml', 'cpus: 4', 'cpus: 16');
    watcher.emit('change', 'hosts.yaml');
    await vi.advanceTimersByTimeAsync(60);
    expect(rounds).toHaveLength(1);
    await flush(s);
    expect(rounds).toHaveLength(2);
    expect(rounds[1]?.changed).toEqual(['hosts.yaml', 'vms.yaml']);
    expect(rounds[1]?.changes?.updated).toEqual([
      key('Hosts.example.org', 'node-b'),
      key('VMs.example.org', 'db-1'),
    ]);
  });

  it('ignores events of files that are neither manifests nor scripts', async () => {
    const { rounds, watcher, session: s } = await start();
    watcher.emit('change', 'README.md');
    await flush(s);
    expect(rounds).toHaveLength(1);
  });

  it('a change of the config restarts the controllers on a fresh state', async () => {
    const { rounds, watcher, session: s } = await start();
    await editFile('vms.yaml', 'image: postgres', 'image: mariadb');
    watcher.emit('change', 'vms.yaml');
    await flush(s);
    expect(find(rounds[1], 'VMs.example.org', 'db-1')?.metadata.version).toBe(4);
    await editFile(
      'cosi.config.ts',
      'controllers: [createVMNetController(), createPlacementController()]',
      'controllers: [createVMNetController()]',
    );
    watcher.emit('change', 'cosi.config.ts');
    await flush(s);
    const round = rounds[2];
    expect(round?.trigger).toBe('restart');
    expect(round?.project).not.toBe(rounds[1]?.project);
    expect(round?.project?.runtime.controllerNames()).not.toContain('PlacementController');
    expect(find(round, 'Placements.example.org', 'db-1')).toBeUndefined();
    expect(find(round, 'NetworkConfigs.example.org', 'db-1')?.metadata.version).toBe(1);
  });

  it('follows the modules the config imports, outside the manifest paths: an edit restarts', async () => {
    // `cosi init`'s layout: the config at the root, the manifests in a directory of their own.
    await mkdir(path.join(dir, 'manifests'));
    for (const file of ['vms.yaml', 'hosts.yaml']) {
      await writeFile(
        path.join(dir, 'manifests', file),
        await readFile(path.join(dir, file), 'utf8'),
      );
      await unlink(path.join(dir, file));
    }
    await editFile('cosi.config.ts', 'definitions:', `manifests: ['manifests'], definitions:`);
    const watcher = syntheticWatcher();
    const rounds: WatchRound[] = [];
    const s = await startWatchSession({
      files: [],
      requireManifests: true,
      cwd: dir,
      stable: true,
      watch: watcher.watch,
      onRound: (round) => rounds.push(round),
    });
    session = s;
    expect(watcher.paths).toEqual(
      expect.arrayContaining(['controllers.ts', 'types.ts'].map((f) => path.join(dir, f))),
    );
    expect(find(rounds[0], 'NetworkConfigs.example.org', 'db-1')?.spec).toMatchObject({
      bridge: 'br-postgres',
    });
    // The controller's module, which the config imports, is edited: the controllers restart.
    await editFile('controllers.ts', '`br-${vm.spec.image}`', '`bridge-${vm.spec.image}`');
    watcher.emit('change', 'controllers.ts');
    await flush(s);
    expect(rounds[1]?.trigger).toBe('restart');
    expect(find(rounds[1], 'NetworkConfigs.example.org', 'db-1')?.spec).toMatchObject({
      bridge: 'bridge-postgres',
    });
  });

  it('given no paths, reads and watches the manifests the config names, and follows a config edit of them', async () => {
    const names = (list: string): Promise<void> =>
      editFile(
        'cosi.config.ts',
        /(manifests: \[[^\]]*\], )?definitions:/,
        `manifests: ${list}, definitions:`,
      );
    await names(`['vms.yaml', 'hosts.yaml']`);
    await writeFile(
      path.join(dir, 'extra.yaml'),
      'metadata: { type: vm, id: extra-1 }\nspec: { cpus: 1, image: alpine, host: node-a }\n',
    );
    const watcher = syntheticWatcher();
    const rounds: WatchRound[] = [];
    const s = await startWatchSession({
      files: [],
      requireManifests: true,
      cwd: dir,
      stable: true,
      watch: watcher.watch,
      onRound: (round) => rounds.push(round),
    });
    session = s;
    expect(rounds[0]?.files).toEqual(['hosts.yaml', 'vms.yaml']);
    expect(find(rounds[0], 'VMs.example.org', 'extra-1')).toBeUndefined();
    // The manifests, the config and the project's modules it imports.
    expect(watcher.paths).toEqual(
      [
        'vms.yaml',
        'hosts.yaml',
        'cosi.config.ts',
        'controllers.ts',
        'host-status.ts',
        'placement.ts',
        'types.ts',
      ].map((f) => path.join(dir, f)),
    );
    // The config names one file more: read at the restart, and watched from then on.
    await names(`['vms.yaml', 'hosts.yaml', 'extra.yaml']`);
    watcher.emit('change', 'cosi.config.ts');
    await flush(s);
    expect(rounds[1]?.trigger).toBe('restart');
    expect(find(rounds[1], 'VMs.example.org', 'extra-1')).toBeDefined();
    expect(watcher.closed).toBe(true);
    expect(watcher.paths).toContain(path.join(dir, 'extra.yaml'));
    // A config that names none is said as a config error is; the last good project runs on.
    await names('[]');
    watcher.emit('change', 'cosi.config.ts');
    await flush(s);
    expect(rounds[2]?.applied).toBe(false);
    expect(rounds[2]?.error).toMatch(/^no manifests given: pass -f <path>/);
    expect(rounds[2]?.project).toBe(rounds[1]?.project);
  });

  it('a config edited while the manifests are broken takes effect once they are fixed', async () => {
    const { rounds, watcher, session: s } = await start();
    await editFile('vms.yaml', 'cpus: 6', 'cpus: 0');
    await editFile(
      'cosi.config.ts',
      'controllers: [createVMNetController(), createPlacementController()]',
      'controllers: [createVMNetController()]',
    );
    watcher.emit('change', 'cosi.config.ts');
    await flush(s);
    expect(rounds[1]?.applied).toBe(false);
    expect(rounds[1]?.project).toBe(rounds[0]?.project);

    await editFile('vms.yaml', 'cpus: 0', 'cpus: 3');
    watcher.emit('change', 'vms.yaml');
    await flush(s);
    const fixed = rounds[2];
    expect(fixed?.applied).toBe(true);
    expect(fixed?.trigger).toBe('restart');
    expect(fixed?.project?.runtime.controllerNames()).not.toContain('PlacementController');
    expect(find(fixed, 'Placements.example.org', 'db-1')).toBeUndefined();
  });

  it('a config that stops loading is reported and the last good project keeps running', async () => {
    const { rounds, watcher, session: s } = await start();
    await writeFile(path.join(dir, 'cosi.config.ts'), 'export default 42;\n');
    watcher.emit('change', 'cosi.config.ts');
    await flush(s);
    expect(rounds[1]?.applied).toBe(false);
    expect(rounds[1]?.error).toMatch(
      /cosi\.config\.ts: the default export must be an object, not a number/,
    );
    expect(rounds[1]?.project).toBe(rounds[0]?.project);
  });

  it('a restart names the config file that caused it', async () => {
    const { rounds, watcher, session: s } = await start();
    await editFile(
      'cosi.config.ts',
      'createPlacementController()]',
      'createPlacementController(),]',
    );
    watcher.emit('change', 'cosi.config.ts');
    await flush(s);
    expect(rounds[1]?.trigger).toBe('restart');
    expect(rounds[1]?.changed).toEqual(['cosi.config.ts']);
  });

  it('while paused, edits are collected and run as one round on resume', async () => {
    const { rounds, watcher, session: s } = await start();
    s.pause();
    expect(s.paused).toBe(true);
    await editFile('vms.yaml', 'image: postgres', 'image: mariadb');
    watcher.emit('change', 'vms.yaml');
    await flush(s);
    await editFile('hosts.yaml', 'cpus: 4', 'cpus: 16');
    watcher.emit('change', 'hosts.yaml');
    await flush(s);
    expect(rounds).toHaveLength(1);
    s.resume();
    await s.idle();
    expect(s.paused).toBe(false);
    expect(rounds).toHaveLength(2);
    expect(rounds[1]?.changed).toEqual(['hosts.yaml', 'vms.yaml']);
    expect(rounds[1]?.changes?.updated).toHaveLength(2);
  });

  it('a re-run starts again from a fresh state, even while paused', async () => {
    const { rounds, session: s } = await start();
    s.pause();
    s.rerun();
    await s.idle();
    expect(rounds).toHaveLength(2);
    const round = rounds[1];
    expect(round?.trigger).toBe('rerun');
    expect(round?.project).not.toBe(rounds[0]?.project);
    expect(round?.report?.converged).toBe(true);
    expect(find(round, 'VMs.example.org', 'db-1')?.metadata.version).toBe(
      find(rounds[0], 'VMs.example.org', 'db-1')?.metadata.version,
    );
  });

  it('a config that throws while it runs is shown with its file, line and column', async () => {
    const { rounds, watcher, session: s } = await start();
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      'const unused = 1;\n\nexport default {\n  controllers: [notDefined()],\n};\n',
    );
    watcher.emit('change', 'cosi.config.ts');
    await flush(s);
    expect(rounds[1]?.applied).toBe(false);
    expect(rounds[1]?.error).toBe(
      'cosi.config.ts:4:17: cannot load the config: notDefined is not defined',
    );
    expect(rounds[1]?.project).toBe(rounds[0]?.project);
    // The last good state keeps running: its files are still counted.
    expect(rounds[1]?.files).toEqual(rounds[0]?.files);
    expect(rounds[1]?.files.length).toBeGreaterThan(0);
  });

  it('a config with a syntax error is shown with its file and line', async () => {
    const { rounds, watcher, session: s } = await start();
    await writeFile(path.join(dir, 'cosi.config.ts'), 'export default {\n  controllers: [,\n};\n');
    watcher.emit('change', 'cosi.config.ts');
    await flush(s);
    expect(rounds[1]?.error).toMatch(/^cosi\.config\.ts:3:\d+: cannot load the config: \S/);
    expect(rounds[1]?.error).not.toContain('\n');
  });

  it("a syntax error in a module the config imports is shown at that module's file, line and column", async () => {
    const { rounds, watcher, session: s } = await start();
    const placement = path.join(dir, 'placement.ts');
    const lines = (await readFile(placement, 'utf8')).split('\n').length;
    await appendFile(placement, 'export const = ;\n');
    watcher.emit('change', 'placement.ts');
    await flush(s);
    expect(rounds[1]?.applied).toBe(false);
    expect(rounds[1]?.error).toBe(
      `placement.ts:${lines}:14: cannot load the config: syntax error: Unexpected token "="`,
    );
  });

  it('a controller in backoff at the end of a round reports when it retries, on the simulated clock', async () => {
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      `import { defineConfig } from 'cosi';
import { Host, HostStatus, NetworkConfig, Placement, VM } from './types.js';

export default defineConfig({
  definitions: [VM, Host, NetworkConfig, Placement, HostStatus],
  controllers: [
    {
      name: 'Flaky',
      settings: { inputs: [{ namespace: 'default', type: VM.type, kind: 'primary' }], outputs: [] },
      reconcile: () => Promise.reject(new Error('no water')),
      mapInput: async () => [],
    },
  ],
});
`,
    );
    const rounds: WatchRound[] = [];
    session = await startWatchSession({
      files: ['.'],
      cwd: dir,
      stable: true,
      timeout: 1000,
      watch: syntheticWatcher().watch,
      onRound: (round) => rounds.push(round),
    });
    // Attempts at 0 and 500 ms; the third (500 + 750) is past the round's 1 s bound.
    expect(rounds[0]?.report?.controllers[0]).toMatchObject({
      name: 'Flaky',
      condition: 'backoff',
      retryIn: 750,
    });
    const view = createRoundViews({ stable: true })(rounds[0] as WatchRound);
    expect(view.controllers[0]).toMatchObject({ condition: 'backoff', retryIn: 750 });
  }, 30_000);

  it('-t shows several types, repeated or comma-separated, as apply and graph take them', async () => {
    const { rounds } = await start();
    const shown = (type: readonly string[]): string[] =>
      createRoundViews({ stable: true, query: { type } })(rounds[0] as WatchRound).groups.map(
        (g) => g.type,
      );
    expect(shown(['vm', 'host']).sort()).toEqual(['Hosts.example.org', 'VMs.example.org']);
    expect(shown(['vm'])).toEqual(['VMs.example.org']);
    // From the command line, `-t vm,host` (review cli3 M4).
    const { defineWatch } = await import('../../src/cli/commands/watch-definition.js');
    const parsed = defineWatch().exitOverride().parse(['-t', 'vm,host', '-t', 'nc'], {
      from: 'user',
    });
    expect(parsed.opts().type).toEqual(['vm', 'host', 'nc']);
  });

  it('closing stops the watcher, the pending debounce and the runtime, and resolves closed', async () => {
    const { rounds, watcher, session: s } = await start();
    watcher.emit('change', 'vms.yaml');
    expect(vi.getTimerCount()).toBe(1);
    await s.close();
    await expect(s.closed).resolves.toBeUndefined();
    expect(watcher.closed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    watcher.emit('change', 'vms.yaml');
    expect(vi.getTimerCount()).toBe(0);
    expect(rounds).toHaveLength(1);
  });
});

describe('the watch line stream', () => {
  it('off a terminal prints one header line per round, then the changed resources and the findings', async () => {
    const { rounds, watcher, session: s } = await start();
    await editFile('vms.yaml', 'image: postgres', 'image: mariadb');
    watcher.emit('change', 'vms.yaml');
    await flush(s);
    await editFile('vms.yaml', 'cpus: 6', 'cpus: 0');
    watcher.emit('change', 'vms.yaml');
    await flush(s);
    const toView = createRoundViews({ stable: true });
    const out = rounds.map((r) => renderRoundLines(toView(r), createColors(false))).join('');
    expect(out.split('\n')).toEqual([
      'round 1: started | converged | 13 created, 0 updated, 0 destroyed | 13 resources | 2 files',
      'round 2: vms.yaml changed | converged | 0 created, 2 updated, 0 destroyed | 13 resources | 2 files | read 1, parsed 1',
      '~ NetworkConfigs.example.org default/db-1',
      '~ VMs.example.org default/db-1',
      'round 3: vms.yaml changed | not applied | 0 created, 0 updated, 0 destroyed | 13 resources | 2 files | read 1, parsed 1',
      'nothing applied: the last good state keeps running',
      expect.stringMatching(/^vms\.yaml:\d+:\d+: error\[schema-violation\]/),
      '',
    ]);
    expect(out).not.toContain('\u001b[');
  });

  it('says each round what the state shows, as cosi check does: an RGD instance that waits, an observed status laid on nothing', async () => {
    const rgd = await readFile(path.join(REPO, 'fixtures/kro-webapp/rgd.yaml'), 'utf8');
    const kro = path.join(dir, 'kro');
    await mkdir(kro);
    await writeFile(
      path.join(kro, 'rgd.yaml'),
      rgd.replace(
        '    - id: deployment\n',
        '    - id: deployment\n      readyWhen:\n        - ${deployment.spec.replicas == deployment.status.availableReplicas}\n',
      ),
    );
    await writeFile(
      path.join(kro, 'instance.yaml'),
      'apiVersion: kro.run/v1alpha1\nkind: WebApp\nmetadata:\n  name: shop\nspec:\n  name: shop\n',
    );
    await writeFile(
      path.join(kro, 'observed.yaml'),
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: shopp\n  annotations: { cosi.dev/observed: "true" }\nstatus: { availableReplicas: 1 }\n',
    );
    const edited = await startEditedWatch({ files: ['kro'], cwd: dir, stable: true });
    session = edited.session;
    await edited.save('kro/observed.yaml', 'name: shopp', 'name: shop');
    const toView = createRoundViews({ stable: true });
    const out = edited.rounds.map((r) => renderRoundLines(toView(r), createColors(false)));
    expect(out[0]?.split('\n').slice(1)).toEqual([
      expect.stringMatching(
        /^kro\/instance\.yaml:1:1: warning\[rgd-waiting\]: WebApps\.kro\.run\(default\/shop\) stays in progress: /,
      ),
      'kro/observed.yaml:1:1: warning[observed-unused]: the observed status of Deployment default/shopp is laid on nothing: no RGD rendered a Deployment of that name in default (did you mean "shop"?)',
      '',
    ]);
    // Named right, the status is laid on the Deployment and the instance is ready: nothing said.
    expect(out[1]).not.toContain('warning[');
    expect(edited.rounds[1]?.stateFindings).toEqual([]);
  });
});

describe('the watch line stream', () => {
  it("writes control characters of a controller's error and of a finding out, as apply does", () => {
    const view = {
      number: 2,
      trigger: 'manifests',
      changed: [],
      files: 1,
      counts: { created: 0, updated: 0, destroyed: 0 },
      resources: 1,
      cost: { read: 1, parsed: 1 },
      groups: [],
      writes: new Map(),
      status: 'error',
      reason: 'controllers kept failing',
      lastGoodRunning: false,
      findings: [
        {
          code: 'reconcile-failed',
          severity: 'error',
          message: 'P could not reconcile: kaboom \u001b]0;title\u0007',
          file: 'vms.yaml',
          line: 3,
          col: 1,
          pointer: '',
        },
      ],
      controllers: [
        {
          name: 'P',
          condition: 'failed',
          reconciles: 10,
          writes: 0,
          errors: 10,
          failingItems: 1,
          lastError: 'kaboom \u001b[31mred',
        },
      ],
    } as unknown as Parameters<typeof renderRoundLines>[0];
    const out = renderRoundLines(view, createColors(false));
    expect(out.includes('\u001b') || out.includes('\u0007')).toBe(false);
    expect(out).toContain('P: given up, 10 errors, 1 item failing: kaboom \\x1b[31mred');
    expect(out).toContain('kaboom \\x1b]0;title\\x07');
  });
});

describe('the watch output', () => {
  it('-o json prints one JSON object per round with its changes', async () => {
    const { rounds, watcher, session: s } = await start();
    await editFile('vms.yaml', 'image: postgres', 'image: mariadb');
    watcher.emit('change', 'vms.yaml');
    await flush(s);
    const toView = createRoundViews({ stable: true });
    const lines = rounds.map((r) => JSON.stringify(roundJson(toView(r))));
    const [first, second] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(first).toMatchObject({ round: 1, trigger: 'start', status: 'converged', resources: 13 });
    expect(second).toMatchObject({
      round: 2,
      trigger: 'manifests',
      changed: ['vms.yaml'],
      counts: { created: 0, updated: 2, destroyed: 0 },
      changes: [
        {
          marker: '~',
          type: 'NetworkConfigs.example.org',
          namespace: 'default',
          id: 'db-1',
          version: 2,
        },
        { marker: '~', type: 'VMs.example.org', namespace: 'default', id: 'db-1', version: 4 },
      ],
    });
    expect(second).not.toHaveProperty('wallTime');
  });

  it('is the screen only on a terminal without --plain, NDJSON with -o json', () => {
    const terminal = { stdout: process.stdout, stdin: process.stdin };
    expect(watchOutput({ terminal }, {})).toBe('screen');
    expect(watchOutput({ terminal }, { plain: true })).toBe('lines');
    expect(watchOutput({}, {})).toBe('lines');
    expect(watchOutput({ terminal }, { output: 'json' })).toBe('json');
    expect(() => watchOutput({}, { output: 'yaml' })).toThrow(/unknown format "yaml"/);
  });

  it('is the line stream on a dumb terminal, which cannot redraw a screen', () => {
    const terminal = { stdout: process.stdout, stdin: process.stdin };
    expect(watchOutput({ terminal, env: { TERM: 'dumb' } }, {})).toBe('lines');
    expect(watchOutput({ terminal, env: { TERM: 'xterm-256color' } }, {})).toBe('screen');
  });
});

describe('cosi watch', () => {
  it('re-reconciles on real file events until interrupted, then exits 0', async () => {
    vi.useRealTimers();
    let stdout = '';
    let interrupt: (() => void) | undefined;
    let unsubscribed = false;
    const running = runCli(['watch', '-f', '.', '--stable'], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: () => true },
      cwd: dir,
      env: {},
      isTTY: false,
      onInterrupt: (handler) => {
        interrupt = handler;
        return () => {
          unsubscribed = true;
        };
      },
    });
    await vi.waitFor(() => expect(interrupt).toBeDefined(), { timeout: 10_000 });
    let cpus = 6;
    // The watcher may still be scanning: edit again until a round sees it, within the bound.
    await vi.waitFor(
      async () => {
        if (!stdout.includes('round 2')) {
          await editFile('vms.yaml', /cpus: \d+(\n\s+image: postgres)/, `cpus: ${++cpus}$1`);
        }
        expect(stdout).toContain('round 2: vms.yaml changed | converged');
      },
      { timeout: 10_000, interval: 200 },
    );
    interrupt?.();
    expect(await running).toBe(0);
    expect(unsubscribed).toBe(true);
    expect(stdout).toMatch(/^round 1: started \| converged/);
    expect(stdout).toContain('~ VMs.example.org default/db-1');
  });

  it('stops at once, exit 2, for a type the project that loaded does not have (-t nope)', async () => {
    vi.useRealTimers();
    let stdout = '';
    let stderr = '';
    const code = await runCli(['watch', '-f', '.', '-t', 'nope'], {
      stdout: { write: (t: string) => (stdout += t) },
      stderr: { write: (t: string) => (stderr += t) },
      cwd: dir,
      env: {},
      isTTY: false,
      onInterrupt: () => () => undefined,
    });
    expect([code, stdout, stderr]).toEqual([
      2,
      '',
      'cosi: resource type "nope" is not registered\n',
    ]);
  });

  it('refuses to start where it cannot be interrupted', async () => {
    const result = await cli(['watch', '-f', '.'], { cwd: dir });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('cannot be');
  });
});
