import { EventEmitter } from 'node:events';
import type { ClientDuplexStream } from '@grpc/grpc-js';
import { castGrpcError, castGrpcErrorMessage, EtcdWatchStreamEnded } from 'etcd3';
import {
  encodeWatchCancel,
  encodeWatchCreate,
  type WatchCreate,
  type WireWatchResponse,
} from './etcd-wire.js';

/** The first wait before the watch stream is opened again after it broke, ms; doubled each try. */
const FIRST_BACKOFF = 100;
const MAX_BACKOFF = 5_000;

/** Opens a watch stream: a gRPC bidi call of etcd's Watch service. */
export type OpenStream = () => ClientDuplexStream<Buffer, WireWatchResponse>;

/**
 * One watch on the {@link LeanWatchStream}, with the events (and the mutable `request.start_revision`)
 * of the `etcd3` client's watcher that `EtcdWatch` uses: `put` and `delete` (kv, prev_kv) per
 * event, then `data` (the response); `connected` once etcd created it (again after each
 * reconnect), `disconnected` (error) when the stream broke, `error` when etcd ended it.
 */
export class LeanWatcher extends EventEmitter {
  /** etcd's id of it on the current stream; null while not created. */
  id: number | null = null;
  /** Where a re-creation starts (EtcdWatch moves it on each disconnect). */
  readonly request: { start_revision: string };

  constructor(
    private readonly stream: LeanWatchStream,
    readonly create: Omit<WatchCreate, 'startRevision'>,
    startRevision: number,
  ) {
    super();
    this.request = { start_revision: String(startRevision) };
  }

  /** Ends the watch on etcd; no event is emitted after this. */
  async cancel(): Promise<void> {
    this.stream.detach(this);
  }
}

/**
 * etcd watches over one gRPC stream, the way the `etcd3` client multiplexes them, with cosi's own
 * encoding (etcd-wire.ts): responses are decoded once, keys and values as views of the reply.
 * Creations are written in order and etcd answers them in order (its server handles a stream's
 * requests one by one, and holds a watch's events until its creation is answered). When the stream
 * breaks, every watcher hears `disconnected` and the stream is opened again after a backoff, each
 * watcher created again from its `request.start_revision`.
 */
export class LeanWatchStream {
  readonly #open: OpenStream;
  #stream: ClientDuplexStream<Buffer, WireWatchResponse> | undefined;
  /** Watchers by etcd's id on the current stream. */
  readonly #byId = new Map<number, LeanWatcher>();
  /** Creations written and not answered yet, in the order written. */
  #creating: LeanWatcher[] = [];
  /** Every watcher not cancelled. */
  readonly #watchers = new Set<LeanWatcher>();
  #backoff = FIRST_BACKOFF;
  #reconnect: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(open: OpenStream) {
    this.#open = open;
  }

  watch(create: Omit<WatchCreate, 'startRevision'>, startRevision: number): LeanWatcher {
    const watcher = new LeanWatcher(this, create, startRevision);
    this.#watchers.add(watcher);
    if (this.#stream === undefined) {
      // A stream not open yet (or waiting to reconnect) creates every watcher once open.
      if (this.#reconnect === undefined && !this.#closed) this.#connect();
    } else this.#createOn(this.#stream, watcher);
    return watcher;
  }

  detach(watcher: LeanWatcher): void {
    if (!this.#watchers.delete(watcher)) return;
    watcher.removeAllListeners();
    if (watcher.id !== null) {
      this.#byId.delete(watcher.id);
      this.#stream?.write(encodeWatchCancel(watcher.id));
      watcher.id = null;
    }
    // A creation under way is cancelled once etcd answers it (see #created).
  }

  /** Ends every watch and the stream. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#reconnect);
    for (const watcher of this.#watchers) watcher.removeAllListeners();
    this.#watchers.clear();
    this.#byId.clear();
    this.#creating = [];
    const stream = this.#stream;
    this.#stream = undefined;
    stream?.cancel();
  }

  #connect(): void {
    this.#reconnect = undefined;
    if (this.#closed || this.#watchers.size === 0) return;
    let stream: ClientDuplexStream<Buffer, WireWatchResponse>;
    try {
      stream = this.#open();
    } catch (error) {
      this.#broken(undefined, error);
      return;
    }
    this.#stream = stream;
    stream.on('data', (response: WireWatchResponse) => this.#receive(stream, response));
    stream.on('error', (error: Error) => this.#broken(stream, error));
    stream.on('end', () => this.#broken(stream, new EtcdWatchStreamEnded()));
    for (const watcher of this.#watchers) this.#createOn(stream, watcher);
  }

  #createOn(stream: ClientDuplexStream<Buffer, WireWatchResponse>, watcher: LeanWatcher): void {
    this.#creating.push(watcher);
    stream.write(
      encodeWatchCreate({
        ...watcher.create,
        startRevision: Number(watcher.request.start_revision),
      }),
    );
  }

  #receive(stream: ClientDuplexStream<Buffer, WireWatchResponse>, response: WireWatchResponse) {
    if (stream !== this.#stream) return;
    this.#backoff = FIRST_BACKOFF;
    if (response.created) {
      this.#created(stream, response);
      return;
    }
    const watcher = this.#byId.get(response.watchId);
    // Events of a watch cancelled here, before etcd heard of it: dropped.
    if (watcher === undefined) return;
    if (response.canceled) {
      this.#ended(watcher, response);
      return;
    }
    for (const event of response.events) {
      watcher.emit(event.type === 'Put' ? 'put' : 'delete', event.kv, event.prev_kv);
    }
    watcher.emit('data', response);
  }

  #created(stream: ClientDuplexStream<Buffer, WireWatchResponse>, response: WireWatchResponse) {
    const watcher = this.#creating.shift();
    if (watcher === undefined) return;
    if (!this.#watchers.has(watcher)) {
      // Cancelled while its creation was under way.
      if (!response.canceled) stream.write(encodeWatchCancel(response.watchId));
      return;
    }
    if (response.canceled) {
      this.#ended(watcher, response);
      return;
    }
    watcher.id = response.watchId;
    this.#byId.set(response.watchId, watcher);
    watcher.emit('connected', response);
  }

  /** etcd ended a watch (a compacted start revision, or refused it): an error, as etcd3 says it. */
  #ended(watcher: LeanWatcher, response: WireWatchResponse): void {
    this.#watchers.delete(watcher);
    if (watcher.id !== null) this.#byId.delete(watcher.id);
    watcher.id = null;
    watcher.emit('error', castGrpcErrorMessage(`Watcher canceled: ${response.cancelReason}`));
    watcher.removeAllListeners();
  }

  #broken(stream: ClientDuplexStream<Buffer, WireWatchResponse> | undefined, error: unknown) {
    if (stream !== this.#stream || this.#closed) return;
    stream?.removeAllListeners();
    stream?.on('error', () => undefined);
    stream?.cancel();
    this.#stream = undefined;
    this.#byId.clear();
    this.#creating = [];
    const cast = castGrpcError(error instanceof Error ? error : new Error(String(error)));
    for (const watcher of this.#watchers) {
      watcher.id = null;
      watcher.emit('disconnected', cast);
    }
    this.#reconnect = setTimeout(() => this.#connect(), this.#backoff);
    this.#backoff = Math.min(this.#backoff * 2, MAX_BACKOFF);
  }
}
