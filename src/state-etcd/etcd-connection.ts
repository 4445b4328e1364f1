import type { Etcd3 } from 'etcd3';
import { EtcdWatch, type EtcdWatchOptions } from './etcd-watch.js';
import { prefixEnd, type KeyLayout } from './key-layout.js';
import { describeConnectionFailure, type ConnectionFailure } from './connection-failure.js';
import { FAULT_HANDLING } from './fault-handling.js';
import { acceptsConnections, SILENT_MEMBER } from './silent-endpoint.js';
import {
  EtcdConnectionError,
  isConnectionFailure,
  EtcdTimeoutError,
  EtcdUnreachableError,
  withDeadline,
} from './etcd-errors.js';
import type { EtcdStateOptions } from './etcd-state-options.js';
import type { LeanEtcd } from './lean-etcd.js';

/**
 * etcd's default `--max-request-bytes` (1.5 MiB): a write with a larger value is refused ("request
 * is too large"). Callers that write manifests check against it first, to say which one.
 */
export const ETCD_MAX_REQUEST_BYTES = 1.5 * 1024 * 1024;

/**
 * The largest reply the client cosi makes accepts (gRPC's default is 4 MB): a page of large
 * resources fits. A client given in the options keeps its own limit.
 */
const MAX_RECEIVE_BYTES = 256 * 1024 * 1024;

/** The connection under a state's watches dropped (`error`: why), or is back. */
export interface WatchConnectionChange {
  readonly connected: boolean;
  readonly error?: Error;
}

/** The client's KV calls a state makes, each counted while under way. */
export type CountedKv = Pick<Etcd3['kv'], 'range' | 'txn' | 'put'> & {
  readTxn: Etcd3['kv']['txn'];
};

/**
 * A state's connection to etcd: the client, made on first use (loading gRPC then) or given;
 * every request counted while under way and failed past the request timeout, with why said in
 * plain words; the probe; and who is told when the connection under the watches drops.
 */
export class EtcdConnection {
  readonly #options: EtcdStateOptions;
  readonly #layout: KeyLayout;
  readonly #requestTimeout: number;
  #client: Promise<Etcd3> | undefined;
  /**
   * cosi's own client for ranges, transactions and watches (see {@link LeanEtcd}), made beside
   * the etcd3 client when this connection makes it for one endpoint; undefined: etcd3 does all.
   */
  #lean: LeanEtcd | undefined;
  #closed = false;
  /** The watches whose connection dropped and that are not open again yet. */
  readonly #watchesCut = new Set<symbol>();
  readonly #connectionListeners = new Set<(change: WatchConnectionChange) => void>();
  /** etcd requests (and watch openings) under way. */
  #inFlight = 0;
  #requests = 0;
  #reads = 0;
  #writes = 0;
  #failedRequests = 0;
  #onIdle: (() => void)[] = [];
  /** The etcd cluster's id, learnt from its first answer: bookmarks carry it. */
  clusterId: string | undefined;

  constructor(options: EtcdStateOptions, layout: KeyLayout, requestTimeout: number) {
    this.#options = options;
    this.#layout = layout;
    this.#requestTimeout = requestTimeout;
  }

  /** Requests under way. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Resolves once no request is under way (at once when none is). */
  async idle(): Promise<void> {
    if (this.#inFlight > 0) await new Promise<void>((resolve) => this.#onIdle.push(resolve));
  }

  /** What was asked of etcd so far (see `EtcdFigures`). */
  counts(): {
    requests: number;
    reads: number;
    writes: number;
    failedRequests: number;
    inFlight: number;
  } {
    return {
      requests: this.#requests,
      reads: this.#reads,
      writes: this.#writes,
      failedRequests: this.#failedRequests,
      inFlight: this.#inFlight,
    };
  }

  /**
   * Asks etcd one cheap question (the state's first key) within `timeout` ms (the flag that
   * sets it, `--connect-timeout` by default, is named in the error). The time starts once the
   * client is made: loading gRPC is cosi's own start, not the wait for etcd, and on a loaded
   * machine it alone can take longer than a short timeout.
   *
   * With `wait`, a connection that fails (refused, reset, a host not reachable or not resolved
   * yet: an etcd starting beside this process) is tried again until the timeout, and only then
   * is an error; what answers without being etcd is one at once.
   *
   * @throws EtcdUnreachableError when no answer came in time or the connection failed.
   */
  async probe(
    timeout: number,
    timeoutFlag?: string,
    options: {
      readonly wait?: boolean;
      /** Told once, at the first failure that is tried again, why etcd is waited for. */
      readonly onWait?: (failure: ConnectionFailure) => void;
    } = {},
  ): Promise<void> {
    const endpoints = this.#options.endpoints ?? [];
    let client: Etcd3;
    try {
      client = await this.connect();
    } catch (error) {
      throw new EtcdUnreachableError(
        endpoints,
        timeout,
        describeConnectionFailure(error),
        timeoutFlag,
      );
    }
    const deadline = performance.now() + timeout;
    const root = Buffer.from(this.#layout.root);
    /** Why the last attempt failed, once one was tried again. */
    let waitedFor: ConnectionFailure | undefined;
    for (let attempt = 0; ; attempt++) {
      try {
        await withDeadline(
          // Straight to the client: its own deadline is the request timeout, not this one.
          client.kv.range({ key: root, range_end: prefixEnd(root), limit: 1, keys_only: true }),
          Math.max(1, deadline - performance.now()),
          () => new EtcdUnreachableError(endpoints, timeout, waitedFor, timeoutFlag, true),
        );
        return;
      } catch (error) {
        if (error instanceof EtcdUnreachableError) {
          // No answer at all: a member that took the connection is there and silent.
          if (error.failure === undefined && (await acceptsConnections(endpoints, 1_000))) {
            throw new EtcdUnreachableError(endpoints, timeout, SILENT_MEMBER, timeoutFlag, true);
          }
          throw error;
        }
        const failure = describeConnectionFailure(error);
        const retry =
          options.wait === true &&
          !this.#closed &&
          isConnectionFailure(error) &&
          failure !== undefined &&
          !failure.reason.includes('not etcd');
        if (!retry) {
          throw new EtcdUnreachableError(endpoints, timeout, failure, timeoutFlag);
        }
        const left = deadline - performance.now();
        if (left <= 0)
          throw new EtcdUnreachableError(endpoints, timeout, failure, timeoutFlag, true);
        if (waitedFor === undefined) options.onWait?.(failure);
        waitedFor = failure;
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(left, 100 * 2 ** attempt, 1_000)),
        );
      }
    }
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Fails every request from now on (the state is closing). */
  refuseRequests(): void {
    this.#closed = true;
  }

  /** Closes the client, when this connection made it. */
  async closeClient(): Promise<void> {
    if (this.#client !== undefined && this.#options.client === undefined) {
      const client = await this.#client.catch(() => undefined);
      this.#lean?.close();
      client?.close();
    }
  }

  async connect(): Promise<Etcd3> {
    if (this.#closed) throw new Error('the etcd state is closed');
    this.#client ??= this.#makeClient();
    return this.#client;
  }

  /** The client's KV calls, counted while under way (see `EtcdCore.settled`). */
  kv(client: Etcd3): CountedKv {
    const lean = this.#lean;
    return {
      readTxn: async (request) => {
        // A transaction of range operations only: reads.
        this.#reads++;
        return this.track(lean ? lean.txn(request) : client.kv.txn(request));
      },
      range: async (request) => {
        this.#reads++;
        return this.track(lean ? lean.range(request) : client.kv.range(request));
      },
      txn: async (request) => {
        this.#writes++;
        return this.track(lean ? lean.txn(request) : client.kv.txn(request));
      },
      put: async (request) => {
        this.#writes++;
        return this.track(client.kv.put(request));
      },
    };
  }

  async opening(client: Etcd3, options: EtcdWatchOptions): Promise<EtcdWatch> {
    const token = Symbol('watch');
    const watching: EtcdWatchOptions = {
      ...options,
      onDisconnected: (error) => {
        const first = this.#watchesCut.size === 0;
        this.#watchesCut.add(token);
        if (first)
          for (const listener of this.#connectionListeners) listener({ connected: false, error });
      },
      onReconnected: () => {
        if (!this.#watchesCut.delete(token) || this.#watchesCut.size > 0) return;
        for (const listener of this.#connectionListeners) listener({ connected: true });
      },
    };
    // A watch etcd accepts after its opening timed out is closed at once.
    return this.track(EtcdWatch.open(client, watching, this.#lean), (late) => late.close());
  }

  /**
   * Tells `listener` when the connection under this state's watches drops (with why, said as
   * `etcd unreachable at HOST:PORT: ...`) and when every watch is open again; returns how to stop.
   */
  onWatchConnection(listener: (change: WatchConnectionChange) => void): () => void {
    const endpoints = this.#options.endpoints ?? [];
    const said = (change: WatchConnectionChange): void =>
      listener(
        change.error !== undefined && isConnectionFailure(change.error)
          ? {
              connected: change.connected,
              error: new EtcdConnectionError(
                endpoints,
                describeConnectionFailure(change.error),
                change.error,
              ),
            }
          : change,
      );
    this.#connectionListeners.add(said);
    return () => this.#connectionListeners.delete(said);
  }

  /** A request, counted while under way and failed past the request timeout. */
  async track<T>(request: Promise<T>, onLate?: (value: T) => void): Promise<T> {
    this.#inFlight++;
    this.#requests++;
    try {
      return await withDeadline(
        request,
        this.#requestTimeout,
        () => new EtcdTimeoutError(this.#options.endpoints ?? [], this.#requestTimeout),
        onLate,
      );
    } catch (error) {
      this.#failedRequests++;
      if (isConnectionFailure(error)) {
        const endpoints = this.#options.endpoints ?? [];
        throw new EtcdConnectionError(endpoints, describeConnectionFailure(error), error);
      }
      throw error;
    } finally {
      if (--this.#inFlight === 0) for (const wake of this.#onIdle.splice(0)) wake();
    }
  }

  async #makeClient(): Promise<Etcd3> {
    if (this.#options.client) return this.#options.client;
    // Loaded on first use: importing cosi does not load gRPC unless a state on etcd is used.
    const { Etcd3: Client } = await import('etcd3');
    const timeout = this.#requestTimeout;
    const { keepAlive } = this.#options;
    const endpoints = this.#options.endpoints ?? [];
    const grpcOptions = {
      'grpc.max_receive_message_length': MAX_RECEIVE_BYTES,
      ...(keepAlive === undefined
        ? {}
        : {
            'grpc.keepalive_time_ms': Math.max(10_000, keepAlive),
            'grpc.keepalive_timeout_ms': Math.max(10_000, keepAlive) / 2,
          }),
    };
    // The hot calls on cosi's own client: one endpoint only (etcd3 picks among several and
    // moves to another when one fails, which this client does not).
    const [endpoint] = endpoints;
    if (endpoints.length === 1 && endpoint !== undefined) {
      const { LeanEtcd } = await import('./lean-etcd.js');
      this.#lean = new LeanEtcd({ endpoint, channelOptions: grpcOptions, requestTimeout: timeout });
    }
    return new Client({
      hosts: [...endpoints],
      // gRPC's own deadline ends the call on the wire; the race in track bounds the wait.
      defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + timeout }),
      grpcOptions,
      faultHandling: FAULT_HANDLING,
    });
  }
}
