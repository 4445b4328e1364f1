import { copyControllerSite } from '../engine/runtime/controller-sites.js';
import {
  isQController,
  type AnyController,
  type Controller,
  type ControllerRuntime,
  type QController,
  type ReconcileEvent,
} from '../engine/runtime/controller.js';

/**
 * Makes chosen controllers' next reconciles throw, to test how a project lives with a failing
 * controller (retries, backoff, what the report says). Controllers are wrapped as they are
 * registered ({@link wrap}); the wrapper hands everything to the controller untouched until a
 * failure is armed for it.
 *
 * A queue controller's next `reconcile` throws instead of running. A whole-world controller's
 * loop gets the error from its next `rt.events()` wakeup (its `run` ends with it and the runtime
 * restarts it after a backoff, as for any throw); arming asks it for that wakeup.
 */
export class ControllerFaults {
  /** Errors still to throw, by controller name, first first. */
  readonly #armed = new Map<string, unknown[]>();
  /** The facade each whole-world controller runs with, to wake it. */
  readonly #facades = new Map<string, ControllerRuntime>();
  readonly #names = new Set<string>();

  /**
   * The next `times` reconciles of `controller` throw `error` (an `Error` with that message when
   * a string; default: an `Error` saying the failure was injected).
   *
   * @throws Error when no controller of that name was registered.
   */
  failNextReconcile(
    controller: string,
    { error, times = 1 }: { readonly error?: unknown; readonly times?: number } = {},
  ): void {
    if (!this.#names.has(controller)) {
      throw new Error(
        `no controller named ${JSON.stringify(controller)} is registered (registered: ${[...this.#names].sort().join(', ') || 'none'})`,
      );
    }
    const thrown =
      error === undefined
        ? new Error(`injected fault: reconcile of ${controller} failed`)
        : typeof error === 'string'
          ? new Error(error)
          : error;
    const queue = this.#armed.get(controller) ?? [];
    for (let i = 0; i < times; i++) queue.push(thrown);
    this.#armed.set(controller, queue);
    this.#facades.get(controller)?.queueReconcile();
  }

  /** How many armed failures of `controller` have not been thrown yet. */
  pending(controller: string): number {
    return this.#armed.get(controller)?.length ?? 0;
  }

  /** The controller, wrapped so that armed failures reach it. */
  wrap<C extends AnyController>(controller: C): C {
    this.#names.add(controller.name);
    // The wrapper is placed where the project made the controller, as the controller is.
    return copyControllerSite(
      controller,
      isQController(controller) ? this.#wrapQueue(controller) : this.#wrapWhole(controller),
    ) as C;
  }

  /** Takes the next armed error of `name`, if any. */
  #take(name: string): { error: unknown } | undefined {
    const queue = this.#armed.get(name);
    if (queue === undefined || queue.length === 0) return undefined;
    return { error: queue.shift() };
  }

  #wrapQueue(controller: QController): QController {
    const reconcile: QController['reconcile'] = (rt, pointer, log) => {
      const armed = this.#take(controller.name);
      // Rejected, not thrown: the runtime reads a reconcile's failure from its promise.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- the user's error, as given
      if (armed !== undefined) return Promise.reject(armed.error);
      return controller.reconcile(rt, pointer, log);
    };
    return new Proxy(controller, {
      get: (target, key, receiver): unknown =>
        key === 'reconcile' ? reconcile : Reflect.get(target, key, receiver),
    });
  }

  #wrapWhole(controller: Controller): Controller {
    const run: Controller['run'] = (rt, signal, log) => {
      this.#facades.set(controller.name, rt);
      const events = (): AsyncIterable<ReconcileEvent> => this.#failingEvents(controller.name, rt);
      const facade = new Proxy(rt, {
        get: (target, key) => {
          if (key === 'events') return events;
          const value = Reflect.get(target, key, target) as unknown;
          return typeof value === 'function' ? (value as () => unknown).bind(target) : value;
        },
      });
      return controller.run(facade, signal, log);
    };
    return new Proxy(controller, {
      get: (target, key, receiver): unknown =>
        key === 'run' ? run : Reflect.get(target, key, receiver),
    });
  }

  async *#failingEvents(name: string, rt: ControllerRuntime): AsyncIterable<ReconcileEvent> {
    for await (const event of rt.events()) {
      const armed = this.#take(name);
      if (armed !== undefined) throw armed.error;
      yield event;
    }
  }
}
