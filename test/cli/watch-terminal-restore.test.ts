/**
 * `cosi watch` killed, or failing on its main thread, in a real terminal: tmux runs the built
 * CLI, the test sends the cosi process a signal and asks tmux whether the pane is back on the
 * normal screen with the cursor shown, as it is after `q`. Needs `dist/` (npm ci builds it) and
 * tmux.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { REPO } from './run-cli.js';
import { startWatchInTmux, tmuxServer } from '../support/tmux-watch.js';

/** A tmux server of this test's own, so nothing else's sessions are touched. */
const SOCKET = `cosi-watch-restore-${process.pid}`;
const SESSION = 'watch';

let dir: string;

const run = promisify(execFile);
const tmux = tmuxServer(SOCKET);
const pane = async (format: string): Promise<string> =>
  (await tmux('display-message', '-p', '-t', SESSION, format)).trim();

/** Polls `probe` until `ok` holds for its answer, within a bound; then returns the answer. */
async function waitFor<T>(
  probe: () => Promise<T>,
  ok: (value: T) => boolean,
  what: string,
  timeout = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeout;
  let value = await probe();
  while (!ok(value)) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${String(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
    value = await probe();
  }
  return value;
}

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cosi-watch-restore-'));
  await cp(path.join(REPO, 'fixtures/vm-network'), dir, { recursive: true });
});

afterEach(async () => {
  await tmux('kill-server').catch(() => undefined);
  await rm(dir, { recursive: true, force: true });
});

/**
 * Starts the watch in the pane (with `env`), waits for its first round on the alternate screen
 * and returns the cosi process's id and the file its exit status goes to.
 */
async function startWatch(
  env: Record<string, string> = {},
): Promise<{ cosi: number; statusFile: string }> {
  expect(existsSync(path.join(REPO, 'dist/cli/main.js')), 'run npm run build first').toBe(true);
  const statusFile = await startWatchInTmux(tmux, SESSION, REPO, dir, [], env);
  await waitFor(
    () => tmux('capture-pane', '-p', '-t', SESSION),
    (s) => s.includes('round 1'),
    'the first round',
  );
  expect(await pane('#{alternate_on}')).toBe('1');
  // The pane runs a shell, whose child is cosi (env execs node).
  const shell = await pane('#{pane_pid}');
  const cosi = (await run('ps', ['-o', 'pid=', '--ppid', shell])).stdout.trim();
  expect(cosi).toMatch(/^\d+$/);
  return { cosi: Number(cosi), statusFile };
}

/** Waits for the pane to be back on the normal screen with the cursor shown; returns the status. */
async function expectTerminalRestored(statusFile: string): Promise<string> {
  await waitFor(
    () => pane('#{alternate_on}'),
    (on) => on === '0',
    'the normal screen',
  );
  // The cursor is shown by the same write; tmux may apply it a moment after the screen.
  await waitFor(
    () => pane('#{cursor_flag}'),
    (flag) => flag === '1',
    'the cursor shown',
  );
  const status = await waitFor(
    () => readFile(statusFile, 'utf8').catch(() => ''),
    (text) => text !== '',
    'the exit status',
  );
  return status.trim();
}

describe('cosi watch in a terminal, killed', () => {
  it.each(['SIGTERM', 'SIGHUP'] as const)(
    'leaves the alternate screen and shows the cursor on %s',
    async (signal) => {
      const { cosi, statusFile } = await startWatch();

      process.kill(cosi, signal);

      // The process still ends as the signal ends it: 128 + the signal's number.
      expect(await expectTerminalRestored(statusFile)).toBe(signal === 'SIGTERM' ? '143' : '129');
    },
    60_000,
  );
});

describe('cosi watch in a terminal, on an uncaught error of its main thread', () => {
  it('leaves the alternate screen and shows the cursor, and the error lands on the normal screen', async () => {
    // The test hook of `uncaught-error-test-hook.ts`: SIGUSR2 makes the main thread throw.
    const { cosi, statusFile } = await startWatch({ COSI_TEST_UNCAUGHT_ON_SIGUSR2: '1' });

    process.kill(cosi, 'SIGUSR2');

    // Node's exit code for an uncaught exception.
    expect(await expectTerminalRestored(statusFile)).toBe('1');
    // Printed before the process ended; tmux may draw it a moment after.
    const screen = await waitFor(
      () => tmux('capture-pane', '-p', '-t', SESSION),
      (text) => text.includes('Error: an uncaught error on the main thread'),
      'the error on the normal screen',
    );
    // The shell's screen, not the view's last frame: the rounds were drawn on the other one.
    expect(screen).not.toContain('round 1');
  }, 60_000);
});

describe('cosi watch in a terminal, on a start-up error', () => {
  it('leaves the alternate screen and the error stays on the normal screen, exit 2', async () => {
    await writeFile(
      path.join(dir, 'cosi.config.ts'),
      "throw new Error('settings.json is missing');\n",
    );
    const statusFile = await startWatchInTmux(tmux, SESSION, REPO, dir);

    expect(await expectTerminalRestored(statusFile)).toBe('2');
    // Written while the view was up, it was wiped with it: now it is written after.
    const screen = await waitFor(
      () => tmux('capture-pane', '-p', '-t', SESSION),
      (text) => text.includes('settings.json is missing'),
      'the error on the normal screen',
    );
    expect(screen).toMatch(/cosi\.config\.ts.*settings\.json is missing/);
  }, 60_000);
});

const ESC = '\u001b';

describe('cosi watch in a terminal, with NO_COLOR', () => {
  it('draws its screen without color, as apply prints without it', async () => {
    // The first round converges: its header says so in green where color is on.
    const colored = await startWatch();
    const withColor = await tmux('capture-pane', '-p', '-e', '-t', SESSION);
    expect(withColor).toMatch(new RegExp(`${ESC}\\[(?:3[0-7]|9[0-7])m`, 'u'));
    process.kill(colored.cosi, 'SIGTERM');
    await expectTerminalRestored(colored.statusFile);
    await tmux('kill-server');

    await startWatch({ NO_COLOR: '1' });
    const screen = await tmux('capture-pane', '-p', '-e', '-t', SESSION);
    expect(screen).toContain('converged');
    expect(screen).not.toMatch(
      new RegExp(`${ESC}\\[(?:[0-9;]*;)?(?:3[0-7]|9[0-7]|38;[0-9;]+)m`, 'u'),
    );
  }, 60_000);

  it('still shows the selected row, in reverse video, and the arrows move it', async () => {
    await startWatch({ NO_COLOR: '1' });
    /** The lines of the screen drawn in reverse video (tmux writes the attribute as SGR 7). */
    const reversed = async (): Promise<string[]> =>
      (await tmux('capture-pane', '-p', '-e', '-t', SESSION))
        .split('\n')
        .filter((line) => new RegExp(`${ESC}\\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m`, 'u').test(line));
    // eslint-disable-next-line no-control-regex
    const plain = (lines: string[]) => lines.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''));
    const first = plain(await reversed());
    expect(first).toHaveLength(1);
    expect(first[0]).toMatch(/^\+ default +node-a +1 +HostStatusController/);
    await tmux('send-keys', '-t', SESSION, 'Down');
    const moved = await waitFor(
      async () => plain(await reversed()),
      (lines) => lines.length === 1 && /node-b/.test(lines[0] ?? ''),
      'the selection on the next row',
    );
    expect(moved[0]).toMatch(/^\+ default +node-b +1 +HostStatusController/);
  }, 60_000);
});

describe('cosi watch in a dumb terminal', () => {
  it('prints the line stream instead of drawing a screen it cannot, and q still quits', async () => {
    const statusFile = await startWatchInTmux(tmux, SESSION, REPO, dir, [], { TERM: 'dumb' });
    const screen = await waitFor(
      () => tmux('capture-pane', '-p', '-t', SESSION),
      (s) => s.includes('round 1'),
      'the first round',
    );
    expect(screen).toMatch(/^round 1: started \| converged \| 13 created/m);
    expect(await pane('#{alternate_on}')).toBe('0');
    await tmux('send-keys', '-t', SESSION, 'q');
    const status = await waitFor(
      () => readFile(statusFile, 'utf8').catch(() => ''),
      (text) => text !== '',
      'the exit status',
    );
    expect(status.trim()).toBe('0');
  }, 60_000);
});
