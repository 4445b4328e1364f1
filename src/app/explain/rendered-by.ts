import { NODE_LABEL } from '../../controllers/resource-graph.js';
import type { Resource } from '../../engine/resource/resource.js';
import type { ExplainIndex } from './explain-source.js';
import type { VersionEntry } from './history.js';

/** The kro RGD resource a resource was rendered from. */
export interface RenderedBy {
  /** The RGD's name (`metadata.name`). */
  readonly graph: string;
  /** The id of its resource (`spec.resources[].id`) whose template made it. */
  readonly resource: string;
  /** `file:line:col` of that resource's template, when the RGD was read from a file. */
  readonly template?: string;
}

/**
 * Which resource of which kro RGD rendered `resource`, by its `kro.run/node-id` label and the RGD
 * its controller runs (its owner, or, a nested instance written unowned, its creator): what
 * `kubectl` users ask first of an object kro made, and what kro's own status and events name.
 */
export function renderedBy(
  index: ExplainIndex,
  resource: Resource,
  history: readonly VersionEntry[],
): RenderedBy | undefined {
  const id = resource.metadata.labels[NODE_LABEL];
  if (id === undefined) return undefined;
  const first = history[0]?.by;
  const controller =
    resource.metadata.owner !== ''
      ? resource.metadata.owner
      : first?.kind === 'reconcile'
        ? first.controller
        : undefined;
  const graph = controller === undefined ? undefined : index.source.resourceGraph?.(controller);
  const node = graph?.nodes.find((n) => n.id === id);
  if (graph === undefined || node === undefined) return undefined;
  const template = node.locate?.([]);
  return {
    graph: graph.name,
    resource: id,
    ...(template !== undefined && template !== '' ? { template } : {}),
  };
}
