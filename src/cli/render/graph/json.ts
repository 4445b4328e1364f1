import type { GraphView } from './graph-view.js';

/**
 * The view as JSON: `{ controllers, types, edges }` as the engine exports its dependency graph,
 * and with `--resources` a `resources` array of `{ type, resources: [{ namespace, type, id,
 * owner, phase, derivedFrom: [{ namespace, type, id, via }] }] }`.
 */
export function renderGraphJson(view: GraphView): string {
  const { controllers, types, edges, resources } = view;
  return `${JSON.stringify({ controllers, types, edges, ...(resources ? { resources } : {}) }, null, 2)}\n`;
}
