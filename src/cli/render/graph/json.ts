import type { GraphView } from './graph-view.js';

/**
 * The view as JSON: `{ controllers, types, edges }` as the engine exports its dependency graph,
 * and with `--resources` a `resources` array of `{ type, resources: [{ namespace, type, id,
 * owner, phase, derivedFrom: [{ namespace, type, id, via }] }] }`; with kro RGDs, a
 * `resourceGraphs` array of `{ controller, instanceType, resources: [{ id, type, dependsOn,
 * notes }] }` (each RGD's resources in the order they are rendered) and a `statusWrites` array of
 * `{ controller, type }`: an RGD's controller writes the status of its instances, which is not
 * among the edges (it would read as a cycle through the controller). What failed in the run: a
 * `failedControllers` array of names, and `failed: true` on each resource given up on.
 */
export function renderGraphJson(view: GraphView): string {
  const { controllers, types, edges, resources, resourceGraphs, statusWrites, failedControllers } =
    view;
  return `${JSON.stringify(
    {
      controllers,
      types,
      edges,
      ...(resources ? { resources } : {}),
      ...(resourceGraphs ? { resourceGraphs } : {}),
      ...(statusWrites ? { statusWrites } : {}),
      ...(failedControllers ? { failedControllers } : {}),
    },
    null,
    2,
  )}\n`;
}
