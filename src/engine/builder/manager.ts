import { RegistrationError } from '../errors.js';
import type { Runtime } from '../runtime/runtime.js';
import type { CompiledController } from './compiled-controller.js';

/**
 * Something the manager starts: controller-runtime's `Runnable`. `start` resolves once it runs;
 * long work continues in the background until `signal` aborts.
 */
export interface Runnable {
  start(signal: AbortSignal): Promise<void> | void;
  /** `true` (the default): starts only once this process leads. */
  readonly needLeaderElection?: boolean;
}

/** The groups runnables start in: `others` first, then `leaderElection` once elected. */
export type RunnableGroup = 'others' | 'leaderElection';

/** Options of `createManager`: how this process is elected to lead. */
export interface ManagerOptions {
  /**
   * Resolves when this process becomes the leader. By default it is elected at once: a single
   * process always leads.
   */
  readonly elect?: (signal: AbortSignal) => Promise<void>;
}

interface Group {
  readonly controllers: CompiledController[];
  readonly runnables: Runnable[];
  readonly abort: AbortController;
  started: boolean;
}

/**
 * controller-runtime's manager, kept small: it owns a runtime and starts what was added to it in
 * groups, once the state is ready (the runtime is started: its watches are in place). Controllers
 * and runnables that opt out of leader election start first (`others`), the rest when this
 * process is elected (`leaderElection`). Something added after its group started starts at once.
 * A controller is checked when it is added, as the runtime will register it, so one it would
 * refuse fails its `build()` and does not keep the others of its group from registering.
 *
 * @example
 * const manager = createManager(runtime);
 * await controllerManagedBy(manager).for(VM).owns(Disk).complete(reconcileVM);
 * await manager.start();
 * await runtime.converge();
 */
export class Manager {
  readonly #groups: Record<RunnableGroup, Group> = {
    others: newGroup(),
    leaderElection: newGroup(),
  };
  readonly #names = new Map<string, RunnableGroup>();
  readonly #elect: ((signal: AbortSignal) => Promise<void>) | undefined;
  #starting: Promise<void> | undefined;
  #elected: Promise<void> | undefined;

  constructor(
    readonly runtime: Runtime,
    options: ManagerOptions = {},
  ) {
    this.#elect = options.elect;
  }

  /**
   * Adds a built controller or a runnable to its group; resolves once it is started when the group
   * already runs, at once otherwise. A controller is checked at once, against the runtime's
   * controllers and those waiting here for their group to start, as registering it will be: one
   * the runtime would refuse is not added (its group's others are registered all the same).
   *
   * @throws RegistrationError listing what the runtime would refuse.
   */
  async add(item: CompiledController | Runnable): Promise<void> {
    const groupName = groupFor(item);
    const group = this.#groups[groupName];
    if (isCompiled(item)) {
      const waiting = [
        ...this.#groups.others.controllers,
        ...this.#groups.leaderElection.controllers,
      ];
      const problems = this.runtime.registrationProblems([item], waiting);
      if (problems.length > 0) throw new RegistrationError(problems);
      if (group.started) await this.runtime.register(item);
      else group.controllers.push(item);
      this.#names.set(item.name, groupName);
      return;
    }
    if (group.started) await item.start(group.abort.signal);
    else group.runnables.push(item);
  }

  /** The group of a controller added to this manager. */
  groupOf(name: string): RunnableGroup | undefined {
    return this.#names.get(name);
  }

  /** Whether the name is taken, by a controller added here or registered with the runtime. */
  has(name: string): boolean {
    return this.#names.has(name) || this.runtime.controllerNames().includes(name);
  }

  /**
   * Starts the runtime (the state's watches), then the `others` group, then leader election.
   * With the default election this resolves after the `leaderElection` group started too;
   * with an `elect` option it does not wait for the election (see {@link elected}).
   */
  start(): Promise<void> {
    this.#starting ??= (async () => {
      await this.runtime.start();
      await this.#startGroup('others');
      const group = this.#groups.leaderElection;
      const elect = this.#elect;
      if (!elect) {
        this.#elected = this.#startGroup('leaderElection');
        await this.#elected;
        return;
      }
      this.#elected = elect(group.abort.signal).then(() => this.#startGroup('leaderElection'));
      // Whoever awaits `elected` sees a failure; nobody else has to.
      this.#elected.catch(() => undefined);
    })();
    return this.#starting;
  }

  /** Resolves once the `leaderElection` group started; rejects if it failed to. */
  get elected(): Promise<void> {
    if (!this.#elected) return Promise.reject(new Error('the manager has not been started'));
    return this.#elected;
  }

  /** Stops `others`, then the leader group, then the runtime. */
  async stop(): Promise<void> {
    this.#groups.others.abort.abort();
    this.#groups.leaderElection.abort.abort();
    await this.runtime.stop();
  }

  async #startGroup(name: RunnableGroup): Promise<void> {
    const group = this.#groups[name];
    if (group.abort.signal.aborted) return;
    group.started = true;
    const controllers = group.controllers.splice(0);
    // One batch: the group's controllers are registered all together or not at all.
    if (controllers.length > 0) await this.runtime.register(...controllers);
    for (const runnable of group.runnables.splice(0)) await runnable.start(group.abort.signal);
  }
}

const isCompiled = (item: CompiledController | Runnable): item is CompiledController =>
  'reconcile' in item;

function newGroup(): Group {
  return { controllers: [], runnables: [], abort: new AbortController(), started: false };
}

function groupFor(item: CompiledController | Runnable): RunnableGroup {
  return item.needLeaderElection === false ? 'others' : 'leaderElection';
}

/** A manager for `runtime`; see {@link Manager}. */
export function createManager(runtime: Runtime, options?: ManagerOptions): Manager {
  return new Manager(runtime, options);
}
