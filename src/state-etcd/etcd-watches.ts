import type { Etcd3, IKeyValue, IRangeResponse } from 'etcd3';
import { HistoryCompactedError, InvalidBookmarkError } from '../engine/errors.js';
import { ALL_NAMESPACES, toPointer, type Kind, type Pointer } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import type {
  ListOptions,
  ResourceEvent,
  WatchKindOptions,
  WatchListener,
  WatchOptions,
} from '../engine/state/state.js';
import { createTombstone } from '../engine/state/tombstone.js';
import { filterEvent, hasFilters, matchesFilters } from '../engine/state/watch-filters.js';
import type { Delivery } from '../engine/state/watch-delivery.js';
import { BookmarkCodec, type WatchPosition } from './bookmark.js';
import type { EtcdChange, EtcdWatch, EtcdWatchOptions } from './etcd-watch.js';
import { prefixEnd, type KeyLayout } from './key-layout.js';
import type { DecodedCache } from './decoded-cache.js';
import { CorruptValueError } from './etcd-errors.js';
import { WatchQueue } from './watch-queue.js';
import type { CountedKv, EtcdConnection } from './etcd-connection.js';
import { toEvent, type UntrackedChangeError, type WatchedValues } from './etcd-change-event.js';
import type { WatchedReads } from './watched-reads.js';
import { WatchedValueMap } from './watched-values.js';

/** An open watch, with what {@link EtcdCore.settled} needs to know of it. */
export interface OpenWatch {
  /** The key it watches, or the prefix of the keys (`prefix: true`). */
  readonly key: string;
  readonly prefix: boolean;
  etcd: EtcdWatch | undefined;
  readonly queue: WatchQueue;
}

/**
 * The one etcd watch of the state's namespaces (its whole range but the label index: see
 * `KeyLayout`), shared by the watches of every namespace. It gets every change of a resource,
 * marker, election or applied-set key: each change's key is parsed once, and the change handed
 * to the watches of its type only.
 */
interface AllNamespacesHub {
  etcd: EtcdWatch | undefined;
  /** Its watches, by the type they watch. */
  readonly listeners: Map<string, Set<HubListener>>;
  closed: boolean;
}

/** A watch of a type in every namespace, fed by the {@link AllNamespacesHub}. */
interface HubListener {
  readonly type: string;
  readonly options: WatchKindOptions;
  readonly open: OpenWatch;
  /** The bookmark codec of each namespace's kind. */
  readonly codecs: Map<string, BookmarkCodec>;
  /** Changes of its type that came while the watch was joining (listing), handed on after it. */
  waiting: { change: EtcdChange; changed: Kind }[] | undefined;
  /** The revision the watch starts after: its changes up to it are not handed on. */
  after: number;
  /**
   * The value of every resource of its type as of its last change (listed when it joined), from
   * which its updates and destroys are told: the shared watch asks etcd for no previous values.
   */
  readonly watched: WatchedValues;
}

/** etcd's message for a read or watch of a revision compaction removed. */
const COMPACTED = /compacted/i;
/** etcd's message for a read of a revision not written yet. */
const FUTURE_REVISION = /future revision/i;

/** What {@link EtcdWatches} takes of the core it watches for. */
export interface EtcdWatchesOptions {
  readonly connection: EtcdConnection;
  readonly layout: KeyLayout;
  /** The core's cache: a watch's events hand on the objects its reads decoded. */
  readonly decoded: DecodedCache;
  /** The open watches, which the core waits on (`settled`), counts and closes. */
  readonly watches: Set<OpenWatch>;
  /** How many events may wait for a slow listener. */
  readonly capacity: number;
  readonly onListenerError: (error: unknown) => void;
  /**
   * The core's list of a kind at one revision, for a bootstrap or the values a watch keeps
   * (each resource told to `onListed` with the key it was read from).
   */
  readonly listAt: (
    kind: Kind,
    options: ListOptions,
    onListed?: (key: string, resource: Resource) => void,
  ) => Promise<{ resources: Resource[]; revision: number }>;
  /** Given the values of each watch that keeps its kind whole, to answer reads from. */
  readonly cached?: WatchedReads;
}

/**
 * The watches of an etcd state: etcd watches from a known revision, each behind a queue that
 * hands its events to the listener; bookmarks are etcd revisions, so a watch resumes after a
 * reconnect, or in another process, without a lost or repeated event, for as long as etcd keeps
 * that history (until compaction).
 */
export class EtcdWatches {
  readonly #connection: EtcdConnection;
  readonly #layout: KeyLayout;
  readonly #decoded: DecodedCache;
  readonly #watches: Set<OpenWatch>;
  readonly #capacity: number;
  readonly #onListenerError: (error: unknown) => void;
  readonly #listAt: EtcdWatchesOptions['listAt'];
  readonly #cached: WatchedReads | undefined;
  /** The watch of the namespaces the watches of every namespace share, once one asked. */
  #hubOpening: Promise<AllNamespacesHub> | undefined;

  constructor(options: EtcdWatchesOptions) {
    this.#connection = options.connection;
    this.#layout = options.layout;
    this.#decoded = options.decoded;
    this.#watches = options.watches;
    this.#capacity = options.capacity;
    this.#onListenerError = options.onListenerError;
    this.#listAt = options.listAt;
    this.#cached = options.cached;
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
    // Started from a read of the key, the watch knows its value; resumed or replayed, it does not
    // and asks etcd for the value before each change.
    let watched: WatchedValues | undefined;
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
      watched = new WatchedValueMap();
      if (kv) {
        const resource = this.#decoded.decode(key, kv);
        watched.set(key, resource);
        initial.push({ type: 'created', resource });
      } else {
        initial.push({ type: 'destroyed', resource: createTombstone(toPointer(pointer)) });
      }
      start = Number(response.header.revision) + 1;
    }
    if (signal?.aborted) return;
    const open = this.#register(key, false, kind, { aggregated: false, listener }, signal);
    for (const event of initial) open.queue.pushInitial(event);
    await this.#startWatch(open, client, { start, after, watched }, (change) => {
      const event = toEvent(change, codec, this.#decoded, watched);
      if (event instanceof Error) open.queue.fail(event);
      else open.queue.push(event);
    });
  }

  async watchKind(kind: Kind, delivery: Delivery, options: WatchKindOptions = {}): Promise<void> {
    // The options were checked by the wrapper (bootstrap, tail and bookmark exclude each other;
    // a watch of every namespace takes neither a tail nor a bookmark).
    if (kind.namespace === ALL_NAMESPACES) {
      await this.#watchAllNamespaces(kind, delivery, options);
      return;
    }
    const tail = Math.floor(options.tailEvents ?? 0);
    const { startFromBookmark, signal } = options;
    const client = await this.#connect();
    await this.#clusterKnown(client);
    const codec = this.#codec(kind);
    const marker = { namespace: kind.namespace, type: kind.type };
    const initial: (ResourceEvent | { marker: 'bootstrapped' | 'noop'; revision: number })[] = [];
    let start: number;
    let after: Buffer | undefined;
    // Started from a list of the whole kind, the watch knows every value before its first change
    // and keeps them; resumed, replayed or filtered, it asks etcd for the value before each.
    let watched: WatchedValues | undefined;
    const whole = !hasFilters(options);
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
      const listed: WatchedValues = new WatchedValueMap();
      const { resources, revision } = await this.#listAt(
        kind,
        options,
        whole ? (key, resource) => listed.set(key, resource) : undefined,
      );
      for (const resource of resources) initial.push({ type: 'created', resource });
      initial.push({ marker: 'bootstrapped', revision });
      if (whole) watched = listed;
      start = revision + 1;
    } else if (whole) {
      // A list rather than the revision alone: one read of the kind (its values mostly decoded
      // already) instead of etcd reading the value before every change it sends. A kind holding
      // a value that is no resource cannot be listed: watched as before, it fails only if that
      // key changes.
      try {
        const listed: WatchedValues = new WatchedValueMap();
        const { revision } = await this.#listAt(kind, {}, (key, resource) =>
          listed.set(key, resource),
        );
        watched = listed;
        start = revision + 1;
      } catch (error) {
        if (!(error instanceof CorruptValueError)) throw error;
        start = (await this.#revision(client)) + 1;
      }
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
    await this.#startWatch(open, client, { start, after, watched }, (change) => {
      const event = toEvent(change, codec, this.#decoded, watched);
      if (event instanceof Error) {
        open.queue.fail(event);
        return;
      }
      const seen = filterEvent(event, options);
      if (seen) open.queue.push(seen);
    });
    // Every value of the kind as of the watch's last change: reads of the kind may use them.
    const { etcd } = open;
    if (watched !== undefined && etcd !== undefined && !open.queue.ended) {
      const values = watched;
      this.#cached?.add(kind, {
        values,
        revision: () => (open.queue.ended ? undefined : etcd.lastRevision),
      });
    }
  }

  /**
   * {@link watchKind} of a type in every namespace. A kind's folder is under its namespace's, so
   * a type is no one key range: every such watch shares one etcd watch of the state's
   * namespaces (see {@link AllNamespacesHub}), of which each takes its type's changes, each with the
   * bookmark of its own kind. A watch joins it, reads the revision etcd is at (and with
   * `bootstrap` the type's contents at it), then gets the changes after that revision, those
   * that came meanwhile first.
   */
  async #watchAllNamespaces(
    kind: Kind,
    delivery: Delivery,
    options: WatchKindOptions,
  ): Promise<void> {
    const { signal } = options;
    const client = await this.#connect();
    await this.#clusterKnown(client);
    const hub = await this.#openHub(client);
    if (signal?.aborted) return;
    const marker = { namespace: ALL_NAMESPACES, type: kind.type };
    const listener: HubListener = {
      type: kind.type,
      options,
      codecs: new Map(),
      waiting: [],
      after: Number.POSITIVE_INFINITY,
      watched: new WatchedValueMap(),
      open: {
        key: this.#layout.root,
        prefix: true,
        etcd: hub.etcd,
        queue: new WatchQueue(marker, delivery, this.#capacity, this.#onListenerError, () => {
          this.#watches.delete(listener.open);
          const ofType = hub.listeners.get(listener.type);
          ofType?.delete(listener);
          if (ofType?.size === 0) hub.listeners.delete(listener.type);
          if (hub.listeners.size === 0) this.#closeHub(hub);
        }),
      },
    };
    this.#watches.add(listener.open);
    signal?.addEventListener('abort', () => listener.open.queue.close(), { once: true });
    let ofType = hub.listeners.get(listener.type);
    if (ofType === undefined) hub.listeners.set(listener.type, (ofType = new Set()));
    ofType.add(listener);
    // The watch starts at the revision etcd is at now, the contents read at it: the shared watch
    // may be behind it (its changes up to it are dropped as they come) or ahead (those after it
    // waited meanwhile).
    // The whole type is listed, filters or not, to keep every value (see HubListener.watched).
    let from: number;
    try {
      const { resources, revision } = await this.#listAt(kind, {}, (key, resource) =>
        listener.watched.set(key, resource),
      );
      if (options.bootstrap) {
        for (const resource of resources) {
          if (matchesFilters(resource, options)) {
            listener.open.queue.pushInitial({ type: 'created', resource });
          }
        }
        listener.open.queue.pushInitial({ type: 'bootstrapped', kind: marker });
      }
      from = revision;
    } catch (error) {
      listener.open.queue.fail(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const waiting = listener.waiting ?? [];
    listener.after = from;
    listener.waiting = undefined;
    for (const { change, changed } of waiting) this.#handToListener(listener, change, changed);
    // Its type's values as of the later of its list and the shared watch's last change: reads of
    // the type may use them.
    this.#cached?.add(kind, {
      values: listener.watched,
      revision: () =>
        hub.closed || listener.open.queue.ended
          ? undefined
          : Math.max(listener.after, hub.etcd.lastRevision),
    });
  }

  /** The shared watch of the namespaces, opened on first use from the current revision. */
  async #openHub(client: Etcd3): Promise<AllNamespacesHub & { etcd: EtcdWatch }> {
    this.#hubOpening ??= (async () => {
      const listeners = new Map<string, Set<HubListener>>();
      const hub: AllNamespacesHub = { etcd: undefined, listeners, closed: false };
      const start = (await this.#revision(client)) + 1;
      hub.etcd = await this.#opening(client, {
        // The namespaces, without the label index (see KeyLayout).
        key: Buffer.from(this.#layout.root),
        rangeEnd: this.#layout.namespacesEnd,
        startRevision: start,
        // Each listener keeps the values of its type: etcd reads no value before a change.
        previousValues: false,
        onChange: (change) => {
          const changed = this.#layout.parseKind(change.kv.key.toString());
          // Not a resource (a marker, an election key, the applied set), or of a type no watch
          // here wants.
          if (changed === undefined) return;
          const ofType = listeners.get(changed.type);
          if (ofType === undefined) return;
          for (const listener of ofType) {
            if (listener.waiting) listener.waiting.push({ change, changed });
            else this.#handToListener(listener, change, changed);
          }
        },
        onError: (error) => {
          const next = (hub.etcd?.lastRevision ?? start - 1) + 1;
          this.#closeHub(hub);
          void this.#explain(client, error, next).then((reason) => {
            for (const ofType of [...listeners.values()]) {
              for (const listener of [...ofType]) listener.open.queue.fail(reason);
            }
          });
        },
      });
      return hub;
    })();
    const opening = this.#hubOpening;
    let hub: AllNamespacesHub;
    try {
      hub = await opening;
    } catch (error) {
      if (this.#hubOpening === opening) this.#hubOpening = undefined;
      throw error;
    }
    // Closed meanwhile (its last watch left, or it failed): open another.
    if (hub.closed) {
      if (this.#hubOpening === opening) this.#hubOpening = undefined;
      return this.#openHub(client);
    }
    return hub as AllNamespacesHub & { etcd: EtcdWatch };
  }

  /** Closes the shared watch (its last listener left, or it failed): the next one opens anew. */
  #closeHub(hub: AllNamespacesHub): void {
    hub.closed = true;
    hub.etcd?.close();
  }

  /** A change of a resource of the listener's type (of kind `changed`), handed to its watch. */
  #handToListener(listener: HubListener, change: EtcdChange, changed: Kind): void {
    // A change the watch's start (its contents) already has.
    if (change.revision <= listener.after) return;
    let codec = listener.codecs.get(changed.namespace);
    if (codec === undefined) listener.codecs.set(changed.namespace, (codec = this.#codec(changed)));
    const event = toEvent(change, codec, this.#decoded, listener.watched);
    if (event instanceof Error) {
      listener.open.queue.fail(event);
      return;
    }
    const seen = filterEvent(event, listener.options);
    if (seen) listener.open.queue.push(seen);
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
   * of keys after `after`, when given); without the values before each change when the watch
   * keeps them (`watched`).
   */
  async #startWatch(
    open: OpenWatch,
    client: Etcd3,
    {
      start,
      after,
      watched,
    }: { start: number; after: Buffer | undefined; watched: WatchedValues | undefined },
    onChange: (change: EtcdChange) => void,
  ): Promise<void> {
    const key = Buffer.from(open.key);
    let etcd: EtcdWatch | undefined;
    try {
      etcd = await this.#opening(client, {
        key,
        ...(open.prefix ? { rangeEnd: prefixEnd(key) } : {}),
        startRevision: start,
        previousValues: watched === undefined,
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
    let corrupt: CorruptValueError | UntrackedChangeError | undefined;
    const watch = await this.#opening(client, {
      key: folder,
      rangeEnd: prefixEnd(folder),
      startRevision: await this.#oldestRevision(client),
      previousValues: true,
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
        else if (event instanceof Error) corrupt ??= event;
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

  #learnCluster(response: IRangeResponse): void {
    this.#clusterId ??= response.header.cluster_id;
  }

  #codec(kind: Kind): BookmarkCodec {
    return new BookmarkCodec(this.#clusterId ?? '', this.#layout.kindFolder(kind));
  }

  /** The etcd cluster's id, kept by the connection: learnt from any answer. */
  get #clusterId(): string | undefined {
    return this.#connection.clusterId;
  }

  set #clusterId(id: string | undefined) {
    this.#connection.clusterId = id;
  }

  async #connect(): Promise<Etcd3> {
    return this.#connection.connect();
  }

  #kv(client: Etcd3): CountedKv {
    return this.#connection.kv(client);
  }

  async #opening(client: Etcd3, options: EtcdWatchOptions): Promise<EtcdWatch> {
    return this.#connection.opening(client, options);
  }
}
