import { hostname } from 'node:os';
import * as path from 'node:path';
import { defineRun } from './run-definition.js';
import {
  createEtcdLeaderElection,
  type EtcdLeaderElection,
} from '../../state-etcd/leader-election.js';
import { openState, type OpenedState } from '../../app/open-state.js';
import { serveProject, type ApplyCounts, type ServedProject } from '../../app/serve-project.js';
import {
  formatStateLocation,
  parseStateUrl,
  StateUrlError,
  type StateLocation,
} from '../../app/state-url.js';
import { toError } from '../../engine/errors.js';
import type { Finding } from '../../loaders/finding.js';
import { ETCD_MAX_REQUEST_BYTES } from '../../state-etcd/etcd-state.js';
import { ConfigError } from '../../loaders/load-config.js';
import { renderedAlready, type CliCommand, type CommandResult } from '../command.js';
import { parseDuration } from '../duration.js';
import { parseRequestTimeout } from '../state-option.js';
import { CliError, EXIT, type ExitCode } from '../exit-codes.js';
import { useColor, type CliIo } from '../io.js';
import { formatLog } from '../render/logs.js';
import { createColors, renderFindings } from '../render/report.js';
import { watchWithChokidar, type FileWatcher, type WatchFiles } from '../watch/file-watcher.js';

export interface RunFlags {
  file?: string[];
  ignore?: string[];
  config?: string;
  state: string;
  watch?: boolean;
  leaseTtl: string;
  requestTimeout?: string;
  color?: boolean;
  verbose?: boolean;
}

/** The name processes serving one state elect their leader under. */
export const ELECTION_NAME = 'cosi-run';

/** `cosi run -f DIR --state URL`: a long-lived runtime on a (shared) state. */
export const runCommand: CliCommand<[string[], RunFlags]> = {
  define: defineRun,
  run: (io, paths, flags) => runRuntime(io, paths, flags),
  // Long-running: it renders as it goes (rounds, leadership, logs) and has no data at the end.
  render: renderedAlready,
};

/** The lease TTL in whole seconds, as etcd takes it. */
export function parseLeaseTtl(text: string): number {
  const ms = parseDuration(text, '--lease-ttl');
  if (ms < 1000 || ms % 1000 !== 0) {
    throw new CliError(`--lease-ttl: whole seconds, at least 1s, got ${JSON.stringify(text)}`);
  }
  return ms / 1000;
}

type Ending =
  | { readonly kind: 'signal'; readonly signal: string }
  | { readonly kind: 'lost'; readonly error: Error }
  | { readonly kind: 'failed'; readonly error: Error };

/** Runs until a signal, a lost leadership or a failed start of the leader's controllers. */
export async function runRuntime(
  io: CliIo,
  paths: string[],
  flags: RunFlags,
  watchFiles: WatchFiles = watchWithChokidar,
): Promise<CommandResult> {
  const files = [...(flags.file ?? []), ...paths];
  if (files.length === 0) throw new CliError('no manifests given: pass -f <path>');
  if (files.includes('-')) throw new CliError('run reads files: -f - is for one-shot commands');
  const location = stateLocation(flags.state);
  const ttl = parseLeaseTtl(flags.leaseTtl);
  const requestTimeout = parseRequestTimeout(flags.requestTimeout ?? '5s');
  const { onInterrupt } = io;
  if (onInterrupt === undefined) {
    throw new CliError('run serves until interrupted, and this process cannot be');
  }
  const colors = createColors(useColor(io, flags.color));
  const say = (line: string): void => void io.stderr.write(`cosi run: ${line}\n`);
  const identity = `${hostname()}/${process.pid}`;

  let end!: (ending: Ending) => void;
  const ended = new Promise<Ending>((resolve) => (end = resolve));
  const unsubscribe = [
    onInterrupt(() => end({ kind: 'signal', signal: 'SIGINT' }), { keys: false }),
    io.onTerminate?.(() => end({ kind: 'signal', signal: 'SIGTERM' })) ?? (() => undefined),
  ];

  let opened: OpenedState | undefined;
  let election: EtcdLeaderElection | undefined;
  let served: ServedProject | undefined;
  let watcher: FileWatcher | undefined;
  try {
    opened = openState(location, { requestTimeout });
    if (location.kind === 'etcd') {
      election = createEtcdLeaderElection({
        endpoint: location.endpoint,
        prefix: location.prefix,
        name: ELECTION_NAME,
        ttl,
        identity,
        requestTimeout,
        onLost: (error) => end({ kind: 'lost', error }),
      });
    }
    const leaderElection = election;
    const starting = serveProject({
      files,
      cwd: io.cwd,
      state: opened.state,
      identity,
      ...(leaderElection
        ? { elect: (signal, fingerprint) => leaderElection.elect(signal, fingerprint) }
        : {}),
      ...(flags.config !== undefined ? { config: flags.config } : {}),
      ...(flags.ignore !== undefined ? { ignore: flags.ignore } : {}),
      ...(location.kind === 'etcd' ? { maxRequestBytes: ETCD_MAX_REQUEST_BYTES } : {}),
      ...(flags.verbose ? { onLog: (record) => io.stderr.write(formatLog(record)) } : {}),
    }).catch((error: unknown) => {
      if (error instanceof ConfigError) throw error;
      // The state is unreachable or refused the manifests: said in one line, not a stack.
      throw new CliError(
        `could not start on ${formatStateLocation(location)}: ${toError(error).message}`,
        EXIT.findings,
      );
    });
    // A signal while starting (etcd slow or silent) ends the start: nothing waits for it.
    const start = await Promise.race([starting, ended]);
    if ('kind' in start) {
      say(`shutting down (${describeEnding(start)}) before it started`);
      // A start that still completes is stopped; one that fails has nothing to stop.
      starting.then(
        (late) => ('project' in late ? late.stop() : undefined),
        () => undefined,
      );
      return { exitCode: exitCodeOf(start), result: undefined };
    }
    if (!('project' in start)) {
      io.stderr.write(renderFindings(start.findings, colors));
      say('not started: the manifests have errors');
      return { exitCode: EXIT.findings, result: undefined };
    }
    served = start;
    const project = served.project;
    say(
      `started as ${identity} on ${formatStateLocation(location)}` +
        (location.kind === 'etcd' ? ` (lease TTL ${ttl}s)` : ''),
    );
    say(describeApply(served.applied));
    sayTooLarge(io, served.skipped, say, colors);
    served.elected.then(
      () =>
        say(
          `${election ? 'elected leader' : 'leading'}: running ${project.runtime.controllerNames().length} controllers`,
        ),
      (error: unknown) => end({ kind: 'failed', error: toError(error) }),
    );
    if (flags.watch) {
      watcher = watchManifests(io, files, watchFiles, served, (line) => say(line), colors);
    }
    const ending = await ended;
    say(`shutting down (${describeEnding(ending)})`);
    if (ending.kind === 'failed' && ending.error instanceof ConfigError) {
      io.stderr.write(`cosi: ${ending.error.message}\n`);
      return { exitCode: EXIT.usage, result: undefined };
    }
    return { exitCode: exitCodeOf(ending), result: undefined };
  } finally {
    for (const off of unsubscribe) off();
    // Every etcd request has a deadline, but a stop is many of them: the whole shutdown is
    // bounded too, and what is left of it is cut off by closing the connections.
    const shutdown = (async () => {
      await watcher?.close();
      await served?.stop();
    })();
    const stoppedInTime = await Promise.race([
      shutdown.then(
        () => true,
        (error: unknown) => {
          say(`stopping failed: ${toError(error).message}`);
          return true;
        },
      ),
      new Promise<false>((resolve) => setTimeout(resolve, requestTimeout, false).unref()),
    ]);
    if (!stoppedInTime) say(`the controllers did not stop within ${requestTimeout} ms`);
    await election?.close();
    await opened?.close();
    if (served) say('stopped');
  }
}

function exitCodeOf(ending: Ending): ExitCode {
  return ending.kind === 'signal' ? EXIT.ok : EXIT.findings;
}

function describeEnding(ending: Ending): string {
  switch (ending.kind) {
    case 'signal':
      return ending.signal;
    case 'lost':
      return `lost leadership: ${ending.error.message}`;
    case 'failed':
      return `could not lead: ${ending.error.message}`;
  }
}

function describeApply(applied: ApplyCounts): string {
  return `applied ${applied.resources} resources (${applied.created} created, ${applied.updated} updated, ${applied.removed} removed)`;
}

/** The resources an apply left out (too large for the state): their findings, and a line. */
function sayTooLarge(
  io: CliIo,
  skipped: readonly Finding[],
  say: (line: string) => void,
  colors: ReturnType<typeof createColors>,
): void {
  if (skipped.length === 0) return;
  io.stderr.write(renderFindings(skipped, colors));
  say(`${skipped.length} resources not applied: too large for the state (the others were)`);
}

function stateLocation(url: string): StateLocation {
  try {
    return parseStateUrl(url);
  } catch (error) {
    if (error instanceof StateUrlError) throw new CliError(`--state: ${error.message}`);
    throw error;
  }
}

/** Backoff of an apply that failed (the state unreachable): from 500 ms, doubled, up to 5 s. */
const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 5_000;

/**
 * Applies the manifests again after file changes: changes within 100 ms are one apply, and
 * applies never overlap. Manifests with errors are shown and not applied (the last good ones keep
 * running); an apply that fails (the state unreachable) is said and retried with backoff.
 */
function watchManifests(
  io: CliIo,
  files: readonly string[],
  watchFiles: WatchFiles,
  served: ServedProject,
  say: (line: string) => void,
  colors: ReturnType<typeof createColors>,
): FileWatcher {
  let timer: NodeJS.Timeout | undefined;
  let chain = Promise.resolve();
  let closed = false;
  /** The wait before retrying a failed apply: doubled on each failure, reset by a success. */
  let retryDelay = RETRY_FIRST_MS;
  const schedule = (ms: number): void => {
    clearTimeout(timer);
    if (closed) return;
    timer = setTimeout(() => {
      chain = chain.then(reapply);
    }, ms);
  };
  const reapply = async (): Promise<void> => {
    if (closed) return;
    try {
      const result = await served.reapply();
      retryDelay = RETRY_FIRST_MS;
      if ('findings' in result) {
        io.stderr.write(renderFindings(result.findings, colors));
        say('not applied: the manifests have errors (the last good ones keep running)');
      } else {
        say(describeApply(result.applied));
        sayTooLarge(io, result.skipped, say, colors);
      }
    } catch (error) {
      // The state was unreachable (etcd restarting): the files did not change, so nothing else
      // would apply them again. Retried with backoff until it goes through or a new edit comes.
      say(`apply failed: ${toError(error).message} (retrying in ${retryDelay} ms)`);
      schedule(retryDelay);
      retryDelay = Math.min(retryDelay * 2, RETRY_MAX_MS);
    }
  };
  const watcher = watchFiles(
    files.map((f) => path.resolve(io.cwd, f)),
    () => schedule(100),
  );
  return {
    close: async () => {
      closed = true;
      clearTimeout(timer);
      await watcher.close();
      await chain;
    },
  };
}
