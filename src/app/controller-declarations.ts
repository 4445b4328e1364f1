import { messageOfThrown } from '../engine/thrown-value.js';
import type { UserCodeMonitor } from './user-code-site.js';

/** What the runtime reads of a controller object when it registers one. */
const DECLARATIONS = [
  'name',
  'inputs',
  'outputs',
  'settings',
  'needLeaderElection',
  'run',
  'reconcile',
  'mapInput',
] as const;

/** How deep declarations are read: `settings`, its `inputs`, an input's fields. */
const DEPTH = 3;

/**
 * Reads each controller object's declarations (name, inputs, outputs, settings...) once before
 * the runtime registers them, the monitor told which controller's object it is: a getter or a
 * Proxy trap of the project's that never returns or exhausts the heap is then that controller's
 * fault, stopped at the deadline and named, as a reconcile is, instead of cosi's own work that
 * no bound stops. Functions are not called.
 *
 * @throws Error naming the controller (by its place in `controllers` when its `name` cannot be
 *   read) when reading its object throws.
 */
export function readControllerDeclarations(
  controllers: readonly object[],
  monitor: UserCodeMonitor | undefined,
): void {
  try {
    for (const [i, controller] of controllers.entries()) {
      // Its name is read in a site too (a getter may loop or throw), named by its place until read.
      let name = `controllers[${i}]`;
      monitor?.enter({ kind: 'reconcile', controller: name });
      try {
        name = nameOf(controller, name);
        monitor?.enter({ kind: 'reconcile', controller: name });
        for (const key of DECLARATIONS) touch((controller as Record<string, unknown>)[key], DEPTH);
      } catch (error) {
        throw new Error(
          `controller ${JSON.stringify(name)} cannot be read: ${messageOfThrown(error)}`,
          {
            cause: error,
          },
        );
      }
    }
  } finally {
    monitor?.leave();
  }
}

/** The controller's name (the config's loader checked it is a string), else its place. */
function nameOf(controller: object, place: string): string {
  const name = (controller as { name?: unknown }).name;
  return typeof name === 'string' ? name : place;
}

/** Reads every own enumerable value of objects and arrays, `depth` levels down. */
function touch(value: unknown, depth: number): void {
  if (depth === 0 || typeof value !== 'object' || value === null) return;
  for (const key of Object.keys(value)) touch((value as Record<string, unknown>)[key], depth - 1);
}
