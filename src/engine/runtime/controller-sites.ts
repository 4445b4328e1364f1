/**
 * Where each controller was made in the project's code: the factories (a transform, a queue
 * transform) record the call's stack, so that a report can place a controller whose reconcile
 * never ended, which has no stack of its own to point at (a promise that never settles), as a
 * thrown error is placed where it was thrown.
 */

const sites = new WeakMap<object, Error>();

/** Records `site` (an Error made in the factory: its stack holds the caller) for `controller`. */
export function recordControllerSite<C extends object>(controller: C, site: Error): C {
  sites.set(controller, site);
  return controller;
}

/** The site recorded for `controller`; `undefined` for one no factory made (an object literal). */
export function controllerSite(controller: object): Error | undefined {
  return sites.get(controller);
}

/** `to` (a wrapper of `from`) has the site of `from`. */
export function copyControllerSite<C extends object>(from: object, to: C): C {
  const site = sites.get(from);
  if (site !== undefined) sites.set(to, site);
  return to;
}
