import { promisify } from 'node:util';
import type { Pointer } from '../engine/resource/pointer.js';
import type { UserCodeMonitor, UserCodeSite } from './user-code-site.js';

/**
 * The longest delay of a timer the project's code set that a run waits for before it is over
 * (see {@link ScheduledCallbacks.settled}). A bound on what is asked for, not on the time taken:
 * the same project waits for the same timers on a fast machine and a slow one.
 */
export const SETTLE_DELAY_MS = 1000;

/** The monitor of a worker whose timers say which of the project's code set them. */
export interface ScheduledCallbacks {
  /** The monitor to use in place of the one given: it keeps the site entered last. */
  readonly monitor: UserCodeMonitor;
  /**
   * Resolves once the one-shot timers the project's code set, with a delay of at most
   * {@link SETTLE_DELAY_MS}, and the immediates it queued, have run (or were cleared).
   */
  readonly settled: () => Promise<void>;
  /** Gives the global timer functions back. */
  restore(): void;
}

type TimerFunction = (callback: (...args: unknown[]) => void, ...rest: unknown[]) => unknown;

/**
 * Wraps the global `setTimeout`, `setInterval` and `setImmediate` so that a callback the
 * project's code scheduled runs at the site that scheduled it (a controller on its resource, the
 * config's setup): `monitor` is told that site while the callback runs. A callback that throws
 * leaves it there, so the supervisor, which reads the site when the worker dies of the throw,
 * names the controller whose code scheduled it rather than whichever ran last; a callback that
 * never returns is placed the same way. A timer of cosi's own set while the project's code runs
 * (the runtime's next wakeup, queued from a reconcile) is wrapped as well, which changes nothing
 * the heartbeat says: the site stays the one entered last until other code enters its own, as
 * after any reconcile. Timers set by cosi's own work (no site) are not wrapped.
 */
export function trackScheduledCallbacks(monitor: UserCodeMonitor): ScheduledCallbacks {
  // The site entered last, kept as its parts: a reconcile's is written before every reconcile,
  // and an object each time would cost more than the heartbeat's write.
  let kind: UserCodeSite['kind'] | undefined;
  let controller = '';
  let pointer: Pointer | undefined;
  let other: UserCodeSite | undefined;
  const current = (): UserCodeSite | undefined =>
    kind === 'reconcile'
      ? { kind, controller, ...(pointer === undefined ? {} : { pointer }) }
      : kind === undefined
        ? undefined
        : other;
  const enter = (site: UserCodeSite | undefined): void => {
    if (site === undefined) {
      kind = undefined;
      monitor.leave();
    } else if (site.kind === 'reconcile') {
      monitor.reconcile(site.controller, site.pointer);
      kind = 'reconcile';
      controller = site.controller;
      pointer = site.pointer;
    } else {
      monitor.enter(site);
      kind = site.kind;
      other = site;
    }
  };
  const tracked: UserCodeMonitor = {
    ...monitor,
    enter,
    leave: () => {
      enter(undefined);
    },
    reconcile: (name, on) => {
      monitor.reconcile(name, on);
      kind = 'reconcile';
      controller = name;
      pointer = on;
    },
  };

  /** The one-shot callbacks to wait for, each with what ends its wait. */
  const soon = new Map<unknown, () => void>();
  const done = (handle: unknown): void => {
    const end = soon.get(handle);
    soon.delete(handle);
    end?.();
  };
  /**
   * `callback`, to run at `site`; `started` is told as it starts. The site is left entered when
   * it returns, as after a reconcile: the next of the project's code to run says its own.
   */
  const atSite =
    (site: UserCodeSite, callback: (...args: unknown[]) => void, started?: () => void) =>
    (...args: unknown[]): void => {
      started?.();
      enter(site);
      callback(...args);
    };

  const original = {
    setTimeout: globalThis.setTimeout,
    setInterval: globalThis.setInterval,
    setImmediate: globalThis.setImmediate,
    clearTimeout: globalThis.clearTimeout,
    clearImmediate: globalThis.clearImmediate,
  };
  const wrapOneShot =
    (schedule: TimerFunction, waits: (rest: unknown[]) => boolean): TimerFunction =>
    (callback, ...rest) => {
      const site = current();
      if (site === undefined || typeof callback !== 'function') return schedule(callback, ...rest);
      const handle: unknown = schedule(
        atSite(site, callback, () => {
          done(handle);
        }),
        ...rest,
      );
      if (waits(rest)) soon.set(handle, () => undefined);
      return handle;
    };
  const g = globalThis as unknown as Record<keyof typeof original, TimerFunction>;
  // `promisify(setTimeout)` and `promisify(setImmediate)` take Node's own promise forms.
  const keepPromiseForm = (wrapper: TimerFunction, of: unknown): TimerFunction =>
    Object.assign(wrapper, {
      [promisify.custom]: (of as Record<symbol, unknown>)[promisify.custom],
    });
  g.setTimeout = keepPromiseForm(
    wrapOneShot(original.setTimeout as unknown as TimerFunction, ([delay]) => {
      const ms = Number(delay ?? 0);
      return !(ms > SETTLE_DELAY_MS);
    }),
    original.setTimeout,
  );
  g.setImmediate = keepPromiseForm(
    wrapOneShot(original.setImmediate, () => true),
    original.setImmediate,
  );
  g.setInterval = (callback, ...rest) => {
    const site = current();
    const schedule = original.setInterval as unknown as TimerFunction;
    if (site === undefined || typeof callback !== 'function') return schedule(callback, ...rest);
    return schedule(atSite(site, callback), ...rest);
  };
  g.clearTimeout = (handle, ...rest) => {
    done(handle);
    return (original.clearTimeout as unknown as TimerFunction)(handle, ...rest);
  };
  g.clearImmediate = (handle, ...rest) => {
    done(handle);
    return (original.clearImmediate as unknown as TimerFunction)(handle, ...rest);
  };

  return {
    monitor: tracked,
    settled: async () => {
      // Those pending now, then one turn for what they queued in their turn. A timer cleared by
      // its number (`clearTimeout(+handle)`) is not seen going: it is not waited for past its
      // delay's bound.
      const waits = [...soon.keys()]
        .filter((handle) => (handle as { _destroyed?: boolean })._destroyed !== true)
        .map(
          (handle) =>
            new Promise<void>((resolve) => {
              soon.set(handle, resolve);
            }),
        );
      if (waits.length > 0) {
        let bound: ReturnType<typeof setTimeout> | undefined;
        await Promise.race([
          Promise.all(waits),
          new Promise<void>((resolve) => {
            bound = original.setTimeout(resolve, 2 * SETTLE_DELAY_MS);
          }),
        ]);
        original.clearTimeout(bound);
      }
      await new Promise<void>((resolve) => original.setImmediate(resolve));
    },
    restore: () => {
      Object.assign(globalThis, original);
    },
  };
}
