import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { waitFor } from './wait-for.js';

const REPO = path.resolve(import.meta.dirname, '../..');

/** A real `node bin/cosi.js ...` process (the built CLI: `dist/` must be current). */
export interface CosiProcess {
  readonly pid: number;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Everything it wrote to stdout so far (empty unless spawned with `stdout: true`). */
  stdout(): string;
  /**
   * Waits (bounded) until `condition` (on this process: its output, an endpoint it serves) returns
   * something truthy, and returns that. Fails at once if the process exits first, with its exit
   * code (or signal) and the tail of its stdout and stderr; `what` names what was awaited.
   */
  waitUntil<T>(
    condition: () => T | Promise<T>,
    timeoutMs: number,
    what: string,
  ): Promise<NonNullable<T>>;
  /** Waits (bounded) until stdout satisfies `condition`; returns stdout then. As `waitUntil`. */
  waitForStdout(condition: (stdout: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Waits (bounded) until stderr has a line matching `pattern`; returns that line. As `waitUntil`. */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /**
   * Resolves with the exit code (or the signal that ended it) once the process has exited and its
   * output has been read to the end: what it wrote last is in `stderr()` and `stdout()` then.
   */
  readonly exited: Promise<number | NodeJS.Signals>;
  kill(signal: NodeJS.Signals): void;
}

/**
 * Spawns the CLI with `args` from `cwd`; its stdout is kept with `stdout: true`; `env` is set in
 * its environment beside the test's own.
 */
export function spawnCosi(
  args: readonly string[],
  cwd: string = REPO,
  options: { readonly stdout?: boolean; readonly env?: Readonly<Record<string, string>> } = {},
): CosiProcess {
  const child: ChildProcess = spawn(process.execPath, [path.join(REPO, 'bin/cosi.js'), ...args], {
    cwd,
    stdio: ['ignore', options.stdout === true ? 'pipe' : 'ignore', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...options.env },
  });
  let stderr = '';
  let stdout = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr += chunk));
  child.stdout?.setEncoding('utf8');
  child.stdout?.on('data', (chunk: string) => (stdout += chunk));
  // 'close', not 'exit': node emits 'exit' before it may have read the last of the output pipes,
  // so a test that reads stderr at the exit could miss the last lines (a shutdown message).
  let end: number | NodeJS.Signals | undefined;
  const exited = new Promise<number | NodeJS.Signals>((resolve) =>
    child.once('close', (code, signal) => {
      end = code ?? signal ?? -1;
      resolve(end);
    }),
  );
  const command = `cosi ${args[0] ?? ''}`;
  const output = (): string =>
    `stdout ${options.stdout === true ? tailOf(stdout) : '(not kept)'}\nstderr ${tailOf(stderr)}`;
  // Once it has exited (and its output has been read to the end), nothing more can come.
  const hopeless = (): string | undefined =>
    end === undefined
      ? undefined
      : `${command} ${typeof end === 'number' ? `exited with code ${String(end)}` : `was killed by ${end}`}`;
  const waitUntil = <T>(
    condition: () => T | Promise<T>,
    timeoutMs: number,
    what: string,
  ): Promise<NonNullable<T>> =>
    waitFor(condition, timeoutMs, () => `${what}; so far:\n${output()}\n`, hopeless);
  return {
    pid: child.pid ?? -1,
    stderr: () => stderr,
    stdout: () => stdout,
    waitUntil,
    waitForStdout: (condition, timeoutMs = 30_000) =>
      waitUntil(
        () => (condition(stdout) ? stdout : undefined),
        timeoutMs,
        `stdout of ${command} to satisfy the condition`,
      ),
    waitForLine: (pattern, timeoutMs = 30_000) =>
      waitUntil(
        () => stderr.split('\n').find((line) => pattern.test(line)),
        timeoutMs,
        `a line matching ${String(pattern)} from ${command}`,
      ),
    exited,
    kill: (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    },
  };
}

const TAIL_LINES = 40;

/** The last lines of a process's output, headed by how much of it that is, for a failure message. */
function tailOf(text: string): string {
  if (text === '') return '(empty)';
  const lines = text.replace(/\n$/, '').split('\n');
  if (lines.length <= TAIL_LINES) return `(all):\n${lines.join('\n')}`;
  return `(last ${String(TAIL_LINES)} of ${String(lines.length)} lines):\n${lines.slice(-TAIL_LINES).join('\n')}`;
}

/** What a finished `cosi` process wrote and its exit code (or the signal that ended it). */
export interface CosiRun {
  readonly code: number | NodeJS.Signals;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node bin/cosi.js ...args` from `cwd` to its end, killed (SIGKILL) after `timeoutMs` so a
 * hang fails the test instead of stalling it. For faults that are a process's: a project's
 * `process.exit`, a controller that never returns.
 */
export function runCosi(
  args: readonly string[],
  cwd: string,
  timeoutMs = 60_000,
  /** Set in its environment, beside the test's own. */
  env: Readonly<Record<string, string>> = {},
): Promise<CosiRun> {
  const child = spawn(process.execPath, [path.join(REPO, 'bin/cosi.js'), ...args], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NO_COLOR: '1', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  return new Promise((resolve) =>
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code: code ?? signal ?? -1, stdout, stderr });
    }),
  );
}

/** The exit code, or a failure once `ms` have passed (the process is then killed). */
export async function exitWithin(p: CosiProcess, ms: number): Promise<number | NodeJS.Signals> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      p.kill('SIGKILL');
      reject(new Error(`still running after ${ms} ms; stderr:\n${p.stderr()}`));
    }, ms);
  });
  try {
    return await Promise.race([p.exited, late]);
  } finally {
    clearTimeout(timer);
  }
}
