/**
 * The controller of a kro ResourceGraphDefinition: for each instance of the RGD's kind, it
 * renders the RGD's resource templates in dependency order and writes them as its outputs, then
 * writes the RGD's status expressions into the instance's status.
 *
 * The graph comes compiled (`loaders/kro/`): the templates' `${...}` expressions are functions of
 * a scope (`schema`: the instance; each resource id: that resource as produced), so this module
 * knows nothing of CEL. Offline, status that only another controller writes (a Deployment's
 * `availableReplicas`) is never invented: an expression that reads a field nobody wrote waits
 * (it is neither true nor false). A resource that waits keeps the instance in progress, and its
 * warning names the resource and expression; a status field that waits is left out, as kro does.
 *
 * This module is the controller: its inputs, its wakeups, the finalizer it holds on an instance and
 * the pruning of what a render no longer makes. One render is `render-instance.ts`.
 */

import type { Resource } from '../engine/resource/resource.js';
import { requeueAfter, terminalError } from '../engine/errors.js';
import type {
  AnyController,
  Input,
  Output,
  QControllerBase,
  QInputKind,
  QInputMapper,
  QRuntime,
  ReducedMetadata,
} from '../engine/runtime/controller.js';
import { pointerKey, toPointer, type Pointer } from '../engine/resource/pointer.js';
import { ProducedOutputs, type ProducedOutput } from './produced-outputs.js';
import { OBSERVED_STATUS_TYPE, observedTarget } from '../engine/resource/observed-status.js';
import { hasExpressionNamespace, type ResourceGraph } from './compiled-resource-graph.js';
import { GRAPH_LABEL, INSTANCE_LABEL, INSTANCE_NAMESPACE_LABEL, NODE_LABEL } from './kro-labels.js';
import { renderInstance, type Outputs } from './render-instance.js';

export type {
  ExpressionOutcome,
  GraphExpression,
  LocateTemplate,
  TemplateField,
} from './template-rendering.js';

/**
 * An RGD's controller. kro watches an RGD's instances in every namespace; offline, the controller
 * reads those of the namespaces it is given, and follows its instances into another one that
 * appears during a run (an instance applied later, a nested instance an outer RGD writes there)
 * through {@link watchNamespace} and `Runtime.addInputs`.
 */
export type ResourceGraphController = QControllerBase &
  QInputMapper & {
    /**
     * Whether a resource of `type` in a namespace makes the controller read that namespace: its
     * instances', its nested instances' (whose status it reads), an observed status.
     */
    follows(type: string): boolean;
    /**
     * Reads instances (and what they read) in `namespace` too: the inputs to add to the runtime's
     * table (`Runtime.addInputs`), none when it reads there already.
     */
    watchNamespace(namespace: string): Input<QInputKind>[];
  };

/** Whether a controller is an RGD's. */
export function isResourceGraphController(
  controller: AnyController,
): controller is ResourceGraphController {
  return 'watchNamespace' in controller && 'follows' in controller;
}

/** Options of {@link createResourceGraphController}. */
export interface ResourceGraphControllerOptions {
  /** The namespaces instances live in (their inputs); `default` when omitted. */
  readonly namespaces?: readonly string[];
  /**
   * Read the observed statuses (`ObservedStatuses.cosi.dev`) of these namespaces, and lay each on
   * the resource it observes when this controller writes it: the status a cluster's
   * controllers would report (`engine/resource/observed-status.ts`).
   */
  readonly observe?: boolean;
}

type Spec = Record<string, unknown>;

/** How the name of an RGD's controller starts. */
export const RESOURCE_GRAPH_PREFIX = 'ResourceGraph(';

/** The controller name of an RGD. */
export function resourceGraphControllerName(graph: ResourceGraph): string {
  return `${RESOURCE_GRAPH_PREFIX}${graph.name})`;
}

/**
 * A queue controller that renders each instance of `graph.instanceType` (see the module
 * comment). Template problems (a value of the wrong type in a string template, a rendered
 * document its kind refuses) fail that instance's reconcile, naming the resource and expression;
 * the runtime retries it with backoff, and a check reports it at the instance.
 */
export function createResourceGraphController(
  graph: ResourceGraph,
  options: ResourceGraphControllerOptions = {},
): ResourceGraphController {
  const name = resourceGraphControllerName(graph);
  const namespaces = [...new Set(options.namespaces ?? ['default'])].sort();
  const observe = options.observe === true;
  const produced = graph.nodes.filter((n) => n.external !== true);
  // A kind an externalRef reads is watched even when the graph also renders objects of it (kro's
  // e2e check-external-references reads a ConfigMap and writes one): kro registers a watch on
  // the object an externalRef names before it reads it.
  const externalTypes = [
    ...new Set(graph.nodes.filter((n) => n.external === true).map((n) => n.type)),
  ].filter((t) => t !== graph.instanceType);
  const outputTypes = [...new Set(produced.map((n) => n.type))].filter(
    (t) => t !== graph.instanceType,
  );
  const nestedTypes = [
    ...new Set(produced.filter((n) => n.nested === true).map((n) => n.type)),
  ].filter((t) => t !== graph.instanceType);
  const outputs: Output[] = [
    { type: graph.instanceType, kind: 'shared' },
    ...outputTypes.map((type) => ({ type, kind: 'shared' as const })),
  ];
  const producedTypes = [...new Set(produced.map((n) => n.type))];
  const index = new ProducedOutputs();
  /** No externalRef and no nested instance: a render reads the instance and nothing else. */
  const pure = graph.nodes.every((n) => n.external !== true && n.nested !== true);
  /**
   * External types that an instance of any namespace may read: cluster-scoped ones, and those
   * an external collection lists across namespaces. A change of one wakes every instance.
   */
  const widelyRead = new Set(
    graph.nodes
      .filter(
        (n) =>
          n.external === true &&
          (!n.namespaced || n.externalCollection === true || hasExpressionNamespace(n)),
      )
      .map((n) => n.type),
  );
  /** The instance each render left, by `namespace/id`, while it is unchanged. */
  const settled = new Map<string, Resource<Spec>>();
  const mappedTypes = [
    ...new Set([...externalTypes, ...nestedTypes, ...(observe ? [OBSERVED_STATUS_TYPE] : [])]),
  ];
  const primaryIn = (namespace: string): Input<QInputKind> => ({
    namespace,
    type: graph.instanceType,
    kind: 'primary',
  });
  /**
   * The instances a change of a resource an externalRef may name makes look again: those of its
   * namespace (of every namespace, when instances elsewhere may read it).
   */
  const externalReaders = async (
    rt: QRuntime,
    metadata: ReducedMetadata,
  ): Promise<readonly Pointer[]> => {
    const looking = widelyRead.has(metadata.type) ? namespaces : [metadata.namespace];
    const instances = await Promise.all(
      looking.map((namespace) => rt.list({ namespace, type: graph.instanceType })),
    );
    return instances.flat().map((i) => i.metadata);
  };
  const mappedIn = (namespace: string): Input<QInputKind>[] =>
    mappedTypes.map((type) => ({ namespace, type, kind: 'mapped' }));
  return {
    name,
    follows: (type) =>
      type === graph.instanceType || nestedTypes.includes(type) || type === OBSERVED_STATUS_TYPE,
    watchNamespace(namespace) {
      if (namespaces.includes(namespace)) return [];
      namespaces.push(namespace);
      namespaces.sort();
      return [primaryIn(namespace), ...mappedIn(namespace)];
    },
    settings: {
      inputs: [...namespaces.map(primaryIn), ...namespaces.flatMap(mappedIn)],
      outputs,
    },
    async mapInput(rt, metadata) {
      // An observed status came, changed or went: the instance that rendered what it observes
      // writes that again, with it.
      if (metadata.type === OBSERVED_STATUS_TYPE) {
        const instance = await observingInstance(rt, graph, metadata);
        if (instance !== undefined) settled.delete(instanceKeyOf(instance));
        return instance === undefined ? [] : [instance];
      }
      // A nested instance's status changed (its RGD's controller wrote it): its instance looks
      // again, as its expressions may read that status.
      if (nestedTypes.includes(metadata.type)) {
        const instance = metadata.labels[INSTANCE_LABEL];
        // The instance that wrote it may be of another namespace than it (or cluster-scoped).
        const namespace = metadata.labels[INSTANCE_NAMESPACE_LABEL] ?? 'default';
        const writer: Pointer[] =
          metadata.labels[GRAPH_LABEL] === graph.name && instance !== undefined
            ? [{ namespace, type: graph.instanceType, id: instance }]
            : [];
        // A nested kind an externalRef also reads: every instance that may read it looks too.
        if (!externalTypes.includes(metadata.type)) return writer;
        return [...writer, ...(await externalReaders(rt, metadata))];
      }
      return externalReaders(rt, metadata);
    },
    async reconcile(rt, pointer) {
      await index.load(rt, producedTypes, namespaces, (resource) =>
        describeOutput(resource, graph, rt.name),
      );
      const instance = await rt.find<Spec>(pointer);
      const key = instanceKeyOf(pointer);
      // A render is a function of the instance alone when nothing else is read: the very
      // instance it left (stored resources are frozen; any write makes a new object, so this is
      // the wakeup of its own status write) renders the same, and is not rendered again.
      if (pure && instance !== undefined && settled.get(key) === instance) return;
      settled.delete(key);
      const written = new Set<string>();
      const problems: string[] = [];
      const outputs: Outputs = { index, instance: key, written, conditionProblems: [] };
      let left: Resource<Spec> | undefined;
      if (instance !== undefined && instance.metadata.phase === 'running') {
        // kro holds each instance it manages until what it rendered is gone.
        if (!instance.metadata.finalizers.includes(INSTANCE_FINALIZER)) {
          await rt.addFinalizer(instance.metadata, INSTANCE_FINALIZER);
        }
        left = await renderInstance(rt, graph, instance, problems, outputs, {
          namespaces,
          observe,
        });
      }
      // As kro prunes: only after a render and apply without errors. A resource that fails to
      // render (an invalid object, a CEL error) leaves what it and the others made before in
      // place, as kro's pruneIfSafe does; a teardown removes everything.
      const failedRender = problems.length > 0 && instance?.metadata.phase === 'running';
      if (!failedRender) await removeUnwritten(rt, outputs);
      if (instance !== undefined && instance.metadata.phase === 'tearingDown') {
        await releaseInstance(rt, instance, outputs);
      }
      if (problems.length > 0) {
        throw new Error([...problems, ...outputs.conditionProblems].join('; '));
      }
      // Dropped custom conditions put the instance in error (its status says so, written above),
      // after pruning; kro's reconcile then succeeds and is not retried (status.go: "set
      // state=Error rather than failing the reconcile"): reported once, retried on its next event.
      if (outputs.conditionProblems.length > 0) {
        throw terminalError(new Error(outputs.conditionProblems.join('; ')));
      }
      if (pure && left !== undefined) settled.set(key, left);
    },
  };
}

function instanceKeyOf(pointer: Pointer): string {
  return `${pointer.namespace}/${pointer.id}`;
}

/** Whether a resource is an output of this graph (and of which instance): by its labels. */
function describeOutput(
  resource: Resource,
  graph: ResourceGraph,
  name: string,
): { instance: string; output: ProducedOutput } | undefined {
  const { labels, owner, namespace } = resource.metadata;
  const instance = labels[INSTANCE_LABEL];
  const node = labels[NODE_LABEL];
  if (instance === undefined || node === undefined) return undefined;
  const unowned = owner === '' && labels[GRAPH_LABEL] === graph.name;
  if (owner !== name && !unowned) return undefined;
  return {
    instance: `${namespace}/${instance}`,
    output: { pointer: toPointer(resource.metadata), node, unowned },
  };
}

/**
 * The finalizer kro puts on each instance it manages: a deleted instance stays until its
 * resources are gone.
 */
export const INSTANCE_FINALIZER = 'kro.run/finalizer';

/** How long (simulated ms) an instance torn down waits, between looks, for a resource held. */
const HELD_RESOURCE_RETRY_MS = 1_000;

/**
 * An instance torn down is let go (its finalizer removed) once nothing it rendered is left; a
 * resource another controller's finalizer holds keeps it, and it looks again later.
 */
async function releaseInstance(
  rt: QRuntime,
  instance: Resource<Spec>,
  outputs: Outputs,
): Promise<void> {
  if (!instance.metadata.finalizers.includes(INSTANCE_FINALIZER)) return;
  if (outputs.index.of(outputs.instance).length > 0) throw requeueAfter(HELD_RESOURCE_RETRY_MS);
  await rt.removeFinalizer(instance.metadata, INSTANCE_FINALIZER);
}

/** Destroys what this controller produced for the instance and did not write this time. */
async function removeUnwritten(rt: QRuntime, outputs: Outputs): Promise<void> {
  for (const output of outputs.index.of(outputs.instance)) {
    if (outputs.written.has(pointerKey(output.pointer))) continue;
    if ((await rt.find(output.pointer)) !== undefined) {
      const owner = output.unowned ? { owner: '' } : {};
      // Held by another controller's finalizer: kept in the index, torn down again next time.
      if (!(await rt.teardown(output.pointer, owner))) continue;
      await rt.destroy(output.pointer, owner);
    }
    outputs.index.remove(outputs.instance, output.pointer);
  }
}

/**
 * The instance of `graph` whose output an observed status observes (by the labels kro puts on
 * every output); `undefined` when this controller has written no such output.
 */
async function observingInstance(
  rt: QRuntime,
  graph: ResourceGraph,
  observed: { readonly namespace: string; readonly id: string },
): Promise<Pointer | undefined> {
  const target = observedTarget(observed.id);
  if (target === undefined) return undefined;
  const output = await rt.find<Spec>({
    namespace: observed.namespace,
    type: target.type,
    id: target.name,
  });
  if (output === undefined || output.metadata.owner !== rt.name) return undefined;
  const { labels } = output.metadata;
  const instance = labels[INSTANCE_LABEL];
  if (instance === undefined) return undefined;
  const namespace = labels[INSTANCE_NAMESPACE_LABEL] ?? 'default';
  return { namespace, type: graph.instanceType, id: instance };
}
