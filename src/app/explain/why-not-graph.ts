/**
 * Why a kro RGD's controller did not leave a resource behind. Its outputs are named by their
 * templates, not after their instance, so the input with the same id that {@link whyNot} looks
 * for says nothing here: instead, for each instance, each resource of the RGD that makes the
 * missing type says what became of it, from what the run left: the outputs it rendered (by
 * their `kro.run/` labels), what the instance's `ResourcesReady` condition says it waits on or
 * failed on, and otherwise the `includeWhen` that left it out (its own, or a dependency's).
 */

import { compareStrings } from '../../engine/compare-strings.js';
import { formatPointer, toPointer } from '../../engine/resource/pointer.js';
import type { Pointer } from '../../engine/resource/pointer.js';
import type { Resource } from '../../engine/resource/resource.js';
import { GRAPH_LABEL, INSTANCE_LABEL, NODE_LABEL } from '../../controllers/kro-labels.js';
import type { GraphNode, ResourceGraph } from '../../controllers/compiled-resource-graph.js';
import type { ExplainIndex } from './explain-source.js';
import type { WhyNotFinding } from './why-not-finding.js';
import { locateReadyWhen, readiness } from './graph-readiness.js';

/** The label naming the namespace of the instance an output was rendered for. */
const INSTANCE_NAMESPACE_LABEL = 'kro.run/instance-namespace';
/** The most findings told; the rest are counted (a graph of many instances would fill a screen). */
const MAX_FINDINGS = 20;

/** What stopped the RGD's controller `controller` from writing `pointer`, instance by instance. */
export function graphWhyNot(
  index: ExplainIndex,
  graph: ResourceGraph,
  controller: string,
  pointer: Pointer,
): WhyNotFinding[] {
  const nodes = graph.nodes.filter((n) => n.type === pointer.type && n.external !== true);
  const instances = index.source.resources
    .filter((r) => r.metadata.type === graph.instanceType)
    .sort((a, b) => compareStrings(formatPointer(a.metadata), formatPointer(b.metadata)));
  if (instances.length === 0) {
    return [
      {
        reason: 'input-missing',
        message: `no ${graph.instanceType} exists: the RGD ${graph.name} renders nothing without an instance`,
        reconciles: [],
      },
    ];
  }
  const outputs = index.source.resources.filter((r) => isOutputOf(r, graph, controller));
  const findings = instances.flatMap((instance) =>
    nodes.map((node) => nodeFinding(index, graph, instance, node, outputs)),
  );
  // What was not rendered explains more than what was rendered under another name: first.
  const told = [
    ...findings.filter((f) => f.reason !== 'rendered-other'),
    ...findings.filter((f) => f.reason === 'rendered-other'),
  ];
  if (told.length <= MAX_FINDINGS) return told;
  const more = told.length - (MAX_FINDINGS - 1);
  return [
    ...told.slice(0, MAX_FINDINGS - 1),
    {
      reason: told[MAX_FINDINGS - 1]?.reason ?? 'rendered-other',
      message: `and ${more} more of its resources for its ${instances.length} instances`,
      reconciles: [],
    },
  ];
}

function nodeFinding(
  index: ExplainIndex,
  graph: ResourceGraph,
  instance: Resource,
  node: GraphNode,
  outputs: readonly Resource[],
): WhyNotFinding {
  const of = `for ${formatPointer(instance.metadata)}`;
  const input = toPointer(instance.metadata);
  const position = index.position(input);
  const base = { input, ...(position ? { position } : {}), reconciles: [] };
  const rendered = renderedFor(instance, outputs);
  const mine = rendered.get(node.id) ?? [];
  if (mine.length > 0) {
    return {
      ...base,
      reason: 'rendered-other',
      message: `${of}, resource ${node.id} rendered ${mine.map(formatPointer).join(', ')}`,
    };
  }
  const { waits, errors } = readiness(instance);
  const failed = errors.find((e) => e.startsWith(`resource ${node.id}: `));
  if (failed !== undefined) {
    return { ...base, reason: 'error', message: `${of}, ${failed}` };
  }
  const cause = whyNotRendered(graph, node, rendered, waits, new Set());
  return {
    ...base,
    reason: cause.reason,
    message: `${of}, ${cause.text}`,
  };
}

/**
 * Why a resource of the graph was not rendered for an instance: it waits (on what the
 * condition names, or on a dependency that waits), or it was left out (by its own
 * `includeWhen`, or with a dependency that was).
 */
function whyNotRendered(
  graph: ResourceGraph,
  node: GraphNode,
  rendered: ReadonlyMap<string, readonly Pointer[]>,
  waits: readonly string[],
  seen: Set<string>,
): { readonly text: string; readonly reason: 'waiting' | 'left-out' | 'not-run' } {
  seen.add(node.id);
  const wait = waits.find((w) => w.startsWith(`${node.id}: `));
  if (wait !== undefined) {
    return {
      text: `resource ${node.id} waits: ${locateReadyWhen(node, wait.slice(node.id.length + 2))}`,
      reason: 'waiting',
    };
  }
  for (const id of node.dependencies) {
    // Rendered, but not ready (its readyWhen waits): what depends on it waits too.
    const dependencyWait = waits.find((w) => w.startsWith(`${id}: `));
    const dependency = graph.nodes.find((n) => n.id === id);
    if (dependencyWait !== undefined && rendered.has(id)) {
      const why = dependencyWait.slice(id.length + 2);
      return {
        text: `resource ${node.id} depends on ${id}, which is not ready: ${dependency ? locateReadyWhen(dependency, why) : why}`,
        reason: 'waiting',
      };
    }
    if (dependency === undefined || seen.has(id) || rendered.has(id)) continue;
    if (dependency.external === true) continue;
    const cause = whyNotRendered(graph, dependency, rendered, waits, seen);
    return {
      text: `resource ${node.id} depends on ${id}, which was not rendered: ${cause.text}`,
      reason: cause.reason,
    };
  }
  if (node.includeWhen.length > 0) {
    const conditions = node.includeWhen.map((e) => `\${${e.source}} (${e.location})`).join(', ');
    return {
      text: `resource ${node.id} was left out: its includeWhen ${conditions} was false`,
      reason: 'left-out',
    };
  }
  const external = waits.find((w) => w.startsWith('externalRef '));
  return {
    text: `resource ${node.id} was not rendered${external === undefined ? '' : `: ${external}`}`,
    reason: external === undefined ? 'not-run' : 'waiting',
  };
}

/** The resources each of the graph's resources rendered for the instance, by resource id. */
function renderedFor(
  instance: Resource,
  outputs: readonly Resource[],
): Map<string, readonly Pointer[]> {
  const byNode = new Map<string, Pointer[]>();
  for (const output of outputs) {
    const { labels } = output.metadata;
    if (labels[INSTANCE_LABEL] !== instance.metadata.id) continue;
    const namespace = labels[INSTANCE_NAMESPACE_LABEL];
    if (namespace !== undefined && namespace !== instance.metadata.namespace) continue;
    const node = labels[NODE_LABEL] as string;
    byNode.set(node, [...(byNode.get(node) ?? []), toPointer(output.metadata)]);
  }
  return byNode;
}

/** Whether a resource is one the graph's controller wrote (or, a nested instance, unowned). */
function isOutputOf(resource: Resource, graph: ResourceGraph, controller: string): boolean {
  const { labels, owner } = resource.metadata;
  if (labels[INSTANCE_LABEL] === undefined || labels[NODE_LABEL] === undefined) return false;
  return owner === controller || (owner === '' && labels[GRAPH_LABEL] === graph.name);
}
