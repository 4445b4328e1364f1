import type { Etcd3, IKeyValue, IRangeResponse } from 'etcd3';
import { compareStrings } from '../engine/compare-strings.js';
import {
  alreadyExists,
  HistoryCompactedError,
  InvalidBookmarkError,
  NotFoundError,
} from '../engine/errors.js';
import {
  toPointer,
  type Kind,
  type Pointer,
  type TypedKind,
  type TypedPointer,
} from '../engine/resource/pointer.js';
import type { AppliedEntry } from '../engine/state/resource-applier.js';
import { toDraft, type Draft, type Resource } from '../engine/resource/resource.js';
import { nextGeneration } from '../engine/resource/generation.js';
import type { StateCore } from '../engine/state/state-core.js';
import type {
  CreateOptions,
  ListOptions,
  OwnerOptions,
  ResourceEvent,
  UpdateOptions,
  WatchKindOptions,
  WatchListener,
  WatchOptions,
} from '../engine/state/state.js';
import { checkDestroy, checkUpdate } from '../engine/state/write-checks.js';
import { createTombstone } from '../engine/state/tombstone.js';
import { filterEvent, matchesFilters } from '../engine/state/watch-filters.js';
import { BookmarkCodec, type WatchPosition } from './bookmark.js';
import { EtcdWatch, type EtcdChange, type EtcdWatchOptions } from './etcd-watch.js';
import { KeyLayout, prefixEnd } from './key-layout.js';
import { indexedId, labelIndexOps, labelIndexRanges, type IndexRange } from './label-index.js';
import { DecodedCache } from './decoded-cache.js';
import { describeConnectionFailure, type ConnectionFailure } from './connection-failure.js';
import { FAULT_HANDLING } from './fault-handling.js';
import { acceptsConnections, SILENT_MEMBER } from './silent-endpoint.js';
import {
  CorruptValueError,
  DEFAULT_REQUEST_TIMEOUT,
  EtcdConnectionError,
  isConnectionFailure,
  EtcdTimeoutError,
  EtcdUnreachableError,
  withDeadline,
} from './etcd-errors.js';
import { encodeResource } from './resource-codec.js';
import type { Delivery } from '../engine/state/watch-delivery.js';
import { WatchQueue } from './watch-queue.js';
import { forEachConcurrently } from '../engine/for-each-concurrently.js';
import { TXN_MAX_OPS, TxnBatcher } from './txn-batcher.js';
import { ReadBatcher } from './read-batcher.js';

/** The key (under the prefix) of the set of resources `cosi run` applied: chunks `.0000`, ... */
const APPLIED_SET = 'applied-set';

/** What the applied set records of a resource: its pointer, and its manifest's label keys. */
export interface AppliedMetadata extends Pointer {
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
}
const APPLIED_CHUNK = /^applied-set\.\d{4}$/;
const APPLIED_CHUNK_BYTES = 1024 * 1024;

/**
 * Resources per `range` request of a list: a whole kind in one reply would outgrow a gRPC
 * message at about 10,000 resources. Exported for the tests.
 */
export const LIST_PAGE_SIZE = 500;

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

/**
 * A label query whose index finds more ids than this reads the kind whole (in pages of
 * {@link LIST_PAGE_SIZE}) rather than its resources by key ({@link TXN_MAX_OPS} per request).
 */
const INDEXED_READS_MAX = 2 * LIST_PAGE_SIZE;

/** Transactions of reads by key a label query keeps under way at once. */
const INDEXED_READ_CONCURRENCY = 16;

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
}

/** The connection under a state's watches dropped (`error`: why), or is back. */
export interface WatchConnectionChange {
  readonly connected: boolean;
  readonly error?: Error;
}

/** A stored resource with the etcd revision of its last write, for compare-and-swap. */
interface Stored {
  readonly resource: Resource;
  readonly modRevision: string;
}

/** An open watch, with what {@link EtcdCore.settled} needs to know of it. */
interface OpenWatch {
  /** The key it watches, or the prefix of the keys (`prefix: true`). */
  readonly key: string;
  readonly prefix: boolean;
  etcd: EtcdWatch | undefined;
  readonly queue: WatchQueue;
}

const DEFAULT_BUFFER_CAPACITY = 10_000;

/** Counts of what a state asked of etcd (see {@link EtcdCore.figures}). */
export interface EtcdFigures {
  /** Requests sent (reads, writes, watch openings), since the state was created. */
  readonly requests: number;
  /** Of those, reads (ranges) and writes (transactions and puts). */
  readonly reads: number;
  readonly writes: number;
  /**
   * Resource writes applied (creates, updates, destroys), however many shared a request: the
   * keys a bare client would have written one request each.
   */
  readonly resourceWrites: number;
  /** Of those, the ones that failed or got no answer in time. */
  readonly failedRequests: number;
  readonly inFlight: number;
  /** Watches open now. */
  readonly watches: number;
}

/** etcd's message for a read or watch of a revision compaction removed. */
const COMPACTED = /compacted/i;
/** etcd's message for a read of a revision not written yet. */
const FUTURE_REVISION = /future revision/i;

/**
 * The {@link StateCore} on etcd v3. Resources are JSON under `<prefix>/<namespace>/<type>/r/<id>`
 * (see {@link KeyLayout}); every write is one etcd transaction that compares the key's
 * `mod_revision` with the one read, so a writer that lost a race re-reads and fails (or retries)
 * exactly as it would in memory. Watches are etcd watches from a known revision; bookmarks are
 * etcd revisions, so a watch resumes after a reconnect, or in another process, without a lost or
 * repeated event, for as long as etcd keeps that history (until compaction).
 *
 * A list with a label equality, `in` or `exists` query reads the kind's label index (index keys
 * written in the same transaction as the resource, see label-index.ts) and then only the
 * resources it names, so "the placements on this host" costs what it returns; other lists read
 * the whole kind. It offers no synchronous fast path (`SyncCore`): etcd cannot answer without
 * a round trip. `createEtcdState` wraps it (`wrapCore`).
 */
export class EtcdCore implements StateCore {
  readonly #options: EtcdStateOptions;
  readonly #layout: KeyLayout;
  readonly #now: () => number;
  readonly #onListenerError: (error: unknown) => void;
  readonly #capacity: number;
  readonly #requestTimeout: number;
  #client: Promise<Etcd3> | undefined;
  #clusterId: string | undefined;
  readonly #watches = new Set<OpenWatch>();
  /** The watches whose connection dropped and that are not open again yet. */
  readonly #watchesCut = new Set<symbol>();
  readonly #connectionListeners = new Set<(change: WatchConnectionChange) => void>();
  /** Decoded resources by key and revision: see {@link DecodedCache}. */
  readonly #decoded = new DecodedCache();
  /** The revision of this state's last write, by key and by kind (resource prefix). */
  readonly #writtenKeys = new Map<string, number>();
  readonly #writtenKinds = new Map<string, number>();
  #closed = false;
  /** etcd requests (and watch openings) under way, for {@link settled}. */
  #inFlight = 0;
  #requests = 0;
  #reads = 0;
  #writes = 0;
  #resourceWrites = 0;
  #failedRequests = 0;
  #onIdle: (() => void)[] = [];
  /** Every write goes through it: those issued together share a transaction. */
  readonly #batcher = new TxnBatcher(async (request) =>
    this.#kv(await this.#connect()).txn(request),
  );
  /** Every read of one resource goes through it: those asked together share a request. */
  readonly #reader = new ReadBatcher(async (request) =>
    this.#kv(await this.#connect()).readTxn(request),
  );

  constructor(options: EtcdStateOptions) {
    if (options.client === undefined && (options.endpoints ?? []).length === 0) {
      throw new TypeError('createEtcdState: give endpoints or a client');
    }
    const capacity = options.bufferCapacity ?? DEFAULT_BUFFER_CAPACITY;
    if (!Number.isSafeInteger(capacity) || capacity < 1) {
      throw new RangeError(`bufferCapacity must be a positive integer, got ${capacity}`);
    }
    this.#options = options;
    this.#layout = new KeyLayout(options.prefix);
    this.#now = options.now ?? Date.now;
    this.#onListenerError = options.onListenerError ?? (() => undefined);
    this.#capacity = capacity;
    const timeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    if (!(timeout > 0)) throw new RangeError(`requestTimeout must be positive, got ${timeout}`);
    this.#requestTimeout = timeout;
  }

  async get<S = unknown>(pointer: TypedPointer<S>): Promise<Resource<S>> {
    const found = await this.#read(pointer);
    if (!found) throw new NotFoundError(toPointer(pointer));
    return found.resource as Resource<S>;
  }

  async list<S = unknown>(kind: TypedKind<S>, options: ListOptions = {}): Promise<Resource<S>[]> {
    const { resources } = await this.#listAt(kind, options);
    return resources as Resource<S>[];
  }

  async create<S>(
    resource: Draft<S> | Resource<S>,
    options: CreateOptions = {},
  ): Promise<Resource<S>> {
    return (await this.#create(toDraft(resource), options.owner ?? '')) as Resource<S>;
  }

  async update<S>(
    resource: Draft<S> | Resource<S>,
    options: UpdateOptions = {},
  ): Promise<Resource<S>> {
    const draft = toDraft(resource);
    // The caller's version: a swap that lost a race has stamped the draft with the next one.
    const { version } = draft.metadata;
    // The version this state last saw, if it is the caller's: swapped on its revision, unread.
    // Stale, the swap fails, and the loop below reads and checks what changed.
    const seen = this.#decoded.latest(this.#layout.resourceKey(draft.metadata));
    const passes = (current: Resource): boolean => {
      try {
        checkUpdate(current, version, options);
        return true;
      } catch {
        // Perhaps only by being stale: the read below tells.
        return false;
      }
    };
    if (seen !== undefined && seen.resource.metadata.version === version && passes(seen.resource)) {
      const written = await this.#swap(
        { resource: seen.resource, modRevision: seen.revision },
        draft,
      );
      if (written) return written as Resource<S>;
    }
    for (;;) {
      const current = await this.#read(draft.metadata);
      if (!current) throw new NotFoundError(toPointer(draft.metadata));
      checkUpdate(current.resource, version, options);
      const written = await this.#swap(current, draft);
      // Lost a race: read again, and the checks tell what changed.
      if (written) return written as Resource<S>;
    }
  }

  lastSeen(pointer: Pointer): Resource | undefined {
    return this.#decoded.latest(this.#layout.resourceKey(pointer))?.resource;
  }

  async destroy(pointer: Pointer, options: OwnerOptions = {}): Promise<void> {
    const key = this.#layout.resourceKey(pointer);
    // As update: the version this state last saw, if it may be destroyed, is deleted on its
    // revision, unread. Stale, the delete fails, and the loop below reads and checks what changed.
    const seen = this.#decoded.latest(key);
    if (seen !== undefined && mayDestroy(seen.resource, options)) {
      const deleted = await this.#delete(pointer, key, {
        resource: seen.resource,
        modRevision: seen.revision,
      });
      if (deleted) return;
    }
    for (;;) {
      const current = await this.#read(pointer);
      if (!current) throw new NotFoundError(toPointer(pointer));
      checkDestroy(current.resource, options);
      // Lost a race: read again, and the checks tell what changed.
      if (await this.#delete(pointer, key, current)) return;
    }
  }

  /** Deletes `current` if its key is still at the revision it was read at; false otherwise. */
  async #delete(pointer: Pointer, key: string, current: Stored): Promise<boolean> {
    const keyBuffer = Buffer.from(key);
    const outcome = await this.#batcher.write({
      key: keyBuffer,
      guard: { target: 'mod', revision: current.modRevision },
      ops: [
        { request_delete_range: { key: keyBuffer } },
        ...labelIndexOps(this.#layout, pointer, current.resource.metadata.labels, undefined),
      ],
    });
    if (!outcome.succeeded) return false;
    this.#wrote(key, pointer, Number(outcome.revision));
    this.#decoded.forget(key, Number(outcome.revision));
    return true;
  }

  async watch(
    pointer: Pointer,
    listener: WatchListener,
    options: WatchOptions = {},
  ): Promise<void> {
    // The options were checked by the wrapper (tail and bookmark exclude each other).
    const tail = Math.floor(options.tailEvents ?? 0);
    const { startFromBookmark, signal } = options;
    const client = await this.#connect();
    await this.#clusterKnown(client);
    const kind = { namespace: pointer.namespace, type: pointer.type };
    const codec = this.#codec(kind);
    const key = this.#layout.resourceKey(pointer);
    let start: number;
    const initial: ResourceEvent[] = [];
    let after: Buffer | undefined;
    if (startFromBookmark !== undefined) {
      const position = await this.#checkBookmark(codec, startFromBookmark);
      // Within a revision, the watch starts at it and skips the changes up to the key.
      start = position.key === undefined ? position.revision + 1 : position.revision;
      if (position.key !== undefined) after = Buffer.from(position.key);
    } else if (tail > 0) {
      const replay = await this.#replay(kind, (kv) => kv.key.toString() === key);
      initial.push(...replay.events.slice(-tail));
      start = replay.revision + 1;
    } else {
      const response = await this.#kv(client).range({ key: Buffer.from(key) });
      const kv = response.kvs[0];
      initial.push(
        kv
          ? { type: 'created', resource: this.#decoded.decode(key, kv) }
          : { type: 'destroyed', resource: createTombstone(toPointer(pointer)) },
      );
      start = Number(response.header.revision) + 1;
    }
    if (signal?.aborted) return;
    const open = this.#register(key, false, kind, { aggregated: false, listener }, signal);
    for (const event of initial) open.queue.pushInitial(event);
    await this.#startWatch(open, client, { start, after }, (change) => {
      const event = toEvent(change, codec, this.#decoded);
      if (event instanceof Error) open.queue.fail(event);
      else open.queue.push(event);
    });
  }

  async kinds(): Promise<Kind[]> {
    const client = await this.#connect();
    const root = Buffer.from(this.#layout.root);
    const response = await this.#kv(client).range({
      key: root,
      range_end: prefixEnd(root),
      keys_only: true,
    });
    const seen = new Map<string, Kind>();
    for (const kv of response.kvs) {
      const kind = this.#layout.parseKind(kv.key.toString());
      if (kind) seen.set(`${kind.type}\u0000${kind.namespace}`, kind);
    }
    return [...seen.values()];
  }

  async settled(): Promise<void> {
    // An operation is a chain of requests: it is over once no request has followed the last
    // one by the next macrotask turn.
    do {
      while (this.#busy()) {
        // Writes waiting for their batch are sent on a coming turn: wait for it.
        if (this.#inFlight === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        else await new Promise<void>((resolve) => this.#onIdle.push(resolve));
      }
      const waits: Promise<void>[] = [];
      for (const open of this.#watches) {
        const target = open.prefix
          ? this.#writtenKinds.get(open.key)
          : this.#writtenKeys.get(open.key);
        if (target !== undefined && open.etcd) waits.push(open.etcd.received(target));
      }
      await Promise.all(waits);
      await new Promise<void>((resolve) => setImmediate(resolve));
    } while (this.#busy());
  }

  /** Requests under way, or reads and writes waiting for their batch. */
  #busy(): boolean {
    return this.#inFlight > 0 || this.#batcher.busy > 0 || this.#reader.busy > 0;
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
      client = await this.#connect();
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

  /**
   * The resources `cosi run` applied from its manifests last (see {@link writeAppliedSet}), or
   * `undefined` when none was recorded here (a state no run of this version applied to).
   */
  async readAppliedSet(): Promise<AppliedEntry[] | undefined> {
    const client = await this.#connect();
    const start = `${this.#layout.root}${APPLIED_SET}.`;
    const response = await this.#kv(client).range({
      key: Buffer.from(start),
      // `.` is the character before `/`: the chunks, never a namespace's folder.
      range_end: Buffer.from(`${this.#layout.root}${APPLIED_SET}/`),
    });
    const chunks = response.kvs
      .map((kv) => ({ key: kv.key.toString(), value: kv.value.toString() }))
      .filter(({ key }) => APPLIED_CHUNK.test(key.slice(this.#layout.root.length)))
      .sort((a, b) => compareStrings(a.key, b.key));
    if (chunks.length === 0) return undefined;
    const entries: AppliedEntry[] = [];
    for (const { value } of chunks) {
      // [namespace, type, id], then the keys of the labels and annotations its manifest set
      // (written since they are kept: an entry of an earlier version has none).
      const parsed = JSON.parse(value) as [string, string, string, string[]?, string[]?][];
      for (const [namespace, type, id, labels, annotations] of parsed) {
        entries.push({
          namespace,
          type,
          id,
          ...(Array.isArray(labels) ? { labels } : {}),
          ...(Array.isArray(annotations) ? { annotations } : {}),
        });
      }
    }
    return entries;
  }

  /**
   * Records the resources `cosi run` applied from its manifests (as kubectl's ApplySet keeps the
   * set an apply owns): the next run on this state prunes those its manifests no longer have,
   * and `cosi diff` shows them as removals. With each, the keys of the labels and annotations
   * its manifest set: the next run removes those its manifest dropped and keeps a controller's. Kept beside the resources under the prefix, in
   * chunks of at most 1 MiB (a request's limit is 1.5 MiB); chunks of a larger set before are
   * deleted.
   */
  async writeAppliedSet(applied: readonly AppliedMetadata[]): Promise<void> {
    const client = await this.#connect();
    const chunks: string[] = [];
    let chunk: string[] = [];
    let bytes = 0;
    for (const p of applied) {
      const labels = Object.keys(p.labels ?? {});
      const annotations = Object.keys(p.annotations ?? {});
      const entry = JSON.stringify(
        labels.length + annotations.length === 0
          ? [p.namespace, p.type, p.id]
          : [p.namespace, p.type, p.id, labels, annotations],
      );
      if (chunk.length > 0 && bytes + entry.length > APPLIED_CHUNK_BYTES) {
        chunks.push(`[${chunk.join(',')}]`);
        chunk = [];
        bytes = 0;
      }
      chunk.push(entry);
      bytes += Buffer.byteLength(entry) + 1;
    }
    chunks.push(`[${chunk.join(',')}]`);
    const key = (index: number): string =>
      `${this.#layout.root}${APPLIED_SET}.${String(index).padStart(4, '0')}`;
    for (const [index, value] of chunks.entries()) {
      await this.#kv(client).put({ key: Buffer.from(key(index)), value: Buffer.from(value) });
    }
    // A larger set recorded before had more chunks: they go, from the first one past these.
    await this.#track(
      client.kv.deleteRange({
        key: Buffer.from(key(chunks.length)),
        range_end: Buffer.from(`${this.#layout.root}${APPLIED_SET}/`),
      }),
    );
  }

  /** What this state asked of etcd so far: for `cosi run`'s metrics. */
  figures(): EtcdFigures {
    return {
      requests: this.#requests,
      reads: this.#reads,
      writes: this.#writes,
      resourceWrites: this.#resourceWrites,
      failedRequests: this.#failedRequests,
      inFlight: this.#inFlight,
      watches: this.#watches.size,
    };
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const open of [...this.#watches]) open.queue.close();
    if (this.#client !== undefined && this.#options.client === undefined) {
      const client = await this.#client.catch(() => undefined);
      client?.close();
    }
  }

  // Reads and writes.

  async #connect(): Promise<Etcd3> {
    if (this.#closed) throw new Error('the etcd state is closed');
    this.#client ??= this.#makeClient();
    return this.#client;
  }

  /** The client's KV calls, counted while under way (see {@link settled}). */
  #kv(client: Etcd3): Pick<Etcd3['kv'], 'range' | 'txn' | 'put'> & { readTxn: Etcd3['kv']['txn'] } {
    return {
      readTxn: async (request) => {
        // A transaction of range operations only: reads.
        this.#reads++;
        return this.#track(client.kv.txn(request));
      },
      range: async (request) => {
        this.#reads++;
        return this.#track(client.kv.range(request));
      },
      txn: async (request) => {
        this.#writes++;
        return this.#track(client.kv.txn(request));
      },
      put: async (request) => {
        this.#writes++;
        return this.#track(client.kv.put(request));
      },
    };
  }

  async #opening(client: Etcd3, options: EtcdWatchOptions): Promise<EtcdWatch> {
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
    return this.#track(EtcdWatch.open(client, watching), (late) => late.close());
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
  async #track<T>(request: Promise<T>, onLate?: (value: T) => void): Promise<T> {
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
    return new Client({
      hosts: [...(this.#options.endpoints ?? [])],
      // gRPC's own deadline ends the call on the wire; the race in #track bounds the wait.
      defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + timeout }),
      grpcOptions: {
        'grpc.max_receive_message_length': MAX_RECEIVE_BYTES,
        ...(keepAlive === undefined
          ? {}
          : {
              'grpc.keepalive_time_ms': Math.max(10_000, keepAlive),
              'grpc.keepalive_timeout_ms': Math.max(10_000, keepAlive) / 2,
            }),
      },
      faultHandling: FAULT_HANDLING,
    });
  }

  async #read(pointer: Pointer): Promise<Stored | undefined> {
    const key = this.#layout.resourceKey(pointer);
    const { kv, clusterId } = await this.#reader.read(Buffer.from(key));
    this.#clusterId ??= clusterId;
    return kv
      ? { resource: this.#decoded.decode(key, kv), modRevision: kv.mod_revision }
      : undefined;
  }

  /** The matching resources of a kind, sorted by id, and the revision they were read at. */
  async #listAt(
    kind: Kind,
    options: ListOptions,
  ): Promise<{ resources: Resource[]; revision: number }> {
    const client = await this.#connect();
    const ranges = labelIndexRanges(this.#layout, kind, options);
    const listed =
      ranges === undefined
        ? await this.#scan(client, kind, options)
        : await this.#listIndexed(client, kind, options, ranges);
    // etcd orders keys by bytes (UTF-8); ids sort by UTF-16 code units everywhere else.
    listed.resources.sort((a, b) => compareStrings(a.metadata.id, b.metadata.id));
    return listed;
  }

  /** Every resource of a kind read, in pages all read at the first page's revision. */
  async #scan(
    client: Etcd3,
    kind: Kind,
    options: ListOptions,
    atRevision?: number,
  ): Promise<{ resources: Resource[]; revision: number }> {
    const prefix = Buffer.from(this.#layout.resourcePrefix(kind));
    const resources: Resource[] = [];
    let revision = atRevision;
    for await (const kv of this.#range(client, prefix, false, (r) => (revision ??= r), revision)) {
      const resource = this.#decoded.decode(kv.key.toString(), kv);
      if (matchesFilters(resource, options)) resources.push(resource);
    }
    return { resources, revision: revision as number };
  }

  /**
   * A label query answered from the label index: the ids under the index ranges, then those
   * resources, all read at one revision. When the ids are a good part of the kind, reading the
   * kind whole in pages is fewer requests than one per id, and it is read whole instead.
   */
  async #listIndexed(
    client: Etcd3,
    kind: Kind,
    options: ListOptions,
    ranges: readonly IndexRange[],
  ): Promise<{ resources: Resource[]; revision: number }> {
    let revision: number | undefined;
    const ids = new Set<string>();
    for (const range of ranges) {
      const prefix = Buffer.from(range.prefix);
      for await (const kv of this.#range(client, prefix, true, (r) => (revision ??= r), revision)) {
        ids.add(indexedId(range, kv.key.toString()));
      }
    }
    const at = revision as number;
    if (ids.size > INDEXED_READS_MAX) return this.#scan(client, kind, options, at);
    const keys = [...ids].map((id) =>
      this.#layout.resourceKey({ namespace: kind.namespace, type: kind.type, id }),
    );
    // Many reads in one request: a transaction of range operations, each at the index's
    // revision, so the list is still of one revision (a request per id cost one gRPC call each,
    // and the calls, not etcd, were the time).
    const batches: string[][] = [];
    for (let i = 0; i < keys.length; i += TXN_MAX_OPS) batches.push(keys.slice(i, i + TXN_MAX_OPS));
    const resources: Resource[] = [];
    await forEachConcurrently(batches, INDEXED_READ_CONCURRENCY, async (batch) => {
      const response = await this.#kv(client).readTxn({
        compare: [],
        success: batch.map((key) => ({ request_range: { key: Buffer.from(key), revision: at } })),
      });
      batch.forEach((key, i) => {
        const kv = response.responses[i]?.response_range.kvs[0];
        if (kv === undefined) return;
        const resource = this.#decoded.decode(key, kv);
        if (matchesFilters(resource, options)) resources.push(resource);
      });
    });
    return { resources, revision: at };
  }

  /**
   * The keys (and values, unless `keysOnly`) under `prefix`, in pages of
   * {@link LIST_PAGE_SIZE} all read at one revision: `revision` when given, else the first
   * page's, told to `onRevision`.
   */
  async *#range(
    client: Etcd3,
    prefix: Buffer,
    keysOnly: boolean,
    onRevision: (revision: number) => void,
    revision?: number,
  ): AsyncGenerator<IKeyValue> {
    const end = prefixEnd(prefix);
    let key = prefix;
    let at = revision;
    for (;;) {
      const response = await this.#kv(client).range({
        key,
        range_end: end,
        limit: LIST_PAGE_SIZE,
        ...(keysOnly ? { keys_only: true } : {}),
        ...(at === undefined ? {} : { revision: at }),
      });
      this.#learnCluster(response);
      if (at === undefined) {
        at = Number(response.header.revision);
        onRevision(at);
      }
      yield* response.kvs;
      const last = response.kvs.at(-1);
      if (!response.more || last === undefined) return;
      key = Buffer.concat([last.key, Buffer.from([0])]);
    }
  }

  async #create(draft: Draft, owner: string): Promise<Resource> {
    const created = await this.#tryCreate(draft, owner);
    if (!created) throw alreadyExists(toPointer(draft.metadata));
    return created;
  }

  /** Stores a new resource; undefined when the key is taken. */
  async #tryCreate(draft: Draft, owner: string): Promise<Resource | undefined> {
    const md = draft.metadata;
    const now = this.#now();
    md.version = 1;
    md.generation = 1;
    md.owner = owner;
    md.created = now;
    md.updated = now;
    if (md.finalizers.length > 1) md.finalizers = [...new Set(md.finalizers)];
    const keyString = this.#layout.resourceKey(md);
    const key = Buffer.from(keyString);
    const value = encodeResource(draft);
    const outcome = await this.#batcher.write({
      key,
      guard: { target: 'create' },
      ops: [
        { request_put: { key, value } },
        ...labelIndexOps(this.#layout, md, undefined, md.labels),
      ],
    });
    if (!outcome.succeeded) return undefined;
    return this.#written(keyString, md, value, outcome.revision);
  }

  /**
   * Writes `draft` as the next version of `current`, if the key is still at the revision it was
   * read at; undefined when another writer came first.
   */
  async #swap(current: Stored, draft: Draft): Promise<Resource | undefined> {
    const md = draft.metadata;
    const old = current.resource.metadata;
    md.version = old.version + 1;
    md.generation = nextGeneration(current.resource, draft.spec, md.phase);
    md.owner = old.owner;
    md.created = old.created;
    md.updated = this.#now();
    if (md.finalizers.length > 1) md.finalizers = [...new Set(md.finalizers)];
    const keyString = this.#layout.resourceKey(md);
    const key = Buffer.from(keyString);
    const value = encodeResource(draft);
    const outcome = await this.#batcher.write({
      key,
      guard: { target: 'mod', revision: current.modRevision },
      ops: [
        { request_put: { key, value } },
        ...labelIndexOps(this.#layout, md, old.labels, md.labels),
      ],
    });
    if (!outcome.succeeded) return undefined;
    return this.#written(keyString, md, value, outcome.revision);
  }

  /**
   * A put that went through: its revision noted, and the resource as stored handed back, decoded
   * from the bytes written (what every later read and event of this revision gets, the same
   * object).
   */
  #written(key: string, pointer: Pointer, value: Buffer, revision: string): Resource {
    this.#wrote(key, pointer, Number(revision));
    return this.#decoded.decode(key, { value, mod_revision: revision });
  }

  /** Notes a write's revision, for {@link settled}. */
  #wrote(key: string, pointer: Pointer, revision: number): void {
    this.#resourceWrites++;
    this.#writtenKeys.set(key, revision);
    this.#writtenKinds.set(this.#layout.resourcePrefix(pointer), revision);
  }

  #learnCluster(response: IRangeResponse): void {
    this.#clusterId ??= response.header.cluster_id;
  }

  #codec(kind: Kind): BookmarkCodec {
    return new BookmarkCodec(this.#clusterId ?? '', this.#layout.kindFolder(kind));
  }

  // Watches.

  async watchKind(kind: Kind, delivery: Delivery, options: WatchKindOptions = {}): Promise<void> {
    // The options were checked by the wrapper (bootstrap, tail and bookmark exclude each other).
    const tail = Math.floor(options.tailEvents ?? 0);
    const { startFromBookmark, signal } = options;
    const client = await this.#connect();
    await this.#clusterKnown(client);
    const codec = this.#codec(kind);
    const marker = { namespace: kind.namespace, type: kind.type };
    const initial: (ResourceEvent | { marker: 'bootstrapped' | 'noop'; revision: number })[] = [];
    let start: number;
    let after: Buffer | undefined;
    if (startFromBookmark !== undefined) {
      const position = await this.#checkBookmark(codec, startFromBookmark);
      // Within a revision, the watch starts at it and skips the changes up to the key.
      start = position.key === undefined ? position.revision + 1 : position.revision;
      if (position.key !== undefined) after = Buffer.from(position.key);
    } else if (tail > 0) {
      const prefix = this.#layout.resourcePrefix(kind);
      const replay = await this.#replay(kind, (kv) => kv.key.toString().startsWith(prefix));
      initial.push(...replay.events.slice(-tail));
      start = replay.revision + 1;
    } else if (options.bootstrap) {
      const { resources, revision } = await this.#listAt(kind, options);
      for (const resource of resources) initial.push({ type: 'created', resource });
      initial.push({ marker: 'bootstrapped', revision });
      start = revision + 1;
    } else {
      start = (await this.#revision(client)) + 1;
    }
    if (options.bootstrapBookmark) initial.push({ marker: 'noop', revision: start - 1 });
    if (signal?.aborted) return;
    const open = this.#register(this.#layout.resourcePrefix(kind), true, kind, delivery, signal);
    for (const event of initial) {
      if ('marker' in event) {
        const bookmark = codec.encode(event.revision);
        open.queue.pushInitial({ type: event.marker, kind: marker, bookmark });
      } else if (event.bookmark === undefined) {
        // Bootstrap contents: already filtered by the list.
        open.queue.pushInitial(event);
      } else {
        const seen = filterEvent(event, options);
        if (seen) open.queue.pushInitial(seen);
      }
    }
    await this.#startWatch(open, client, { start, after }, (change) => {
      const event = toEvent(change, codec, this.#decoded);
      if (event instanceof Error) {
        open.queue.fail(event);
        return;
      }
      const seen = filterEvent(event, options);
      if (seen) open.queue.push(seen);
    });
  }

  #register(
    key: string,
    prefix: boolean,
    kind: Kind,
    delivery: Delivery,
    signal: AbortSignal | undefined,
  ): OpenWatch {
    const open: OpenWatch = {
      key,
      prefix,
      etcd: undefined,
      queue: new WatchQueue(
        { namespace: kind.namespace, type: kind.type },
        delivery,
        this.#capacity,
        this.#onListenerError,
        () => {
          this.#watches.delete(open);
          open.etcd?.close();
        },
      ),
    };
    this.#watches.add(open);
    signal?.addEventListener('abort', () => open.queue.close(), { once: true });
    return open;
  }

  /**
   * Starts the etcd watch behind `open`, from revision `start` on (at `start`, only the changes
   * of keys after `after`, when given).
   */
  async #startWatch(
    open: OpenWatch,
    client: Etcd3,
    { start, after }: { start: number; after: Buffer | undefined },
    onChange: (change: EtcdChange) => void,
  ): Promise<void> {
    const key = Buffer.from(open.key);
    let etcd: EtcdWatch | undefined;
    try {
      etcd = await this.#opening(client, {
        key,
        ...(open.prefix ? { rangeEnd: prefixEnd(key) } : {}),
        startRevision: start,
        ...(after === undefined ? {} : { afterKey: after }),
        onChange,
        onError: (error) => {
          const next = (etcd?.lastRevision ?? start - 1) + 1;
          void this.#explain(client, error, next).then((reason) => open.queue.fail(reason));
        },
      });
      // The signal (or an error) may have ended the watch while etcd accepted it.
      if (open.queue.ended) etcd.close();
      else open.etcd = etcd;
    } catch (error) {
      open.queue.fail(await this.#explain(client, error, start));
    }
  }

  /** The error a watch ends with: compaction when `revision` is gone, else etcd's own. */
  async #explain(client: Etcd3, error: unknown, revision: number): Promise<Error> {
    try {
      await this.#kv(client).range({
        key: Buffer.from(this.#layout.root),
        revision,
        count_only: true,
      });
    } catch (probe) {
      if (COMPACTED.test(String(probe))) return new HistoryCompactedError(revision);
    }
    return error instanceof Error ? error : new Error(String(error));
  }

  /**
   * The position of a bookmark of this kind, if etcd still has the history after it.
   * @throws InvalidBookmarkError otherwise.
   */
  async #checkBookmark(codec: BookmarkCodec, bookmark: string): Promise<WatchPosition> {
    const client = await this.#connect();
    await this.#clusterKnown(client);
    const decoded = codec.decode(bookmark);
    // The watch reads on from the last revision read whole: it must still be there, and the
    // bookmark's own must have come.
    const reads = [decoded.revision];
    if (decoded.key !== undefined) reads.push(decoded.revision - 1);
    try {
      // A read at a revision fails when it was compacted or is yet to come.
      for (const revision of reads) {
        await this.#kv(client).range({
          key: Buffer.from(this.#layout.root),
          revision: Math.max(revision, 1),
          count_only: true,
        });
      }
    } catch (error) {
      if (COMPACTED.test(String(error)) || FUTURE_REVISION.test(String(error))) {
        throw new InvalidBookmarkError(bookmark);
      }
      throw error;
    }
    return decoded;
  }

  /**
   * The changes of a kind etcd still has (those `match` keeps, oldest first), read with a
   * watch from the oldest revision etcd has kept, up to a marker this writes into the kind's
   * folder: its event proves the watch has read everything before it.
   */
  async #replay(
    kind: Kind,
    match: (kv: IKeyValue) => boolean,
  ): Promise<{ events: ResourceEvent[]; revision: number }> {
    const client = await this.#connect();
    await this.#clusterKnown(client);
    const codec = this.#codec(kind);
    const markerKey = this.#layout.markerKey(kind);
    const folder = Buffer.from(this.#layout.kindFolder(kind));
    const events: ResourceEvent[] = [];
    let markerSeen: (revision: number) => void = () => undefined;
    const done = new Promise<number>((resolve) => {
      markerSeen = resolve;
    });
    let markerRevision = Number.POSITIVE_INFINITY;
    let corrupt: CorruptValueError | undefined;
    const watch = await this.#opening(client, {
      key: folder,
      rangeEnd: prefixEnd(folder),
      startRevision: await this.#oldestRevision(client),
      onChange: (change) => {
        if (change.revision > markerRevision) return;
        if (change.kv.key.toString() === markerKey) {
          if (change.revision === markerRevision) markerSeen(change.revision);
          return;
        }
        if (!match(change.kv)) return;
        const event = toEvent(change, codec, this.#decoded);
        // At the oldest end of the history a change may have lost its previous value to
        // compaction: the replay starts after it, with what can be told in full.
        if (event instanceof HistoryCompactedError) events.length = 0;
        else if (event instanceof CorruptValueError) corrupt ??= event;
        else events.push(event);
      },
      onError: () => markerSeen(Number.NaN),
    });
    try {
      const put = await this.#kv(client).put({
        key: Buffer.from(markerKey),
        value: Buffer.alloc(0),
      });
      markerRevision = Number(put.header.revision);
      if (watch.lastRevision >= markerRevision) markerSeen(markerRevision);
      const revision = await done;
      if (Number.isNaN(revision)) throw new HistoryCompactedError(watch.lastRevision + 1);
      if (corrupt) throw corrupt;
      return { events, revision };
    } finally {
      watch.close();
    }
  }

  /** The oldest revision etcd can still read: 1, or the revision it was last compacted at. */
  async #oldestRevision(client: Etcd3): Promise<number> {
    const readable = async (revision: number): Promise<boolean> => {
      try {
        await this.#kv(client).range({
          key: Buffer.from(this.#layout.root),
          revision,
          count_only: true,
        });
        return true;
      } catch (error) {
        if (COMPACTED.test(String(error))) return false;
        throw error;
      }
    };
    if (await readable(1)) return 1;
    // Compacted: etcd does not say where, so search (only tail replays ask).
    let lo = 1;
    let hi = await this.#revision(client);
    while (lo + 1 < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (await readable(mid)) hi = mid;
      else lo = mid;
    }
    return hi;
  }

  async #revision(client: Etcd3): Promise<number> {
    const response = await this.#kv(client).range({
      key: Buffer.from(this.#layout.root),
      count_only: true,
    });
    this.#learnCluster(response);
    return Number(response.header.revision);
  }

  /** Bookmarks carry the cluster id: learn it before the first one is made. */
  async #clusterKnown(client: Etcd3): Promise<void> {
    if (this.#clusterId === undefined) await this.#revision(client);
  }
}

/** Whether `current` passes a destroy's checks (a stale one may fail them only by being stale). */
function mayDestroy(current: Resource, options: OwnerOptions): boolean {
  try {
    checkDestroy(current, options);
    return true;
  } catch {
    return false;
  }
}

/**
 * The state event of an etcd change of a resource key: a put of the key's first version is a
 * create. etcd reads the previous value from its history; when compaction has removed it, the
 * change cannot be told as an update or a destroy, and the watch must end (a
 * {@link HistoryCompactedError}).
 */
function toEvent(
  change: EtcdChange,
  codec: BookmarkCodec,
  decoded: DecodedCache,
): ResourceEvent | HistoryCompactedError | CorruptValueError {
  try {
    return decodeEvent(change, codec, decoded);
  } catch (error) {
    // A value no resource can be read from ends the watch of its kind, with the key named.
    if (error instanceof CorruptValueError) return error;
    throw error;
  }
}

function decodeEvent(
  change: EtcdChange,
  codec: BookmarkCodec,
  decoded: DecodedCache,
): ResourceEvent | HistoryCompactedError {
  const key = change.kv.key.toString();
  const bookmark = codec.encode(change.revision, key);
  const { prev } = change;
  if (change.type === 'delete') {
    if (!prev) return new HistoryCompactedError(change.revision - 1);
    const resource = decoded.decode(key, prev);
    decoded.forget(key, change.revision);
    return { type: 'destroyed', resource, bookmark };
  }
  const resource = decoded.decode(key, change.kv);
  if (change.kv.version === '1') return { type: 'created', resource, bookmark };
  if (!prev) return new HistoryCompactedError(change.revision - 1);
  return { type: 'updated', resource, old: decoded.decode(key, prev), bookmark };
}
