import type { Etcd3, IKeyValue } from 'etcd3';
import type { EventEmitter } from 'node:events';
import type { LeanEtcd } from './lean-etcd.js';

type Listener = Parameters<EventEmitter['on']>[1];

/**
 * One change read from an etcd watch: its revision, the key as now (put) and as before (when
 * the watch asked for `previousValues`).
 */
export interface EtcdChange {
  readonly type: 'put' | 'delete';
  readonly revision: number;
  readonly kv: IKeyValue;
  readonly prev: IKeyValue | undefined;
}

export interface EtcdWatchOptions {
  /** A single key, or the start of a range with `rangeEnd`. */
  readonly key: Buffer;
  readonly rangeEnd?: Buffer;
  /** The first revision to read. */
  readonly startRevision: number;
  /**
   * Each change carries the key's value before it (etcd's `prev_kv`). etcd reads it from its
   * backend for every event it sends this watch: that doubled etcd's CPU under a converging
   * project, so a watch that knows the values itself (see `WatchedValues`) goes without.
   */
  readonly previousValues: boolean;
  /** The changes at `startRevision` up to this key (in key order) were handed on already. */
  readonly afterKey?: Buffer;
  readonly onChange: (change: EtcdChange) => void;
  /** The watch ended on etcd's side (its revision was compacted away, or it was refused). */
  readonly onError: (error: Error) => void;
  /** The connection under the watch dropped (the client reconnects by itself), and why. */
  readonly onDisconnected?: (error: Error) => void;
  /** The watch is open on etcd again after a drop. */
  readonly onReconnected?: () => void;
}

/** What this takes of a watcher, the etcd3 client's or cosi's own (`LeanWatcher`). */
interface WatcherLike {
  readonly request: { start_revision?: string | number };
  on(event: string, listener: Listener): unknown;
  once(event: string, listener: Listener): unknown;
  off(event: string, listener: Listener): unknown;
  cancel(): Promise<unknown>;
}

/**
 * An etcd watch that never loses or repeats a change across reconnects. The `etcd3` client
 * re-creates its watches when the stream drops, but resumes from the store revision it last
 * heard of, which is not always the revision of the last change it delivered. So this
 * remembers the last change handed on, by revision and key (one transaction changes several
 * keys at one revision, and cosi writes them in key order: see `TxnBatcher`), makes every
 * reconnect resume at that revision, and drops anything at or before it.
 */
export class EtcdWatch {
  /** The revision of the last change handed on (the start revision - 1 before any). */
  lastRevision: number;
  /**
   * The key of the last change handed on; undefined: every change at `lastRevision` was (the
   * response that brought them has been read whole).
   */
  #lastKey: Buffer | undefined;
  readonly #watcher: WatcherLike;
  readonly #waiters: { revision: number; resolve: () => void }[] = [];
  #closed = false;
  /** Accepted by etcd: from then on an error ends the watch (before, it fails `open`). */
  #open = false;

  private constructor(client: Etcd3, options: EtcdWatchOptions, lean: LeanEtcd | undefined) {
    this.lastRevision =
      options.afterKey === undefined ? options.startRevision - 1 : options.startRevision;
    this.#lastKey = options.afterKey;
    const watcher = lean
      ? lean.watch(
          {
            key: options.key,
            ...(options.rangeEnd === undefined ? {} : { rangeEnd: options.rangeEnd }),
            prevKv: options.previousValues,
          },
          options.startRevision,
        )
      : etcd3Watcher(client, options);
    const onEvent =
      (type: 'put' | 'delete') =>
      (kv: IKeyValue, prev?: IKeyValue): void => {
        const revision = Number(kv.mod_revision);
        if (this.#closed || !this.#isNew(revision, kv.key)) return;
        this.lastRevision = revision;
        this.#lastKey = kv.key;
        options.onChange({ type, revision, kv, prev });
        this.#wake();
      };
    watcher.on('put', onEvent('put'));
    watcher.on('delete', onEvent('delete'));
    // After the client's own listener, which hands on the events one by one: etcd never splits
    // one revision's changes across responses (it batches by revision, unless asked to fragment,
    // which this watch is not), so the revision of a response's last change has been handed on
    // whole, and a reconnect resumes after it, not at it: a compaction of that revision meanwhile
    // took nothing the watch had not seen.
    watcher.on('data', (response: { events: readonly { kv: IKeyValue }[] }) => {
      const last = response.events.at(-1);
      if (last !== undefined && Number(last.kv.mod_revision) === this.lastRevision) {
        this.#lastKey = undefined;
      }
    });
    watcher.on('disconnected', (error: Error) => {
      // Resume right after the last change handed on, whatever the client last heard of: at
      // its revision, whose other changes may not all have come.
      const resume = this.#lastKey === undefined ? this.lastRevision + 1 : this.lastRevision;
      watcher.request.start_revision = String(resume);
      if (!this.#closed) options.onDisconnected?.(error);
    });
    watcher.on('connected', () => {
      if (this.#open && !this.#closed) options.onReconnected?.();
    });
    watcher.on('error', (error: Error) => {
      if (this.#closed || !this.#open) return;
      options.onError(error);
    });
    this.#watcher = watcher;
  }

  /** Starts a watch and resolves once etcd has accepted it; rejects if etcd refuses it. */
  static async open(client: Etcd3, options: EtcdWatchOptions, lean?: LeanEtcd): Promise<EtcdWatch> {
    const watch = new EtcdWatch(client, options, lean);
    await new Promise<void>((resolve, reject) => {
      const onError = (error: Error): void => {
        watch.#watcher.off('connected', onConnected);
        reject(error);
      };
      const onConnected = (): void => {
        watch.#watcher.off('error', onError);
        watch.#open = true;
        resolve();
      };
      watch.#watcher.once('connected', onConnected);
      watch.#watcher.once('error', onError);
    });
    return watch;
  }

  /** Resolves once a change at `revision` or later has been handed on (or the watch closed). */
  async received(revision: number): Promise<void> {
    if (this.#closed || this.lastRevision >= revision) return;
    await new Promise<void>((resolve) => this.#waiters.push({ revision, resolve }));
  }

  /** Stops the watch on etcd; no change is handed on after this. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const waiter of this.#waiters.splice(0)) waiter.resolve();
    // The client may be gone already (the state was closed): nothing left to cancel then.
    this.#watcher.cancel().catch(() => undefined);
  }

  /** Whether a change comes after the last one handed on. */
  #isNew(revision: number, key: Buffer): boolean {
    if (revision !== this.lastRevision) return revision > this.lastRevision;
    return this.#lastKey !== undefined && Buffer.compare(key, this.#lastKey) > 0;
  }

  #wake(): void {
    for (let i = this.#waiters.length - 1; i >= 0; i--) {
      const waiter = this.#waiters[i] as { revision: number; resolve: () => void };
      if (waiter.revision <= this.lastRevision) {
        this.#waiters.splice(i, 1);
        waiter.resolve();
      }
    }
  }
}

/** The watch on the etcd3 client (a client given in the options, or several endpoints). */
function etcd3Watcher(client: Etcd3, options: EtcdWatchOptions): WatcherLike {
  const builder = client.watch().startRevision(String(options.startRevision));
  if (options.previousValues) builder.withPreviousKV();
  if (options.rangeEnd === undefined) builder.key(options.key);
  else builder.inRange({ start: options.key, end: options.rangeEnd });
  return builder.watcher();
}
