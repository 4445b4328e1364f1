/**
 * What the etcd state says when etcd does not answer in time, or holds a value it cannot read.
 * Both are errors of the connection or of the data, not of the state's rules: they carry no
 * engine {@link ErrorCode}, and the CLI says them in one line.
 */
import type { ConnectionFailure } from './connection-failure.js';

/**
 * cosi's `--request-timeout` default, as etcdctl's `--command-timeout`: 5 s. It bounds the
 * connection too: a request waiting for a connection that never opens fails at its deadline
 * (etcd3 1.1 has no dial timeout of its own).
 */
export const DEFAULT_REQUEST_TIMEOUT = 5_000;

/** A request to etcd that got no answer within the request timeout. */
export class EtcdTimeoutError extends Error {
  readonly code = 'etcd-timeout';

  constructor(
    readonly endpoints: readonly string[],
    readonly timeout: number,
  ) {
    super(
      `etcd at ${endpoints.map((e) => e.replace(/^https?:\/\//, '')).join(', ') || 'the given client'} did not answer within ${timeout} ms (--request-timeout)`,
    );
    this.name = 'EtcdTimeoutError';
  }
}

/**
 * etcd could not be reached by a first request: nothing listens there, the host does not
 * resolve, what answers does not speak etcd, or no answer came within the timeout (to a
 * connection that opened, or to none). Said in one
 * plain line naming the endpoint and what to check; the client's own (gRPC) text is never shown.
 */
export class EtcdUnreachableError extends Error {
  readonly code = 'etcd-unreachable';

  constructor(
    readonly endpoints: readonly string[],
    readonly timeout: number,
    /** Why the connection failed; absent when no answer came in time. */
    readonly failure?: ConnectionFailure,
    /** The flag that bounds the wait, named in the advice to raise it. */
    readonly timeoutFlag = '--connect-timeout',
    /** Whether the failure went on for the whole timeout (tried again until then). */
    readonly waited = false,
  ) {
    const where = endpoints.map((e) => e.replace(/^https?:\/\//, '')).join(', ');
    const within = `within ${Number((timeout / 1000).toFixed(2))}s (${timeoutFlag})`;
    super(
      failure === undefined
        ? `cannot reach etcd at ${where} ${within}: check that etcd runs there and the --state URL, or raise ${timeoutFlag}`
        : failure.silent === true
          ? `etcd at ${where} did not answer ${within}: ${failure.reason}: ${failure.advice}, or raise ${timeoutFlag}`
          : waited
            ? `cannot reach etcd at ${where} ${within}: ${failure.reason}: ${failure.advice}, or raise ${timeoutFlag}`
            : `cannot reach etcd at ${where}: ${failure.reason}: ${failure.advice}`,
    );
    this.name = 'EtcdUnreachableError';
  }
}

/**
 * A request that failed because etcd could not be reached: the connection was refused or
 * dropped (gRPC's `14 UNAVAILABLE: No connection established. Last error: ...`, which names
 * neither etcd nor the endpoint). Said as `etcd unreachable at HOST:PORT: connection refused
 * (...)`; the client's error is its `cause`.
 */
export class EtcdConnectionError extends Error {
  readonly code = 'etcd-unreachable';

  constructor(
    readonly endpoints: readonly string[],
    readonly failure: ConnectionFailure | undefined,
    cause: unknown,
  ) {
    const where = endpoints.map((e) => e.replace(/^https?:\/\//, '')).join(', ');
    super(
      `etcd unreachable${where === '' ? '' : ` at ${where}`}${failure === undefined ? '' : `: ${failure.reason}`}`,
      { cause },
    );
    this.name = 'EtcdConnectionError';
  }
}

/** Whether `error` is the etcd client's "no connection" (gRPC UNAVAILABLE, an open breaker). */
export function isConnectionFailure(error: unknown): boolean {
  const text = error instanceof Error ? error.message : String(error);
  return /^14 UNAVAILABLE\b|circuit breaker is open/.test(text);
}

/**
 * Races `request` against the timeout: the first to settle wins. A request that loses is left to
 * its own (gRPC) deadline; `onLate` is given what it resolves with, to release it.
 */
export async function withDeadline<T>(
  request: Promise<T>,
  timeout: number,
  fail: () => Error,
  onLate?: (value: T) => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      request.then(onLate, () => undefined);
      reject(fail());
    }, timeout);
  });
  try {
    return await Promise.race([request, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Control characters, DEL, C1 and the bidirectional overrides: never raw in a message. */
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

/** `text` with its control characters as `\xNN` / `\uNNNN` escapes, safe on one line. */
export function escapeText(text: string): string {
  return text.replace(UNSAFE, (char) => {
    const code = char.charCodeAt(0);
    return code <= 0xff
      ? `\\x${code.toString(16).padStart(2, '0')}`
      : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/**
 * A value under a resource key that is not a stored resource (written by hand, by another
 * program, or damaged): reads of its kind fail with it, naming the key; other kinds are
 * untouched.
 */
export class CorruptValueError extends Error {
  readonly code = 'etcd-corrupt-value';

  constructor(
    readonly key: string,
    reason: string,
  ) {
    super(`etcd key "${escapeText(key)}" holds no cosi resource: ${escapeText(reason)}`);
    this.name = 'CorruptValueError';
  }
}
