import { pointerText, type ScopedPointer } from '../scoped-pointer.js';
import type { DependencyEdge } from '../../../engine/runtime/dependency-graph.js';
import type { LineageVia, ResourceNode } from '../../../app/explain/resource-lineage.js';

/** Where an input reads: `namespace/type`, with `/id` when pinned to one resource. */
export function inputTarget(edge: DependencyEdge): string {
  return `${edge.namespace ?? '*'}/${edge.type}${edge.id === undefined ? '' : `/${edge.id}`}`;
}

/** An edge's kind, and for an input its namespace and pinned id: `strong, config/global`. */
export function edgeSummary(edge: DependencyEdge): string {
  if (edge.namespace === undefined) return edge.kind;
  return `${edge.kind}, ${edge.namespace}${edge.id === undefined ? '' : `/${edge.id}`}`;
}

/** A resource, as COSI prints one: `Type(namespace/id)`, `Type(id)` when cluster-scoped. */
export const resourceLabel = (p: ScopedPointer): string => pointerText(p);

/** Who wrote a resource, in words: its owner, the controller that made it unowned, or a manifest. */
export const writerLabel = (node: ResourceNode): string => {
  if (node.owner !== '') return `by ${node.owner}`;
  return node.writer === '' ? 'manifest' : `by ${node.writer} (unowned)`;
};

const VIA_LABELS: Record<LineageVia, string> = {
  ownerReference: 'owner reference',
  strong: 'strong input',
  weak: 'weak input',
  primary: 'primary input',
  mapped: 'mapped input',
  destroyReady: 'destroyReady input',
  mappedDestroyReady: 'mappedDestroyReady input',
  finalizer: 'finalizer',
  teardown: 'teardown',
  template: 'template reference',
};

/** How a lineage link was found, in words. */
export const viaLabel = (via: LineageVia): string => VIA_LABELS[via];
