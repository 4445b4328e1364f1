import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { newResource } from '../../src/engine/resource/resource.js';
import { createEtcdState, type EtcdState } from '../../src/state-etcd/etcd-state.js';
import { exitWithin, spawnCosi, type CosiProcess } from '../support/cosi-process.js';
import { useEtcdClient } from '../support/etcd-client.js';
import { etcdAvailable } from '../support/etcd-server.js';
import { saveFile } from '../support/save-file.js';
import { waitFor } from '../support/wait-for.js';
import { cli, REPO } from './run-cli.js';

/**
 * `cosi get -w` as users run it: the built CLI (dist/) in a real process, its project in the
 * supervised worker, edits made to real files, a real etcd; every wait is for a condition, bounded.
 */
const processes: CosiProcess[] = [];
const start = (args: readonly string[], cwd?: string): CosiProcess => {
  const p = spawnCosi(args, cwd, { stdout: true });
  processes.push(p);
  return p;
};
afterEach(async () => {
  for (const p of processes.splice(0)) {
    p.kill('SIGKILL');
    await p.exited;
  }
});

/**
 * Makes an edit and waits (bounded) for `seen`; the edit is made again every 2 s until then: a
 * file watcher that is not ready yet misses an edit (a restarted worker's gives no sign of being
 * ready), and a loaded machine is slow.
 */
async function editUntil(
  write: () => Promise<void>,
  seen: () => boolean,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!seen()) {
    if (Date.now() > deadline) throw new Error(`the edit was not seen within ${timeoutMs} ms`);
    await write();
    await waitFor(seen, 2_000).catch(() => undefined);
  }
}

const lines = (text: string): string[] => text.split('\n').filter(Boolean);
const rowsOf = (text: string, id: string): string[] =>
  lines(text).filter((line) => line.split(/\s+/).includes(id));

describe('get -w on the project: re-converged on every file change', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'cosi-get-watch-'));
    await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const edit = async (from: string | RegExp, to: string): Promise<void> => {
    const file = path.join(dir, 'vms.yaml');
    await saveFile(file, (await readFile(file, 'utf8')).replace(from, to));
  };

  it('prints the table, then one row per changed resource with its event, no header again; SIGTERM exits 0', async () => {
    const p = start(['get', 'vm', '-f', dir, '-w', '--output-watch-events']);
    const initial = await p.waitForStdout((out) => rowsOf(out, 'db-1').length === 1, 60_000);
    expect(lines(initial)[0]).toMatch(/^EVENT\s+NAMESPACE\s+TYPE\s+ID\s+VERSION/);
    expect(
      lines(initial)
        .slice(1)
        .map((line) => line.split(/\s+/)[0]),
    ).toEqual(['ADDED', 'ADDED', 'ADDED']);
    // web-1 asks for 4 CPUs: one MODIFIED row, the others untouched.
    await editUntil(
      () => edit(/(id: web-1[\s\S]*?cpus:) 2/, '$1 4'),
      () => rowsOf(p.stdout(), 'web-1').length === 2,
      30_000,
    );
    const modified = p.stdout();
    const [, row] = rowsOf(modified, 'web-1');
    expect(row).toMatch(
      /^MODIFIED\s+default\s+VM\s+web-1\s+\d+\s+<none>\s+running\s+4\s+debian\s+node-a$/,
    );
    expect(rowsOf(modified, 'web-2')).toHaveLength(1);
    // db-1 removed from the file: DELETED, with its last state.
    await editUntil(
      () => edit(/---\nmetadata:\n {2}type: VMs\.example\.org\n {2}id: db-1[\s\S]*$/, ''),
      () => rowsOf(p.stdout(), 'db-1').length === 2,
      30_000,
    );
    const deleted = p.stdout();
    expect(rowsOf(deleted, 'db-1')[1]).toMatch(/^DELETED\s+default\s+VM\s+db-1\s/);
    expect(lines(deleted).filter((line) => line.includes('NAMESPACE'))).toHaveLength(1);
    const columns = (line: string | undefined): number => line?.indexOf(' default') ?? -1;
    // Rows keep the table's columns.
    expect(columns(rowsOf(deleted, 'db-1')[1])).toBe(columns(lines(deleted)[1]));
    p.kill('SIGTERM');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 120_000);

  it('an invalid edit is said on stderr and prints no row; the next good edit does; Ctrl-C exits 0', async () => {
    const p = start(['get', 'vm', 'web-2', '-f', dir, '-w', '-o', 'json']);
    await p.waitForStdout((out) => out.includes('"id": "web-2"'), 60_000);
    await editUntil(
      () => edit(/(id: web-2[\s\S]*?cpus:) 2/, '$1 0'),
      () => /error\[schema-violation\]/.test(p.stderr()),
      30_000,
    );
    await p.waitForLine(/round 2: not applied \(invalid manifests\)/, 30_000);
    await edit(/(id: web-2[\s\S]*?cpus:) 0/, '$1 3');
    const out = await p.waitForStdout((text) => text.includes('"cpus": 3'), 30_000);
    // One JSON document per event: the first listing, then the change.
    const documents = out
      .split(/\n(?=\{)/)
      .map((text) => JSON.parse(text) as { metadata: { id: string }; spec: { cpus: number } });
    expect(documents.map((d) => [d.metadata.id, d.spec.cpus])).toEqual([
      ['web-2', 2],
      ['web-2', 3],
    ]);
    p.kill('SIGINT');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 120_000);

  it('a controller stuck in a loop is said on stderr and the watch goes on after the next edit', async () => {
    const controllers = path.join(dir, 'controllers.ts');
    const source = await readFile(controllers, 'utf8');
    // Bound enough for the config's own compile on a loaded machine, which also never yields.
    const p = start(['get', 'vm', '-f', dir, '-w', '--timeout', '10s']);
    await p.waitForStdout((out) => rowsOf(out, 'db-1').length === 1, 60_000);
    // The config's scripts changed: the project restarts, and its controller never yields.
    await editUntil(
      () =>
        saveFile(controllers, source.replace('transform: (_ctx, vm, net) => {', '$& for (;;);')),
      () => /was still running after .* without ever yielding/.test(p.stderr()),
      60_000,
    );
    await p.waitForLine(/^cosi: .*was still running after .* without ever yielding/, 1_000);
    // Said once the files are watched again: an edit before it would not be seen.
    await p.waitForLine(/waiting for a file to change to start again/, 30_000);
    expect(p.stdout()).not.toContain('waiting');
    // A new session: its first listing is printed again.
    await editUntil(
      () => saveFile(controllers, source),
      () => rowsOf(p.stdout(), 'db-1').length === 2,
      60_000,
    );
    p.kill('SIGTERM');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 180_000);
});

describe("watch's line stream, supervised as get -w is", () => {
  it('SIGTERM ends it as Ctrl-C does: a clean close, exit 0', async () => {
    const p = start(['watch', '-f', 'fixtures/vm-network', '--plain']);
    await p.waitForStdout((out) => out.includes('round 1'), 60_000);
    p.kill('SIGTERM');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 90_000);
});

describe('get -w: usage', () => {
  it('--output-watch-events needs -w, and a format with a place for the event', async () => {
    const without = await cli(['get', 'vm', '-f', 'fixtures/vm-network', '--output-watch-events']);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain('--output-watch-events: with -w');
    const template = await cli(
      [
        'get',
        'vm',
        '-f',
        'fixtures/vm-network',
        '-w',
        '--output-watch-events',
        '-o',
        'jsonpath={.spec}',
      ],
      { onInterrupt: () => () => undefined },
    );
    expect(template.code).toBe(2);
    expect(template.stderr).toContain(
      '--output-watch-events: with -o table, wide, name, json or yaml',
    );
  }, 60_000);

  it('an unknown type ends it at once, exit 2', async () => {
    const result = await cli(['get', 'nosuch', '-f', 'fixtures/vm-network', '-w'], {
      onInterrupt: () => () => undefined,
    });
    expect(result).toMatchObject({ code: 2, stdout: '' });
    expect(result.stderr).toContain('resource type "nosuch" is not registered');
  }, 60_000);

  it('refuses the standard input, which cannot be watched', async () => {
    const result = await cli(['get', 'vm', '-f', '-', '-w'], {
      stdin: '',
      onInterrupt: () => () => undefined,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('get -w reads files it can watch');
  }, 60_000);
});

describe.skipIf(!etcdAvailable)('get --state -w: what a running system writes', () => {
  const etcd = useEtcdClient();
  let state: EtcdState;
  const prefix = '/get-watch';
  const url = (): string => `etcd://${etcd.server.endpoint.replace(/^http:\/\//, '')}${prefix}`;
  const vm = (id: string, cpus: number, labels: Record<string, string> = {}) =>
    newResource({ namespace: 'default', type: 'VMs.t', id }, { cpus }, { labels });

  beforeAll(() => {
    state = createEtcdState({ endpoints: [etcd.server.endpoint], prefix });
  });
  afterAll(async () => {
    await state.close();
  });

  it('streams ADDED, MODIFIED and DELETED as the state changes; SIGTERM exits 0', async () => {
    await state.create(vm('a', 1));
    const p = start(['get', 'VMs.t', '--state', url(), '-w', '--output-watch-events']);
    await p.waitForStdout((out) => rowsOf(out, 'a').length === 1, 30_000);
    await state.create(vm('b', 2));
    await p.waitForStdout((out) => rowsOf(out, 'b').length === 1, 30_000);
    const stored = await state.get({ namespace: 'default', type: 'VMs.t', id: 'a' });
    await state.update({ ...stored, spec: { cpus: 5 } });
    await p.waitForStdout((out) => rowsOf(out, 'a').length === 2, 30_000);
    await state.destroy({ namespace: 'default', type: 'VMs.t', id: 'b' });
    const out = await p.waitForStdout((text) => rowsOf(text, 'b').length === 2, 30_000);
    expect(lines(out).map((line) => line.split(/\s+/).slice(0, 5))).toEqual([
      ['EVENT', 'NAMESPACE', 'TYPE', 'ID', 'VERSION'],
      ['ADDED', 'default', 'VMs.t', 'a', '1'],
      ['ADDED', 'default', 'VMs.t', 'b', '1'],
      ['MODIFIED', 'default', 'VMs.t', 'a', '2'],
      ['DELETED', 'default', 'VMs.t', 'b', '1'],
    ]);
    p.kill('SIGTERM');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 90_000);

  it("a real cosi run: its controllers' writes after an edit stream as they come", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'cosi-get-watch-run-'));
    try {
      await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
      const running = `etcd://${etcd.server.endpoint.replace(/^http:\/\//, '')}/get-watch-run`;
      const run = start(['run', '-f', dir, '--state', running, '--watch']);
      await run.waitForLine(/converged/, 60_000);
      const p = start([
        'get',
        'networkconfig',
        '--state',
        running,
        '-w',
        '-o',
        'json',
        '--output-watch-events',
      ]);
      await p.waitForStdout((out) => out.includes('"bridge": "br-postgres"'), 30_000);
      const file = path.join(dir, 'vms.yaml');
      const source = await readFile(file, 'utf8');
      // Saved once: run --watch applies a save made as soon as it said it converged.
      await saveFile(file, source.replace('image: postgres', 'image: mariadb'));
      await p.waitForStdout((out) => out.includes('"bridge": "br-mariadb"'), 60_000);
      const events = p
        .stdout()
        .split(/\n(?=\{)/)
        .map((text) => JSON.parse(text) as { type: string; object: { metadata: { id: string } } });
      expect(events.map((e) => `${e.type} ${e.object.metadata.id}`)).toEqual([
        'ADDED db-1',
        'ADDED web-1',
        'ADDED web-2',
        'MODIFIED db-1',
      ]);
      p.kill('SIGTERM');
      expect(await exitWithin(p, 20_000)).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 150_000);

  it('-l: a resource whose labels start or stop matching is ADDED or DELETED; -o yaml with events', async () => {
    await state.create(vm('web', 1, { tier: 'web' }));
    const p = start([
      'get',
      'VMs.t',
      '--state',
      url(),
      '-w',
      '-l',
      'tier=web',
      '-o',
      'yaml',
      '--output-watch-events',
    ]);
    await p.waitForStdout((out) => out.includes('id: web'), 30_000);
    const stored = await state.get({ namespace: 'default', type: 'VMs.t', id: 'web' });
    await state.update({ ...stored, metadata: { ...stored.metadata, labels: { tier: 'db' } } });
    await state.create(vm('other', 1, { tier: 'web' }));
    const out = await p.waitForStdout((text) => text.includes('id: other'), 30_000);
    const events = [
      ...out.matchAll(/^type: (\w+)\nobject:\n {2}metadata:\n(?: {4}.*\n)*? {4}id: (\w+)/gm),
    ];
    expect(events.map((m) => [m[1], m[2]])).toEqual([
      ['ADDED', 'web'],
      ['DELETED', 'web'],
      ['ADDED', 'other'],
    ]);
    p.kill('SIGINT');
    expect(await exitWithin(p, 20_000)).toBe(0);
  }, 90_000);

  it('without -n: a namespace that gets its first resource after the watch started is watched too', async () => {
    await state.create(vm('first', 1));
    const p = start(['get', 'VMs.t', '--state', url(), '-w', '--output-watch-events']);
    await p.waitForStdout((out) => rowsOf(out, 'first').length === 1, 30_000);
    const later = newResource({ namespace: 'later-ns', type: 'VMs.t', id: 'later' }, { cpus: 1 });
    await state.create(later);
    await p.waitForStdout((out) => rowsOf(out, 'later').length === 1, 30_000);
    const stored = await state.get(later.metadata);
    await state.update({ ...stored, spec: { cpus: 2 } });
    const out = await p.waitForStdout((text) => rowsOf(text, 'later').length === 2, 30_000);
    expect(rowsOf(out, 'later').map((line) => line.split(/\s+/).slice(0, 5))).toEqual([
      ['ADDED', 'later-ns', 'VMs.t', 'later', '1'],
      ['MODIFIED', 'later-ns', 'VMs.t', 'later', '2'],
    ]);
    // -n names one namespace: another one's resources are not shown.
    const one = start(['get', 'VMs.t', '--state', url(), '-w', '-n', 'default']);
    await one.waitForStdout((text) => rowsOf(text, 'first').length === 1, 30_000);
    expect(rowsOf(one.stdout(), 'later')).toEqual([]);
    p.kill('SIGINT');
    one.kill('SIGINT');
    expect(await exitWithin(p, 20_000)).toBe(0);
    expect(await exitWithin(one, 20_000)).toBe(0);
  }, 90_000);
});
