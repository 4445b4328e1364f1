/**
 * kro watches an RGD's instances in every namespace. Offline, an RGD's controller reads the
 * namespaces of the instances its project started with; an instance that appears in another one
 * during a run (a file a `watch` round adds, a test's `apply`, a nested instance an outer RGD
 * writes into a namespace of its spec) would otherwise never be rendered. After each convergence
 * the project looks for such namespaces, has each RGD controller read them too
 * (`Runtime.addInputs`), and converges again.
 */

import type { Runtime } from '../engine/runtime/runtime.js';
import type { State } from '../engine/state/state.js';
import type { ResourceGraphController } from '../controllers/resource-graph.js';

/**
 * Has every RGD controller read the namespaces where the state holds its instances (its nested
 * instances, an observed status) and it does not read yet; whether any did.
 */
export async function followInstanceNamespaces(
  state: State,
  runtime: Runtime,
  controllers: readonly ResourceGraphController[],
): Promise<boolean> {
  // Only those registered here: a follower of `cosi run` registers none.
  const registered = new Set(runtime.controllerNames());
  const running = controllers.filter((c) => registered.has(c.name));
  if (running.length === 0) return false;
  let followed = false;
  for (const kind of await state.kinds()) {
    for (const controller of running) {
      if (!controller.follows(kind.type)) continue;
      const inputs = controller.watchNamespace(kind.namespace);
      if (inputs.length === 0) continue;
      await runtime.addInputs(controller.name, inputs);
      followed = true;
    }
  }
  return followed;
}
