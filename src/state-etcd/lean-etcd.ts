import * as grpc from '@grpc/grpc-js';
import type { IRangeRequest, IRangeResponse, ITxnRequest, ITxnResponse } from 'etcd3';
import { castGrpcError } from 'etcd3';
import {
  decodeRangeResponse,
  decodeTxnResponse,
  decodeWatchResponse,
  encodeRangeRequest,
  encodeTxnRequest,
  type WatchCreate,
} from './etcd-wire.js';
import { LeanWatchStream, type LeanWatcher } from './lean-watch.js';

/** What the lean client takes: one etcd endpoint, gRPC's channel options, the call deadline. */
export interface LeanEtcdOptions {
  /** `http://HOST:PORT`, `https://HOST:PORT` (TLS with the system's roots) or `HOST:PORT`. */
  readonly endpoint: string;
  readonly channelOptions: grpc.ChannelOptions;
  /** Each unary call's deadline, ms. */
  readonly requestTimeout: number;
}

const identity = (buffer: Buffer): Buffer => buffer;

/**
 * cosi's own gRPC client for the calls it makes most: the KV service's Range and Txn and the
 * Watch stream, with its own encoding (etcd-wire.ts) instead of the `etcd3` client's protobufjs
 * objects (every key and value converted, every revision a Long made a string, each call set up
 * through a fault-handling policy): at 10,000 resources that client and gRPC under it were a
 * third of the process's CPU. Everything else (leases, elections, puts of rare keys, a client
 * given by the caller) stays on `etcd3`. Errors are cast as `etcd3` casts them, so callers tell
 * a connection failure or a compacted revision the same way.
 */
export class LeanEtcd {
  readonly #client: grpc.Client;
  readonly #timeout: number;
  readonly #watches: LeanWatchStream;

  constructor(options: LeanEtcdOptions) {
    const secure = options.endpoint.startsWith('https://');
    const address = options.endpoint.replace(/^https?:\/\//, '');
    this.#client = new grpc.Client(
      address,
      secure ? grpc.credentials.createSsl() : grpc.credentials.createInsecure(),
      {
        ...options.channelOptions,
        // A connection of its own (not shared with etcd3's clients, which it closes and makes
        // again after a failure), tried again within a second once etcd is back: gRPC's default
        // backoff grows to two minutes.
        'grpc.use_local_subchannel_pool': 1,
        'grpc.initial_reconnect_backoff_ms': 100,
        'grpc.max_reconnect_backoff_ms': 1_000,
      },
    );
    this.#timeout = options.requestTimeout;
    this.#watches = new LeanWatchStream(() =>
      this.#client.makeBidiStreamRequest(
        '/etcdserverpb.Watch/Watch',
        identity,
        decodeWatchResponse,
        new grpc.Metadata(),
        {},
      ),
    );
  }

  async range(request: IRangeRequest): Promise<IRangeResponse> {
    return this.#unary('/etcdserverpb.KV/Range', encodeRangeRequest(request), decodeRangeResponse);
  }

  async txn(request: ITxnRequest): Promise<ITxnResponse> {
    return this.#unary('/etcdserverpb.KV/Txn', encodeTxnRequest(request), decodeTxnResponse);
  }

  /** A watch from `startRevision` on the shared stream (see {@link LeanWatchStream}). */
  watch(create: Omit<WatchCreate, 'startRevision'>, startRevision: number): LeanWatcher {
    return this.#watches.watch(create, startRevision);
  }

  close(): void {
    this.#watches.close();
    this.#client.close();
  }

  async #unary<T>(method: string, request: Buffer, decode: (buffer: Buffer) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#client.makeUnaryRequest(
        method,
        identity,
        decode,
        request,
        new grpc.Metadata(),
        { deadline: Date.now() + this.#timeout },
        (error, response) => {
          if (error) reject(castGrpcError(error));
          else resolve(response as T);
        },
      );
    });
  }
}
