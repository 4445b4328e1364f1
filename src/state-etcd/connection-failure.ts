/**
 * Why a connection to etcd failed, in plain words: the etcd client (gRPC) reports it as
 * `14 UNAVAILABLE: No connection established. Last error: ...`, which names neither the cause
 * an operator can act on nor what to do.
 */
export interface ConnectionFailure {
  /** What went wrong, for a user: `connection refused (nothing listens on that port)`. */
  readonly reason: string;
  /** What to check, said after the reason. */
  readonly advice: string;
  /** The connection opened and no answer came: etcd was reached, and said nothing. */
  readonly silent?: boolean;
}

const CHECK_ETCD = 'check that etcd runs there and the --state URL';

/** The known failures, by what gRPC's message or the socket error says. */
const FAILURES: readonly (readonly [RegExp, ConnectionFailure])[] = [
  [
    /ECONNREFUSED/,
    { reason: 'connection refused (nothing listens on that port)', advice: CHECK_ETCD },
  ],
  [
    /Name resolution failed|ENOTFOUND|EAI_AGAIN|EAI_NONAME/,
    { reason: 'the host name does not resolve', advice: 'check the host in the --state URL' },
  ],
  [
    /EHOSTUNREACH|ENETUNREACH|EADDRNOTAVAIL/,
    { reason: 'the host cannot be reached from here', advice: CHECK_ETCD },
  ],
  [
    /Protocol error|Received HTTP|HTTP\/1|Bad Request/i,
    {
      reason: 'what answers there is not etcd (it does not speak gRPC)',
      advice: "check that the --state URL names etcd's client port (2379 by default)",
    },
  ],
  [
    /ECONNRESET|EPIPE|socket hang up/,
    {
      reason: 'the connection was closed as it opened',
      advice: `${CHECK_ETCD} (a TLS-only etcd closes plain connections)`,
    },
  ],
];

/**
 * The plain cause of a failed connection, or `undefined` when `error` says nothing cosi knows
 * (its text is then left out rather than shown raw).
 */
export function describeConnectionFailure(error: unknown): ConnectionFailure | undefined {
  const text = error instanceof Error ? error.message : String(error);
  for (const [pattern, failure] of FAILURES) if (pattern.test(text)) return failure;
  const errno = /\b(E[A-Z]{3,})\b/.exec(text)?.[1];
  return errno === undefined
    ? undefined
    : { reason: `the connection failed (${errno})`, advice: CHECK_ETCD };
}
