import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

/**
 * The keeper of a tethered process, run as `node -e KEEPER CLEANUP NODE_ARGS...`: it runs
 * `node NODE_ARGS...` in a process group of its own, passes its output and exit code on, and when
 * its standard input ends (cosi closed it, or cosi is gone: killed by a signal, even SIGKILL, the
 * pipe closes with it) kills that group and removes `CLEANUP`. Signals themselves it ignores: a
 * Ctrl-C reaches every process of the terminal's group, and the keeper must outlive cosi to clean
 * up after it. Plain JavaScript, run as it is: no file of cosi's is loaded.
 */
const KEEPER = `
const { spawn } = require('node:child_process');
const { rmSync } = require('node:fs');
const [cleanup, ...args] = process.argv.slice(1);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => {});
const child = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit'], detached: true });
let stopped = false;
const stop = () => {
  if (stopped) return;
  stopped = true;
  try { process.kill(-child.pid, 'SIGKILL'); } catch { child.kill('SIGKILL'); }
  if (cleanup !== '') rmSync(cleanup, { recursive: true, force: true });
  process.exit(1);
};
process.stdin.on('end', stop);
process.stdin.on('error', stop);
process.stdin.resume();
child.on('error', (error) => { process.stderr.write(error.message + '\\n'); process.exit(1); });
child.on('exit', (code) => process.exit(code ?? 1));
`;

/** What to run tethered: a Node script with its arguments, where, and what to remove if cosi dies. */
export interface TetheredCommand {
  /** `node`'s arguments: the script, then its own. */
  readonly args: readonly string[];
  readonly cwd: string;
  /** A file or directory to remove when cosi ends before the process does. */
  readonly cleanup?: string;
}

/** A tethered process: its output, and `stop()` to end it (and the process group it leads). */
export interface TetheredProcess {
  readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  readonly stop: () => void;
}

/**
 * Runs a Node script (the project's `tsc`) that ends with cosi: a SIGTERM, a Ctrl-C or a kill of
 * cosi ends it too, and removes what was written for it, where a plain child would be left
 * running, adopted by init, and its file left in the user's repository.
 */
export function spawnTethered(command: TetheredCommand): TetheredProcess {
  const child = spawn(process.execPath, ['-e', KEEPER, command.cleanup ?? '', ...command.args], {
    cwd: command.cwd,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // The keeper gone already: its exit says why, not a write error.
  child.stdin.on('error', () => {});
  return { child, stop: () => child.stdin.end() };
}
