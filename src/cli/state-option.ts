import { Option } from 'commander';
import type { StateView } from '../app/state-view.js';
import type { State } from '../engine/state/state.js';
import type { EtcdState } from '../state-etcd/etcd-state.js';
import { MAX_WAIT_MS, parseDuration } from './duration.js';
import { CliError, EXIT } from './exit-codes.js';

/** `--state URL` of the commands that can read a running system instead of running a project. */
export function stateOption(): Option {
  return new Option(
    '--state <url>',
    'read a running system (etcd://HOST:PORT[/prefix], as cosi run serves it) instead of running the project',
  );
}

/** `--request-timeout`, beside `--state`: how long a request waits for etcd's answer. */
export function requestTimeoutOption(): Option {
  return new Option(
    '--request-timeout <duration>',
    'how long a request to etcd may wait for its answer (as etcdctl --command-timeout; at most 24h)',
  ).default('5s');
}

/** The `--request-timeout` value in ms, at least 1 ms, at most {@link MAX_WAIT_MS}. */
export function parseRequestTimeout(text: string): number {
  const ms = parseDuration(text, '--request-timeout', MAX_WAIT_MS);
  if (ms < 1) throw new CliError(`--request-timeout: at least 1ms, got ${JSON.stringify(text)}`);
  return ms;
}

/** A state a `--state` flag names, open, and what it held when it was read. */
export interface OpenedStateView {
  readonly view: StateView;
  readonly state: State;
  /** The URL, for messages. */
  readonly where: string;
  /** The same state, when it is on etcd: to hear of its watches' connection. */
  readonly etcd?: EtcdState;
  close(): Promise<void>;
}

/**
 * The state a `--state` flag names, read once; `undefined` when there is none to read (no flag,
 * or `memory`: a fresh in-memory state is what a run of the project makes anyway).
 *
 * Kinds that cannot be read (a corrupt value) are left out and said on `stderr`, one line each.
 *
 * @throws CliError (exit 2, as `diff` and `run`): a bad URL, an etcd that cannot be reached (one
 * plain line, see `EtcdUnreachableError`), a state that cannot be read.
 */
export async function readStateFlag(
  url: string | undefined,
  requestTimeout = '5s',
  stderr?: { write(text: string): unknown },
): Promise<StateView | undefined> {
  const opened = await openStateFlag(url, requestTimeout, stderr);
  await opened?.close();
  return opened?.view;
}

/**
 * {@link readStateFlag}, keeping the state open for what comes next (`get -w` watches it); the
 * caller closes it.
 */
export async function openStateFlag(
  url: string | undefined,
  requestTimeout = '5s',
  stderr?: { write(text: string): unknown },
  options: {
    /** gRPC keep-alive pings on etcd, ms apart: a watch that hears of a dead connection. */
    readonly keepAlive?: number;
  } = {},
): Promise<OpenedStateView | undefined> {
  if (url === undefined) return undefined;
  // The state's modules (the etcd client among them) are loaded only when a state is read: the
  // options above are defined on every start.
  const [{ openState }, { readStateView }, { formatStateLocation, parseStateUrl, StateUrlError }] =
    await Promise.all([
      import('../app/open-state.js'),
      import('../app/state-view.js'),
      import('../app/state-url.js'),
    ]);
  const [{ toError }, { escapeControl }, { EtcdUnreachableError }] = await Promise.all([
    import('../engine/errors.js'),
    import('./render/escape-control.js'),
    import('../state-etcd/etcd-errors.js'),
  ]);
  let location;
  try {
    location = parseStateUrl(url);
  } catch (error) {
    if (error instanceof StateUrlError) throw new CliError(`--state: ${error.message}`);
    throw error;
  }
  if (location.kind === 'memory') return undefined;
  const timeout = parseRequestTimeout(requestTimeout);
  const opened = openState(location, {
    requestTimeout: timeout,
    ...(options.keepAlive === undefined ? {} : { keepAlive: options.keepAlive }),
  });
  const where = formatStateLocation(location);
  try {
    // One cheap question first: an etcd that is not there is said as such, in one line.
    await opened.etcd?.probe(timeout, '--request-timeout');
    const view = await readStateView(opened.state);
    for (const { kind, error } of view.unreadable) {
      stderr?.write(
        `cosi: --state ${where}: ${escapeControl(kind.type)} in ${escapeControl(kind.namespace)} left out: ${escapeControl(error.message)}\n`,
      );
    }
    const { resources, definitions } = view.snapshot;
    if (resources.length === 0 && definitions.length === 0 && view.unreadable.length === 0) {
      // A mistyped prefix reads as an empty state: say so before "type not registered".
      stderr?.write(
        `cosi: --state ${where} holds nothing cosi wrote: is the prefix the one \`cosi run --state\` was given?\n`,
      );
    }
    return {
      view,
      state: opened.state,
      where,
      close: () => opened.close(),
      ...(opened.etcd ? { etcd: opened.etcd } : {}),
    };
  } catch (error) {
    await opened.close();
    if (error instanceof EtcdUnreachableError) throw new CliError(error.message, EXIT.usage);
    throw new CliError(
      `--state ${where}: could not read it: ${toError(error).message}`,
      EXIT.usage,
    );
  }
}
