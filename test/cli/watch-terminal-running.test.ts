/**
 * `cosi watch` in a real terminal while a round runs: tmux runs the built CLI on a copy of
 * fixtures/vm-network, the test edits a controller into a loop that never ends and reads the
 * screen with `tmux capture-pane` (bounded waits). The round before stays on screen; its header
 * says a round is running, and for how long, instead of looking settled. Needs `dist/` and tmux.
 */
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO } from './run-cli.js';
import { saveFile } from '../support/save-file.js';
import { screenWaiter, startWatchInTmux, tmuxServer } from '../support/tmux-watch.js';

const SOCKET = `cosi-watch-running-${process.pid}`;
const SESSION = 'watch';
const tmux = tmuxServer(SOCKET);
const waitForScreen = screenWaiter(tmux, SESSION, 30_000);

const header = (screen: string): string => screen.split('\n')[0] ?? '';
const secondsRunning = (screen: string): number | undefined => {
  const match = /\[round 2 running (\d+)s\]$/.exec(header(screen));
  return match ? Number(match[1]) : undefined;
};

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-running-'));
  await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
});
afterEach(async () => {
  await tmux('kill-server').catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

describe('cosi watch while a round runs', () => {
  it('says which round is running and counts its seconds, over the round before', async () => {
    const status = await startWatchInTmux(tmux, SESSION, REPO, dir);
    await waitForScreen((s) => header(s).includes('round 1'), 'the first round');
    const placement = path.join(dir, 'placement.ts');
    const source = await readFile(placement, 'utf8');
    const spinning = source.replace(
      "const hostId = vm.spec.host ?? '';",
      "if (vm.metadata.id === 'db-1') for (;;) { /* never yields */ }\n        const hostId = vm.spec.host ?? '';",
    );
    expect(spinning).not.toBe(source);
    let polls = 0;
    const first = await waitForScreen((s) => secondsRunning(s) !== undefined, 'round 2 running', {
      // The watcher may still be scanning when the first edit lands: write again, within the bound.
      meanwhile: async () => {
        if (polls++ % 10 === 0) await saveFile(placement, polls === 1 ? spinning : `${spinning}\n`);
      },
    });
    // The last round stays on screen, its verdict with it.
    expect(header(first)).toMatch(
      /^cosi watch {2}round 1 {2}started {2}converged \[round 2 running \d+s\]$/,
    );
    const since = secondsRunning(first) ?? 0;
    // The count goes on while the controller's loop holds the session's thread.
    await waitForScreen(
      (s) => (secondsRunning(s) ?? 0) >= since + 2,
      'the running round counted on',
      { timeout: 20_000 },
    );

    await tmux('send-keys', '-t', SESSION, 'q');
    let code = '';
    const deadline = Date.now() + 20_000;
    while (code === '' && Date.now() < deadline) {
      code = (await readFile(status, 'utf8').catch(() => '')).trim();
      if (code === '') await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(code).toBe('0');
  }, 120_000);
});
