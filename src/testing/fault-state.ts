import { ConflictError } from '../engine/errors.js';
import type { Kind, Pointer } from '../engine/resource/pointer.js';
import { toPointer } from '../engine/resource/pointer.js';
import type { Draft, Resource } from '../engine/resource/resource.js';
import type { Clock } from '../engine/runtime/clock.js';
import { InMemoryCore } from '../engine/state/in-memory-core.js';
import type { StateCore } from '../engine/state/state-core.js';
import type {
  CreateOptions,
  ListOptions,
  OwnerOptions,
  State,
  UpdateOptions,
  WatchKindOptions,
  WatchListener,
  WatchOptions,
} from '../engine/state/state.js';
import type { Delivery } from '../engine/state/watch-delivery.js';
import { CoreState } from '../engine/state/wrap-core.js';

/** A write the state is asked for, as a fault's predicate sees it. */
export interface WriteAttempt {
  readonly operation: 'create' | 'update' | 'destroy';
  readonly pointer: Pointer;
  /** Who writes: a controller's name, `''` for the manifests. */
  readonly owner: string;
  /** What `create` and `update` would store. */
  readonly resource?: Draft | Resource;
}

/** Which writes a fault hits, and how many of them; by default the next one. */
export interface FaultOptions {
  /** Only writes this answers `true` for; every write when omitted. */
  readonly when?: (write: WriteAttempt) => boolean;
  /** How many matching writes it hits before it is spent; default 1, `Infinity` for ever. */
  readonly times?: number;
}

/** A fault in place: how often it hit, and how to take it away. */
export interface InjectedFault {
  /** How many writes it hit so far. */
  readonly hits: number;
  /** Takes the fault away (writes it stalled without a duration go on). */
  remove(): void;
}

type FaultEffect =
  | { readonly kind: 'fail'; readonly error: (write: WriteAttempt) => unknown }
  | { readonly kind: 'conflict' }
  | { readonly kind: 'stall'; readonly ms: number | undefined };

interface FaultRule {
  readonly when: (write: WriteAttempt) => boolean;
  readonly effect: FaultEffect;
  remaining: number;
  hits: number;
  removed: boolean;
  /** Writes stalled until the fault is removed. */
  readonly waiting: (() => void)[];
}

/**
 * The faults of a {@link FaultyState}: rules, checked in the order they were added, that make the
 * state's writes (create, update, destroy: every other write is built on them) fail, conflict or
 * stall. Reads and watches are never touched.
 */
export class FaultInjector {
  readonly #rules: FaultRule[] = [];
  readonly #clock: Pick<Clock, 'setTimer'>;

  constructor(clock: Pick<Clock, 'setTimer'>) {
    this.#clock = clock;
  }

  /**
   * Matching writes throw `error` (an `Error` with that message when a string; default: an
   * `Error` naming the write).
   *
   * @example
   * faults.failWrites({ when: (w) => w.owner === 'PlacementController', times: 3 });
   */
  failWrites(options: FaultOptions & { readonly error?: unknown } = {}): InjectedFault {
    const given = options.error;
    const error =
      given === undefined
        ? (w: WriteAttempt) =>
            new Error(`injected fault: ${w.operation} of ${describe(w.pointer)} failed`)
        : typeof given === 'string'
          ? () => new Error(given)
          : () => given;
    return this.#add(options, { kind: 'fail', error });
  }

  /**
   * Matching writes fail with a version conflict (a `ConflictError`), as when another writer got
   * there first: `modify` and `updateWithConflicts` read again and retry, a plain `update` throws.
   */
  conflictWrites(options: FaultOptions = {}): InjectedFault {
    return this.#add(options, { kind: 'conflict' });
  }

  /**
   * Matching writes wait before they happen: `for` milliseconds of the project's clock (simulated
   * in a test project: convergence moves time on to it), or, without `for`, until the fault is
   * removed.
   */
  stallWrites(options: FaultOptions & { readonly for?: number } = {}): InjectedFault {
    return this.#add(options, { kind: 'stall', ms: options.for });
  }

  /** Removes every fault. */
  clear(): void {
    for (const rule of [...this.#rules]) this.#remove(rule);
  }

  /**
   * Applies the first fault that matches `write` (and is not spent): throws for `fail` and
   * `conflict`, waits for `stall`. Nothing when no fault matches.
   */
  async before(write: WriteAttempt): Promise<void> {
    const rule = this.#rules.find((r) => r.remaining > 0 && r.when(write));
    if (rule === undefined) return;
    rule.remaining--;
    rule.hits++;
    const { effect } = rule;
    switch (effect.kind) {
      case 'fail':
        throw effect.error(write);
      case 'conflict':
        throw new ConflictError(
          write.pointer,
          'version',
          `injected conflict: ${write.operation} of ${describe(write.pointer)}`,
        );
      case 'stall':
        await new Promise<void>((resolve) => {
          if (effect.ms === undefined) rule.waiting.push(resolve);
          else this.#clock.setTimer(effect.ms, resolve);
        });
    }
  }

  #add(options: FaultOptions, effect: FaultEffect): InjectedFault {
    const times = options.times ?? 1;
    if (!(times >= 0)) throw new RangeError(`times must be a number >= 0, not ${String(times)}`);
    const rule: FaultRule = {
      when: options.when ?? (() => true),
      effect,
      remaining: times,
      hits: 0,
      removed: false,
      waiting: [],
    };
    this.#rules.push(rule);
    return {
      get hits() {
        return rule.hits;
      },
      remove: () => this.#remove(rule),
    };
  }

  #remove(rule: FaultRule): void {
    if (rule.removed) return;
    rule.removed = true;
    rule.remaining = 0;
    this.#rules.splice(this.#rules.indexOf(rule), 1);
    for (const resume of rule.waiting.splice(0)) resume();
  }
}

/** An in-memory {@link State} whose writes go through a {@link FaultInjector} first. */
export interface FaultyState extends State {
  readonly faults: FaultInjector;
}

/**
 * An in-memory state with fault injection: the in-memory core behind a core that asks the
 * injector before every create, update and destroy, wrapped as any core is (so `modify`,
 * teardown and finalizer changes meet the faults through the primitives they are built on). It
 * has no synchronous fast path: every write goes through the injector.
 *
 * @example
 * const state = createFaultyState({ clock });
 * state.faults.conflictWrites({ when: (w) => w.pointer.type === 'VMs.example.org' });
 */
export function createFaultyState(options: {
  readonly clock: Pick<Clock, 'now' | 'setTimer'>;
}): FaultyState {
  const faults = new FaultInjector(options.clock);
  const core = new FaultyCore(new InMemoryCore({ now: () => options.clock.now() }), faults);
  return Object.assign(new CoreState(core), { faults });
}

/** A core that asks the injector before each write, and hands everything else on. */
class FaultyCore implements StateCore {
  constructor(
    readonly inner: StateCore,
    readonly faults: FaultInjector,
  ) {}

  get(pointer: Pointer): Promise<Resource> {
    return this.inner.get(pointer);
  }

  list(kind: Kind, options?: ListOptions): Promise<Resource[]> {
    return this.inner.list(kind, options);
  }

  async create(resource: Draft | Resource, options?: CreateOptions): Promise<Resource> {
    await this.faults.before({
      operation: 'create',
      pointer: toPointer(resource.metadata),
      owner: options?.owner ?? '',
      resource,
    });
    return this.inner.create(resource, options);
  }

  async update(resource: Draft | Resource, options?: UpdateOptions): Promise<Resource> {
    await this.faults.before({
      operation: 'update',
      pointer: toPointer(resource.metadata),
      owner: options?.owner ?? '',
      resource,
    });
    return this.inner.update(resource, options);
  }

  async destroy(pointer: Pointer, options?: OwnerOptions): Promise<void> {
    await this.faults.before({
      operation: 'destroy',
      pointer: toPointer(pointer),
      owner: options?.owner ?? '',
    });
    return this.inner.destroy(pointer, options);
  }

  watch(pointer: Pointer, listener: WatchListener, options?: WatchOptions): Promise<void> {
    return this.inner.watch(pointer, listener, options);
  }

  watchKind(kind: Kind, delivery: Delivery, options?: WatchKindOptions): Promise<void> {
    return this.inner.watchKind(kind, delivery, options);
  }

  kinds(): Promise<Kind[]> {
    return this.inner.kinds();
  }
}

function describe(p: Pointer): string {
  return `${p.type} ${p.namespace}/${p.id}`;
}
