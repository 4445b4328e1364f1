import type { Pointer } from '../resource/pointer.js';
import type { Draft, Resource } from '../resource/resource.js';
import { InMemoryCore, type InMemoryStateOptions } from './in-memory-core.js';
import type { UpdateOptions, Updater } from './state.js';
import type { ModifyProgress, SyncCore } from './sync-core.js';
import { CoreState } from './wrap-core.js';

export { DEFAULT_HISTORY_CAPACITY, type InMemoryStateOptions } from './in-memory-core.js';

/**
 * The in-memory {@link State}: the in-memory core wrapped (see `wrapCore`), with the core's
 * synchronous answers ({@link SyncCore}) handed on, for the runtime's fast path.
 */
export class InMemoryState extends CoreState implements SyncCore {
  readonly #core: InMemoryCore;

  constructor(options: InMemoryStateOptions = {}) {
    const core = new InMemoryCore(options);
    super(core);
    this.#core = core;
  }

  peekVersion(pointer: Pointer): number {
    return this.#core.peekVersion(pointer);
  }

  modifyNow<S>(
    empty: Draft<S>,
    fn: Updater<S>,
    options?: UpdateOptions,
    progress?: ModifyProgress,
  ): Resource<S> | Promise<Resource<S>> {
    return this.#core.modifyNow(empty, fn, options, progress);
  }
}

/** A new empty in-memory state. */
export function createInMemoryState(options?: InMemoryStateOptions): InMemoryState {
  return new InMemoryState(options);
}
