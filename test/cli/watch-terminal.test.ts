/**
 * `cosi watch` in a real terminal: tmux runs the built CLI on a copy of a fixture, the test edits a
 * file, types keys and reads the screen with `tmux capture-pane`. Needs `dist/` (npm ci builds it)
 * and tmux (.ci/run installs it).
 */
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO } from './run-cli.js';
import { saveFile } from '../support/save-file.js';
import { screenWaiter, startWatchInTmux, tmuxServer } from '../support/tmux-watch.js';

/** A tmux server of this test's own, so nothing else's sessions are touched. */
const SOCKET = `cosi-watch-e2e-${process.pid}`;
const SESSION = 'watch';

let dir: string;

const tmux = tmuxServer(SOCKET);

const waitForScreen = screenWaiter(tmux, SESSION, 20_000);

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-e2e-'));
  await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
});

afterEach(async () => {
  await tmux('kill-server').catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('cosi watch in a terminal', () => {
  it('draws at 80 by 24 on a terminal that reports no size (0 by 0), not a character a line', async () => {
    await startWatchInTmux(tmux, SESSION, REPO, dir, ['--stable'], {}, 'stty cols 0 rows 0; ');
    const screen = await waitForScreen((s) => s.includes('round 1'), 'the first round');
    expect(screen.split('\n')[0]).toBe('cosi watch  round 1  started  converged');
    // Rows cut at the 80 columns it draws at, the owner narrowed first so the spec shows.
    expect(screen).toMatch(/^\+ default +node-a +1 +HostStatusC… +running +4 +4 +.*…$/m);
    expect(Math.max(...screen.split('\n').map((line) => line.length))).toBeLessThanOrEqual(80);
  });

  it('redraws after an edit, filters with /, opens a resource with Enter and quits with q', async () => {
    expect(existsSync(path.join(REPO, 'dist/cli/main.js')), 'run npm run build first').toBe(true);
    const statusFile = await startWatchInTmux(tmux, SESSION, REPO, dir);

    const first = await waitForScreen((s) => s.includes('round 1'), 'the first round');
    expect(first.split('\n')[0]).toBe('cosi watch  round 1  started  converged');
    expect(first).toMatch(/^\+ default +db-1 +3 .* postgres +node-b$/m);
    expect(first).toMatch(/^q quit {2}\/ filter/m);

    const vms = path.join(dir, 'vms.yaml');
    const original = await readFile(vms, 'utf8');
    const edited = original.replace('image: postgres', 'image: mariadb');
    let edits = 0;
    const second = await waitForScreen((s) => s.includes('round 2'), 'the round of the edit', {
      // The watcher may still be scanning when the first edit lands: write again, within the bound.
      meanwhile: async () => {
        if (edits++ % 10 === 0) await saveFile(vms, edits === 1 ? edited : `${edited}\n`);
      },
    });
    expect(second.split('\n')[0]).toBe('cosi watch  round 2  vms.yaml changed  converged');
    expect(second).toMatch(/^~ default +db-1 +4 .* mariadb +node-b$/m);
    expect(second).toMatch(/^~ default +db-1 +2 +vmnet\.NetworkConfigController .* br-mariadb$/m);
    expect(second).toMatch(/^ {2}default +web-1 +3 /m);

    await tmux('send-keys', '-t', SESSION, '/');
    await waitForScreen((s) => s.includes('type, id or label=value'), 'the filter prompt');
    // Ctrl-U clears what was typed, as at a shell's prompt: it is no letter `u`.
    await tmux('send-keys', '-t', SESSION, '-l', 'web');
    await waitForScreen((s) => /^\/web/m.test(s) && !/db-1/.test(s), 'the list filtered by web');
    await tmux('send-keys', '-t', SESSION, 'C-u');
    await waitForScreen(
      (s) => s.includes('type, id or label=value') && /db-1/.test(s),
      'the filter cleared by Ctrl-U',
    );
    await tmux('send-keys', '-t', SESSION, '-l', 'db-1');
    await waitForScreen((s) => !/web-1/.test(s), 'the filtered list');
    await tmux('send-keys', '-t', SESSION, 'Enter');
    await waitForScreen((s) => s.includes('/db-1') && /^q quit/m.test(s), 'the filter kept');
    await tmux('send-keys', '-t', SESSION, 'Enter');
    const detail = await waitForScreen(
      (s) => s.includes('NetworkConfig default/db-1'),
      'the resource detail',
    );
    expect(detail).toContain('written by vmnet.NetworkConfigController');
    // The lineage and the writes come from the run's record, which the worker thread holds.
    expect(detail).not.toMatch(/not recorded|none recorded/);
    expect(detail).toMatch(/^ {2}- {3}bridge: br-postgres$/m);
    expect(detail).toMatch(/^ {2}\+ {3}bridge: br-mariadb$/m);

    await tmux('send-keys', '-t', SESSION, 'q');
    // The quit stops the session's worker first: bounded for a loaded machine.
    const deadline = Date.now() + 30_000;
    let status = '';
    while (Date.now() < deadline) {
      status = await readFile(statusFile, 'utf8').catch(() => '');
      if (status !== '') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status.trim()).toBe('0');
  }, 180_000);
});
