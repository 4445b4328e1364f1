import type { Etcd3 } from 'etcd3';

/** Options of {@link createEtcdState}: where etcd is (`endpoints` or a `client`), and the prefix. */
export interface EtcdStateOptions {
  /** etcd client URLs, e.g. `['http://127.0.0.1:2379']`; the state makes (and closes) a client. */
  readonly endpoints?: readonly string[];
  /** An `etcd3` client to use instead (the caller closes it). */
  readonly client?: Etcd3;
  /** Every key of this state starts with it: states with different prefixes never meet. */
  readonly prefix: string;
  /** Timestamps for `created` / `updated`, in ms since the epoch. Defaults to `Date.now`. */
  readonly now?: () => number;
  /** Told about listeners that throw; the watches go on regardless. */
  readonly onListenerError?: (error: unknown) => void;
  /**
   * How many events may wait for a slow listener before its watch ends with `errored`.
   * Defaults to 10 000, as the in-memory state's history.
   */
  readonly bufferCapacity?: number;
  /**
   * How long a request may wait for etcd's answer, ms; 5000 (etcdctl's `--command-timeout`).
   * Past it the request fails with an {@link EtcdTimeoutError}: an etcd that accepts connections
   * and never answers fails every call in bounded time instead of hanging it. Watches, once open,
   * have no deadline. A client given in the options keeps its own connection settings, but its
   * requests are bounded all the same.
   */
  readonly requestTimeout?: number;
  /**
   * Ms between gRPC keep-alive pings while a watch (or any stream) is open, each to be answered
   * within half of it; none when omitted. An etcd that stops answering (hung, or behind a
   * partition that drops packets rather than refusing them) then breaks the connection, and the
   * watches say so (`onWatchConnection`) and reconnect; without them a watch on that connection
   * waits silently for ever (etcdctl's `--keepalive-time`). At least 10 s: etcd refuses pings
   * more often than its `--grpc-keepalive-min-time` (5 s). A process whose event loop may stall
   * for half of it (a controller's long pass) should not set it: a late answer would cut a
   * healthy connection.
   */
  readonly keepAlive?: number;
  /**
   * Answer `get` and `list` of a kind this state's watches keep whole from their values, without
   * a request (true by default): such a read sees this state's own writes, never goes back in
   * time, and sees another process's write once its event has come to a watch here (a stale
   * value then costs a failed compare-and-swap and a read again). `false`: every read asks etcd
   * (linearizable). See docs/etcd.md, "Reads from the watches".
   */
  readonly cachedReads?: boolean;
}
