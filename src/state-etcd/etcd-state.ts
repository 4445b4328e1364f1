import type { State } from '../engine/state/state.js';
import type { AppliedEntry } from '../engine/state/resource-applier.js';
import { CoreState } from '../engine/state/wrap-core.js';
import type { ConnectionFailure } from './connection-failure.js';
import { EtcdCore, type EtcdFigures } from './etcd-core.js';
import type { EtcdStateOptions } from './etcd-state-options.js';
import type { WatchConnectionChange } from './etcd-connection.js';
import type { AppliedMetadata } from './applied-set-record.js';

export { LIST_PAGE_SIZE, type EtcdFigures } from './etcd-core.js';
export type { EtcdStateOptions } from './etcd-state-options.js';
export { ETCD_MAX_REQUEST_BYTES, type WatchConnectionChange } from './etcd-connection.js';
export type { AppliedMetadata } from './applied-set-record.js';

/** How {@link EtcdState.probe} waits for an etcd that refuses connections. */
export interface ProbeOptions {
  /** Try a failed connection again until the timeout. */
  readonly wait?: boolean;
  /** Told once, at the first failure that is tried again, why etcd is waited for. */
  readonly onWait?: (failure: ConnectionFailure) => void;
}

/** What {@link createEtcdState} returns: a {@link State} on etcd, and its lifecycle. */
export interface EtcdState extends State {
  /**
   * Resolves once this state's requests under way are done (an operation waiting on a watch,
   * as `teardownAndDestroy` on finalizers, counts as idle) and every open watch of this state
   * has received the changes this state wrote so far and handed them to its listeners (one
   * still busy with an earlier change's promise gets them when it is done). Tests, and callers that must see their own writes on a watch, wait with
   * it instead of sleeping. Changes written by other clients are not waited for.
   */
  settled(): Promise<void>;
  /**
   * Asks etcd one cheap question within `timeout` ms: whether it can be reached at all.
   * `timeoutFlag` (`--connect-timeout` by default) is the flag the error advises to raise.
   *
   * With `wait`, a connection that fails (refused: an etcd still starting) is tried again
   * until `timeout`.
   *
   * @throws EtcdUnreachableError (one line, saying what to check) when it cannot.
   */
  probe(timeout: number, timeoutFlag?: string, options?: ProbeOptions): Promise<void>;
  /** What this state asked of etcd so far (requests, failures, in flight, open watches). */
  figures(): EtcdFigures;
  /**
   * The set of resources `cosi run` applied from its manifests last, with the keys of the labels
   * and annotations each manifest set (when recorded); `undefined`: none kept.
   */
  readAppliedSet(): Promise<AppliedEntry[] | undefined>;
  /**
   * Records the set of resources `cosi run` applied from its manifests (an ApplySet), with the
   * keys of their labels and annotations.
   */
  writeAppliedSet(applied: readonly AppliedMetadata[]): Promise<void>;
  /**
   * Tells `listener` when the connection under this state's watches drops (the watches resume
   * by themselves once etcd is back) and when they are all open again; returns how to stop.
   */
  onWatchConnection(listener: (change: WatchConnectionChange) => void): () => void;
  /** Ends every watch and, when the state made its client, closes it. */
  close(): Promise<void>;
}

/** The etcd core wrapped (see `wrapCore`), with the core's lifecycle handed on. */
class WrappedEtcdCore extends CoreState implements EtcdState {
  readonly #core: EtcdCore;

  constructor(options: EtcdStateOptions) {
    const core = new EtcdCore(options);
    super(core);
    this.#core = core;
  }

  settled(): Promise<void> {
    return this.#core.settled();
  }

  probe(timeout: number, timeoutFlag?: string, options?: ProbeOptions): Promise<void> {
    return this.#core.probe(timeout, timeoutFlag, options);
  }

  figures(): EtcdFigures {
    return this.#core.figures();
  }

  readAppliedSet(): Promise<AppliedEntry[] | undefined> {
    return this.#core.readAppliedSet();
  }

  writeAppliedSet(applied: readonly AppliedMetadata[]): Promise<void> {
    return this.#core.writeAppliedSet(applied);
  }

  onWatchConnection(listener: (change: WatchConnectionChange) => void): () => void {
    return this.#core.onWatchConnection(listener);
  }

  close(): Promise<void> {
    return this.#core.close();
  }
}

/**
 * A {@link State} on etcd v3: the same semantics as the in-memory state (the same conformance
 * suite), shared by every process that opens the same endpoints and prefix.
 *
 * @example
 * const state = createEtcdState({ endpoints: ['http://127.0.0.1:2379'], prefix: '/cosi/demo' });
 * await state.create(newResource({ namespace: 'default', type: 'Paths.test.cosi.dev', id: 'a' }, {}));
 * await state.close();
 */
export function createEtcdState(options: EtcdStateOptions): EtcdState {
  return new WrappedEtcdCore(options);
}
