import { INSTANCE_LABEL, NODE_LABEL } from '../../controllers/kro-labels.js';
import { locateReadyWhen, readiness } from './graph-readiness.js';
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
  /**
   * What its instance's `ResourcesReady` condition says of it: what its `readyWhen` waits on
   * (with the expression's place), or how it failed; absent when it is ready.
   */
  readonly notReady?: string;
}

/** The label naming the namespace of the instance an output was rendered for. */
const INSTANCE_NAMESPACE_LABEL = 'kro.run/instance-namespace';

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
  const { labels } = resource.metadata;
  const name = labels[INSTANCE_LABEL];
  const instance =
    name === undefined
      ? undefined
      : index.resource({
          namespace: labels[INSTANCE_NAMESPACE_LABEL] ?? resource.metadata.namespace,
          type: graph.instanceType,
          id: name,
        });
  const { waits, errors } = instance ? readiness(instance) : { waits: [], errors: [] };
  const mine = (entry: string): boolean =>
    entry.startsWith(`${id}: `) || entry.startsWith(`${id} (`);
  const wait = waits.find(mine);
  const failed = errors.find((e) => mine(e.slice('resource '.length)));
  const notReady =
    failed ?? (wait === undefined ? undefined : locateReadyWhen(node, wait.slice(id.length + 2)));
  return {
    graph: graph.name,
    resource: id,
    ...(template !== undefined && template !== '' ? { template } : {}),
    ...(notReady === undefined ? {} : { notReady }),
  };
}
