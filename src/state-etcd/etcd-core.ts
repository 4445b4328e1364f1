import type { Etcd3, IKeyValue, IRangeResponse } from 'etcd3';
import { compareStrings } from '../engine/compare-strings.js';
import { alreadyExists, NotFoundError } from '../engine/errors.js';
import {
  ALL_NAMESPACES,
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
  UpdateOptions,
  WatchKindOptions,
  WatchListener,
  WatchOptions,
} from '../engine/state/state.js';
import { checkCreatedNamespace, checkDestroy, checkUpdate } from '../engine/state/write-checks.js';
import { matchesFilters } from '../engine/state/watch-filters.js';
import { KeyLayout, prefixEnd } from './key-layout.js';
import { migrateLegacyLabelIndex } from './label-index-migration.js';
import { indexedId, labelIndexOps, labelIndexRanges, type IndexRange } from './label-index.js';
import { DecodedCache } from './decoded-cache.js';
import type { ConnectionFailure } from './connection-failure.js';
import { DEFAULT_REQUEST_TIMEOUT } from './etcd-errors.js';
import { encodeResource } from './resource-codec.js';
import type { Delivery } from '../engine/state/watch-delivery.js';
import { forEachConcurrently } from '../engine/for-each-concurrently.js';
import { TXN_MAX_OPS, TxnBatcher } from './txn-batcher.js';
import { ReadBatcher } from './read-batcher.js';
import type { EtcdStateOptions } from './etcd-state-options.js';
import { EtcdConnection, type CountedKv, type WatchConnectionChange } from './etcd-connection.js';
import { AppliedSetRecord, type AppliedMetadata } from './applied-set-record.js';
import { EtcdWatches, type OpenWatch } from './etcd-watches.js';
import { WatchedReads } from './watched-reads.js';

/**
 * Resources per `range` request of a list: a whole kind in one reply would outgrow a gRPC
 * message at about 10,000 resources. Exported for the tests.
 */
export const LIST_PAGE_SIZE = 500;

/**
 * A label query whose index finds more ids than this reads the kind whole (in pages of
 * {@link LIST_PAGE_SIZE}) rather than its resources by key ({@link TXN_MAX_OPS} per request).
 */
const INDEXED_READS_MAX = 2 * LIST_PAGE_SIZE;

/** Transactions of reads by key a label query keeps under way at once. */
const INDEXED_READ_CONCURRENCY = 16;

/** Told each resource a list returns, with the key it was read from. */
type OnListed = (key: string, resource: Resource) => void;

/** A stored resource with the etcd revision of its last write, for compare-and-swap. */
interface Stored {
  readonly resource: Resource;
  readonly modRevision: string;
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
  /** Gets and lists answered from the values this state's watches keep, without a request. */
  readonly cachedReads: number;
}

/**
 * The {@link StateCore} on etcd v3. Resources are JSON under `<prefix>/<namespace>/<type>/r/<id>`
 * (see {@link KeyLayout}); every write is one etcd transaction that compares the key's
 * `mod_revision` with the one read, so a writer that lost a race re-reads and fails (or retries)
 * exactly as it would in memory. Watches are etcd watches from a known revision; bookmarks are
 * etcd revisions, so a watch resumes after a reconnect, or in another process, without a lost or
 * repeated event, for as long as etcd keeps that history (until compaction).
 *
 * A list with a label equality, `in` or `exists` query reads the kind's label index (index keys
 * written in the same transaction as the resource, apart from the namespaces: see label-index.ts
 * and KeyLayout; an earlier version's index is moved there on the first request, see
 * label-index-migration.ts) and then only the
 * resources it names, so "the placements on this host" costs what it returns; other lists read
 * the whole kind. It offers no synchronous fast path (`SyncCore`): etcd cannot answer without
 * a round trip. `createEtcdState` wraps it (`wrapCore`).
 */
export class EtcdCore implements StateCore {
  readonly #layout: KeyLayout;
  readonly #now: () => number;
  /** The client, its requests counted and bounded, the probe. */
  readonly #connection: EtcdConnection;
  readonly #appliedSet: AppliedSetRecord;
  readonly #watching: EtcdWatches;
  /** The open watches (kept by #watching): settled waits on them, close ends them. */
  readonly #watches = new Set<OpenWatch>();
  /** Decoded resources by key and revision: see {@link DecodedCache}. */
  readonly #decoded = new DecodedCache();
  /** The revision of this state's last write, by key and by kind (resource prefix). */
  readonly #writtenKeys = new Map<string, number>();
  readonly #writtenKinds = new Map<string, number>();
  /** The last revision this state wrote, for a watch of every namespace (all the namespaces). */
  #writtenLast: number | undefined;
  #resourceWrites = 0;
  /** Whether the label index is where this version keeps it (see {@link #connect}). */
  #indexMoved = false;
  #indexMoving: Promise<void> | undefined;
  /** Reads answered from the watches' values (undefined: `cachedReads: false`, all go to etcd). */
  readonly #cached: WatchedReads | undefined;
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
    this.#layout = new KeyLayout(options.prefix);
    this.#now = options.now ?? Date.now;
    const timeout = options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT;
    if (!(timeout > 0)) throw new RangeError(`requestTimeout must be positive, got ${timeout}`);
    this.#connection = new EtcdConnection(options, this.#layout, timeout);
    this.#appliedSet = new AppliedSetRecord(this.#layout, this.#connection);
    this.#cached = options.cachedReads === false ? undefined : new WatchedReads(this.#layout);
    this.#watching = new EtcdWatches({
      connection: this.#connection,
      layout: this.#layout,
      decoded: this.#decoded,
      watches: this.#watches,
      capacity,
      onListenerError: options.onListenerError ?? (() => undefined),
      listAt: async (kind, listOptions, onListed) => this.#listAt(kind, listOptions, onListed),
      ...(this.#cached ? { cached: this.#cached } : {}),
    });
  }

  async get<S = unknown>(pointer: TypedPointer<S>): Promise<Resource<S>> {
    // Not older than what this state has seen of the key by any means (lastSeen's value).
    const key = this.#layout.resourceKey(pointer);
    const cached = this.#cached?.get(
      pointer,
      key,
      Number(this.#decoded.latest(key)?.revision ?? 0),
    );
    if (cached !== undefined) {
      if (cached.found === null) throw new NotFoundError(toPointer(pointer));
      return cached.found as Resource<S>;
    }
    const found = await this.#read(pointer);
    if (!found) throw new NotFoundError(toPointer(pointer));
    return found.resource as Resource<S>;
  }

  async list<S = unknown>(kind: TypedKind<S>, options: ListOptions = {}): Promise<Resource<S>[]> {
    const cached = this.#cached?.list(kind, options);
    if (cached !== undefined) return cached.found as Resource<S>[];
    const { resources, revision } = await this.#listAt(kind, options);
    this.#cached?.saw(kind.type, revision);
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
    return this.#watching.watch(pointer, listener, options);
  }

  async watchKind(kind: Kind, delivery: Delivery, options: WatchKindOptions = {}): Promise<void> {
    return this.#watching.watchKind(kind, delivery, options);
  }

  async kinds(): Promise<Kind[]> {
    const client = await this.#connect();
    const response = await this.#kv(client).range({
      key: Buffer.from(this.#layout.root),
      range_end: this.#layout.namespacesEnd,
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
        if (this.#connection.inFlight === 0)
          await new Promise<void>((resolve) => setImmediate(resolve));
        else await this.#connection.idle();
      }
      const waits: Promise<void>[] = [];
      for (const open of this.#watches) {
        const target = !open.prefix
          ? this.#writtenKeys.get(open.key)
          : open.key === this.#layout.root
            ? this.#writtenLast
            : this.#writtenKinds.get(open.key);
        if (target !== undefined && open.etcd) waits.push(open.etcd.received(target));
      }
      await Promise.all(waits);
      await new Promise<void>((resolve) => setImmediate(resolve));
    } while (this.#busy());
  }

  /** Requests under way, or reads and writes waiting for their batch. */
  #busy(): boolean {
    return this.#connection.inFlight > 0 || this.#batcher.busy > 0 || this.#reader.busy > 0;
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
    return this.#connection.probe(timeout, timeoutFlag, options);
  }

  /**
   * The resources `cosi run` applied from its manifests last (see {@link writeAppliedSet}), or
   * `undefined` when none was recorded here (a state no run of this version applied to).
   */
  async readAppliedSet(): Promise<AppliedEntry[] | undefined> {
    return this.#appliedSet.readAppliedSet();
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
    return this.#appliedSet.writeAppliedSet(applied);
  }

  /** What this state asked of etcd so far: for `cosi run`'s metrics. */
  figures(): EtcdFigures {
    const { requests, reads, writes, failedRequests, inFlight } = this.#connection.counts();
    return {
      requests,
      reads,
      writes,
      resourceWrites: this.#resourceWrites,
      failedRequests,
      inFlight,
      watches: this.#watches.size,
      cachedReads: this.#cached?.hits ?? 0,
    };
  }

  async close(): Promise<void> {
    if (this.#connection.closed) return;
    this.#connection.refuseRequests();
    for (const open of [...this.#watches]) open.queue.close();
    await this.#connection.closeClient();
  }

  /**
   * Tells `listener` when the connection under this state's watches drops (with why, said as
   * `etcd unreachable at HOST:PORT: ...`) and when every watch is open again; returns how to stop.
   */
  onWatchConnection(listener: (change: WatchConnectionChange) => void): () => void {
    return this.#connection.onWatchConnection(listener);
  }

  // Reads and writes.

  /**
   * The client, once the label index an earlier version left in the kinds' folders has been
   * moved (see {@link migrateLegacyLabelIndex}): before this state's first read or write. The
   * watches connect without it: they read no index.
   */
  async #connect(): Promise<Etcd3> {
    const client = await this.#connection.connect();
    if (!this.#indexMoved) await this.#moveIndex(client);
    return client;
  }

  /** Moves the old label index once; a failure fails the request, and the next one tries again. */
  async #moveIndex(client: Etcd3): Promise<void> {
    const moving = (this.#indexMoving ??= migrateLegacyLabelIndex(
      this.#kv(client),
      this.#layout,
      (key, kv) => this.#decoded.decode(key, kv),
    ).then(
      () => {
        this.#indexMoved = true;
      },
      (error: unknown) => {
        this.#indexMoving = undefined;
        throw error;
      },
    ));
    await moving;
  }

  #kv(client: Etcd3): CountedKv {
    return this.#connection.kv(client);
  }

  async #read(pointer: Pointer): Promise<Stored | undefined> {
    const key = this.#layout.resourceKey(pointer);
    const { kv, clusterId, revision } = await this.#reader.read(Buffer.from(key));
    this.#clusterId ??= clusterId;
    // What this read saw of the key is the floor of later cached reads (see WatchedReads).
    this.#cached?.saw(pointer.type, kv ? Number(kv.mod_revision) : revision);
    return kv
      ? { resource: this.#decoded.decode(key, kv), modRevision: kv.mod_revision }
      : undefined;
  }

  /**
   * The matching resources of a kind, sorted by id, and the revision they were read at; each
   * also told to `onListed` with its key, as it is read.
   */
  async #listAt(
    kind: Kind,
    options: ListOptions,
    onListed?: OnListed,
  ): Promise<{ resources: Resource[]; revision: number }> {
    const client = await this.#connect();
    if (kind.namespace === ALL_NAMESPACES)
      return this.#listAllNamespaces(client, kind.type, options, onListed);
    const ranges = labelIndexRanges(this.#layout, kind, options);
    const listed =
      ranges === undefined
        ? await this.#scan(client, kind, options, onListed)
        : await this.#listIndexed(client, kind, options, ranges, onListed);
    // etcd orders keys by bytes (UTF-8); ids sort by UTF-16 code units everywhere else.
    listed.resources.sort((a, b) => compareStrings(a.metadata.id, b.metadata.id));
    return listed;
  }

  /**
   * A type in every namespace, sorted by namespace, then id, all read at one revision. etcd keeps
   * a kind's folder under its namespace's (`<root>/<namespace>/<type>/`), so the namespaces are
   * found by skipping from one to the next, a one-key read each, and each is read for the type:
   * the cost grows with the namespaces and the type's resources, not with the whole state (a
   * key-only read of every key under the root took 1.3 s with 50,000 keys of other types).
   */
  async #listAllNamespaces(
    client: Etcd3,
    type: string,
    options: ListOptions,
    onListed: OnListed | undefined,
  ): Promise<{ resources: Resource[]; revision: number }> {
    const namespaces = await this.#namespaces(client);
    const resources: Resource[] = [];
    for (const namespace of namespaces.names.sort(compareStrings)) {
      const kind = { namespace, type };
      const listed = await this.#scan(client, kind, options, onListed, namespaces.revision);
      listed.resources.sort((a, b) => compareStrings(a.metadata.id, b.metadata.id));
      resources.push(...listed.resources);
    }
    return { resources, revision: namespaces.revision };
  }

  /** The namespaces that hold any key, at the revision of the first read, one read each. */
  async #namespaces(client: Etcd3): Promise<{ names: string[]; revision: number }> {
    const root = this.#layout.root;
    const end = this.#layout.namespacesEnd;
    const names: string[] = [];
    let from: Buffer = Buffer.from(root);
    let revision: number | undefined;
    for (;;) {
      // A first page: a small state's keys, all of them, in one read.
      const first = revision === undefined;
      const response = await this.#kv(client).range({
        key: from,
        range_end: end,
        limit: first ? LIST_PAGE_SIZE : 1,
        keys_only: true,
        ...(revision === undefined ? {} : { revision }),
      });
      this.#learnCluster(response);
      revision ??= Number(response.header.revision);
      if (first && !response.more) {
        const found = new Set<string>();
        for (const { key } of response.kvs) {
          const name = namespaceOfKey(root, key.toString());
          if (name !== undefined) found.add(name);
        }
        return { names: [...found], revision };
      }
      const kv = response.kvs[0];
      if (kv === undefined) return { names, revision };
      const key = kv.key.toString();
      const slash = key.indexOf('/', root.length);
      if (slash < 0) {
        from = Buffer.concat([kv.key, Buffer.from([0])]);
        continue;
      }
      const name = namespaceOfKey(root, key);
      if (name !== undefined) names.push(name);
      // Past every key of that namespace: its folder's prefix end.
      from = prefixEnd(Buffer.from(key.slice(0, slash + 1)));
    }
  }

  /** Every resource of a kind read, in pages all read at the first page's revision. */
  async #scan(
    client: Etcd3,
    kind: Kind,
    options: ListOptions,
    onListed: OnListed | undefined,
    atRevision?: number,
  ): Promise<{ resources: Resource[]; revision: number }> {
    const prefix = Buffer.from(this.#layout.resourcePrefix(kind));
    const resources: Resource[] = [];
    let revision = atRevision;
    for await (const kv of this.#range(client, prefix, false, (r) => (revision ??= r), revision)) {
      const key = kv.key.toString();
      const resource = this.#decoded.decode(key, kv);
      if (!matchesFilters(resource, options)) continue;
      resources.push(resource);
      onListed?.(key, resource);
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
    onListed: OnListed | undefined,
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
    if (ids.size > INDEXED_READS_MAX) return this.#scan(client, kind, options, onListed, at);
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
        if (!matchesFilters(resource, options)) return;
        resources.push(resource);
        onListed?.(key, resource);
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
    checkCreatedNamespace(md);
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
    this.#cached?.saw(pointer.type, revision);
    this.#writtenKeys.set(key, revision);
    this.#writtenKinds.set(this.#layout.resourcePrefix(pointer), revision);
    if (this.#writtenLast === undefined || revision > this.#writtenLast) {
      this.#writtenLast = revision;
    }
  }

  #learnCluster(response: IRangeResponse): void {
    this.#clusterId ??= response.header.cluster_id;
  }

  /** The etcd cluster's id, kept by the connection: learnt from any answer. */
  get #clusterId(): string | undefined {
    return this.#connection.clusterId;
  }

  set #clusterId(id: string | undefined) {
    this.#connection.clusterId = id;
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

/** The namespace of a key under `root` (its URI-encoded first segment); undefined: none. */
function namespaceOfKey(root: string, key: string): string | undefined {
  const slash = key.indexOf('/', root.length);
  if (slash < 0) return undefined;
  try {
    return decodeURIComponent(key.slice(root.length, slash));
  } catch {
    return undefined;
  }
}
