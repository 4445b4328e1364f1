/**
 * The labels kro puts on the instances it manages and on what it renders for them: they name
 * the RGD, the instance and the resource id, so that an output can be traced back to what wrote
 * it (by the controller, and by `cosi explain`).
 */

import type { Resource } from '../engine/resource/resource.js';
import type { GraphNode, ResourceGraph } from './compiled-resource-graph.js';
import { objectUid } from '../engine/resource/object-uid.js';

type Spec = Record<string, unknown>;

/**
 * The value of the `kro.run/kro-version` label cosi writes (kro writes its own version): the kro
 * release whose behaviour cosi follows, marked as cosi's, the same in every run.
 */
export const KRO_VERSION_LABEL_VALUE = 'v0.9.3-cosi';

/**
 * The labels kro puts on an instance it manages (its instance labeler: `NewKROMetaLabeler` and
 * `NewResourceGraphDefinitionLabeler`), the RGD's uid made as every uid offline (deterministic).
 */
export function instanceLabels(graph: ResourceGraph): Record<string, string> {
  return {
    'kro.run/owned': 'true',
    'kro.run/kro-version': KRO_VERSION_LABEL_VALUE,
    'kro.run/resource-graph-definition-id': objectUid(
      'ResourceGraphDefinitions.kro.run',
      undefined,
      graph.name,
    ),
    [GRAPH_LABEL]: graph.name,
  };
}

/** Labels kro puts on what it produces, naming the instance and the resource id. */
export const INSTANCE_LABEL = 'kro.run/instance-name';
export const NODE_LABEL = 'kro.run/node-id';
/** The label naming the namespace of the instance that wrote an output (a namespaced one's). */
export const INSTANCE_NAMESPACE_LABEL = 'kro.run/instance-namespace';

/** Whether a label is one kro's controller puts on its outputs (no template writes it). */
export function isKroChildLabel(name: string): boolean {
  return name.startsWith('kro.run/') || name === 'app.kubernetes.io/managed-by';
}

/**
 * The labels kro puts on each object it applies for an instance (its `applyDecoratorMetadata`
 * with the instance's, the node's and the child labelers of `pkg/metadata/labels.go`), the
 * instance's uid deterministic and kro's version {@link KRO_VERSION_LABEL_VALUE}, as offline
 * there is no cluster to give them. A forEach item has its index and the collection's size.
 */
export function kroChildLabels(
  graph: ResourceGraph,
  node: GraphNode,
  instance: Resource<Spec>,
  item: { readonly index: number; readonly size: number } | undefined,
): Record<string, string> {
  const { type, namespace, id } = instance.metadata;
  const labels: Record<string, string> = {
    [INSTANCE_LABEL]: instanceKey(instance),
    // The instance's uid as CEL sees it (`${schema.metadata.uid}`): deterministic offline.
    'kro.run/instance-id': objectUid(
      type,
      graph.instanceKind?.namespaced === false ? undefined : namespace,
      id,
    ),
    'app.kubernetes.io/managed-by': 'kro',
    'kro.run/owned': 'true',
    'kro.run/kro-version': KRO_VERSION_LABEL_VALUE,
    [NODE_LABEL]: node.id,
  };
  const kind = graph.instanceKind;
  if (kind !== undefined) {
    const slash = kind.apiVersion.lastIndexOf('/');
    labels['kro.run/instance-group'] = slash < 0 ? '' : kind.apiVersion.slice(0, slash);
    labels['kro.run/instance-version'] = kind.apiVersion.slice(slash + 1);
    labels['kro.run/instance-kind'] = kind.kind;
    if (kind.namespaced) labels[INSTANCE_NAMESPACE_LABEL] = instance.metadata.namespace;
  }
  if (item !== undefined) {
    labels['kro.run/collection-index'] = String(item.index);
    labels['kro.run/collection-size'] = String(item.size);
  }
  return labels;
}

function instanceKey(instance: Resource<Spec>): string {
  return instance.metadata.id;
}

/** The label on a nested instance naming the RGD that wrote it (kro labels every output so). */
export const GRAPH_LABEL = 'kro.run/resource-graph-definition-name';
