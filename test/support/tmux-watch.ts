import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A tmux server of a test's own (its own socket), so nothing else's sessions are touched. After
 * a `kill-server` the next command starts a server on a new socket: `kill-server` returns before
 * the old server has gone, and a session started on its socket meanwhile failed with "server
 * exited unexpectedly".
 */
export function tmuxServer(socket: string): (...args: string[]) => Promise<string> {
  let generation = 0;
  return async (...args) => {
    const name = `${socket}-${generation}`;
    if (args[0] === 'kill-server') generation++;
    return (await run('tmux', ['-L', name, ...args])).stdout;
  };
}

/**
 * Starts the built `cosi watch -f .` in `dir`, in a detached 120x40 tmux session that stays
 * after it exits; returns the file its exit status is written to. ink draws only a last frame
 * where it believes it runs in CI: this is a terminal, so CI is unset. The status goes to a file
 * because tmux reports a pane's status only once it has reaped the process, which can come after
 * it reports the pane dead. The pane's shell then sleeps instead of ending: tmux marks a dead
 * pane by writing to its screen and hiding its cursor, which would race a test that reads the
 * screen and cursor cosi left behind.
 */
export async function startWatchInTmux(
  tmux: (...args: string[]) => Promise<string>,
  session: string,
  repo: string,
  dir: string,
  /** More arguments of `cosi watch` (`--timeout 1s`). */
  args: readonly string[] = [],
  /** More environment variables of cosi's (a test hook's). */
  env: Readonly<Record<string, string>> = {},
  /** Shell commands run before cosi, in its terminal (`stty cols 0 rows 0; `). */
  before = '',
): Promise<string> {
  const statusFile = path.join(dir, '.exit-status');
  const more = args.map((a) => ` ${JSON.stringify(a)}`).join('');
  const vars = Object.entries(env)
    .map(([name, value]) => ` ${name}=${JSON.stringify(value)}`)
    .join('');
  const command = `${before}env -u CI${vars} node ${JSON.stringify(path.join(repo, 'bin/cosi.js'))} watch -f .${more}; echo $? > ${JSON.stringify(statusFile)}; exec sleep 3600`;
  await tmux(
    '-f',
    '/dev/null',
    'new-session',
    '-d',
    '-s',
    session,
    '-x',
    '120',
    '-y',
    '40',
    '-c',
    dir,
    command,
    ';',
    'set-option',
    '-t',
    session,
    'remain-on-exit',
    'on',
  );
  return statusFile;
}

/**
 * `waitForScreen(ok, what)`: polls `session`'s screen until `ok` holds for it, within a bound
 * (`timeout`, by default `defaultTimeout` ms), running `meanwhile` between looks; returns it.
 */
export function screenWaiter(
  tmux: (...args: string[]) => Promise<string>,
  session: string,
  defaultTimeout: number,
): (
  ok: (text: string) => boolean,
  what: string,
  options?: { timeout?: number; meanwhile?: () => Promise<void> },
) => Promise<string> {
  return async (ok, what, options = {}) => {
    const deadline = Date.now() + (options.timeout ?? defaultTimeout);
    let text = '';
    while (Date.now() < deadline) {
      text = await tmux('capture-pane', '-p', '-t', session);
      if (ok(text)) return text;
      await options.meanwhile?.();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`timed out waiting for ${what}; the screen was:\n${text}`);
  };
}
