import { formatDuration } from '../../app/format-duration.js';
import { parseDurationText } from '../../app/parse-duration.js';
import { parseStateUrl, StateUrlError, type StateLocation } from '../../app/state-url.js';
import { USER_CODE_WAIT } from '../../app/user-code-deadline.js';
import { MAX_WAIT_MS, parseDuration } from '../duration.js';
import { CliError } from '../exit-codes.js';
import { toLoadingOptions, type LoadingFlags, type LoadingOptions } from '../loading-options.js';
import { parseRequestTimeout } from '../state-option.js';
import { LOG_FORMATS, type LogFormat } from './run-log.js';

/**
 * What `cosi run` is asked, checked before anything starts: its flags, parsed, and every usage
 * error said as one.
 */

/** `cosi run`'s flags, as commander gives them. */
export interface RunFlags extends LoadingFlags {
  file?: string[];
  state: string;
  watch?: boolean;
  leaseTtl?: string;
  requestTimeout?: string;
  connectTimeout?: string;
  logFormat?: string;
  metricsAddr?: string;
  healthAddr?: string;
  timeout?: string;
  color?: boolean;
  verbose?: boolean;
}

/** The lease TTL in whole seconds, as etcd takes it. */
export function parseLeaseTtl(text: string): number {
  // 0 gets the lease's own message, which says what it takes.
  const ms = parseDurationText(text) === 0 ? 0 : parseDuration(text, '--lease-ttl', MAX_WAIT_MS);
  if (ms < 1000 || ms % 1000 !== 0) {
    throw new CliError(`--lease-ttl: whole seconds, at least 1s, got ${JSON.stringify(text)}`);
  }
  return ms / 1000;
}

/** What `run` was asked, checked: every usage error before anything starts. */
export interface RunPlan {
  readonly files: string[];
  readonly location: StateLocation;
  readonly ttl: number;
  readonly requestTimeout: number;
  readonly connectTimeout: number;
  readonly logFormat: LogFormat;
  /** Wall ms the project's code may run without an end (`--timeout`). */
  readonly timeout: number;
  /** The etcd flags given with a state in memory, which has no use for them. */
  readonly ignored: readonly string[];
  /** How the manifests are read (`--definitions`, `--kubernetes-version`, ...), checked. */
  readonly loading: LoadingOptions;
}

/** The flags only a state on etcd uses, by their name in {@link RunFlags}. */
const ETCD_FLAGS = {
  leaseTtl: '--lease-ttl',
  requestTimeout: '--request-timeout',
  connectTimeout: '--connect-timeout',
} as const;

export function planRun(paths: string[], flags: RunFlags): RunPlan {
  const files = [...(flags.file ?? []), ...paths];
  if (files.includes('-')) throw new CliError('run reads files: -f - is for one-shot commands');
  const connectTimeout = parseDuration(
    flags.connectTimeout ?? '5s',
    '--connect-timeout',
    MAX_WAIT_MS,
  );
  if (connectTimeout < 1) throw new CliError('--connect-timeout: at least 1ms');
  const logFormat = flags.logFormat ?? 'text';
  if (!(LOG_FORMATS as readonly string[]).includes(logFormat)) {
    throw new CliError(
      `--log-format: ${LOG_FORMATS.join(' or ')}, got ${JSON.stringify(logFormat)}`,
    );
  }
  const location = stateLocation(flags.state);
  const loading = toLoadingOptions(flags);
  return {
    files,
    location,
    ttl: parseLeaseTtl(flags.leaseTtl ?? '5s'),
    requestTimeout: parseRequestTimeout(flags.requestTimeout ?? '5s'),
    connectTimeout,
    logFormat: logFormat as LogFormat,
    timeout: runTimeout(flags.timeout),
    ignored:
      location.kind === 'memory'
        ? Object.entries(ETCD_FLAGS)
            .filter(([key]) => flags[key as keyof typeof ETCD_FLAGS] !== undefined)
            .map(([, flag]) => flag)
        : [],
    loading,
  };
}

/** `--timeout`: at least 1 ms, at most (and by default) {@link USER_CODE_WAIT}. */
function runTimeout(text: string | undefined): number {
  if (text === undefined) return USER_CODE_WAIT;
  const ms = parseDuration(text, '--timeout');
  if (ms < 1 || ms > USER_CODE_WAIT) {
    throw new CliError(
      `--timeout: from 1ms to ${formatDuration(USER_CODE_WAIT)}, got ${JSON.stringify(text)}`,
    );
  }
  return ms;
}

function stateLocation(url: string): StateLocation {
  try {
    return parseStateUrl(url);
  } catch (error) {
    if (error instanceof StateUrlError) throw new CliError(`--state: ${error.message}`);
    throw error;
  }
}
