/**
 * What the etcd state says when etcd does not answer in time, or holds a value it cannot read.
 * Both are errors of the connection or of the data, not of the state's rules: they carry no
 * engine {@link ErrorCode}, and the CLI says them in one line.
 */

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
