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
 */

import type { Draft, Resource } from '../engine/resource/resource.js';
import { newResource } from '../engine/resource/resource.js';
import { deepClone } from '../engine/resource/plain-data.js';
import { requeueAfter } from '../engine/errors.js';
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
import {
  describe,
  evaluateCollectionConditions,
  evaluateConditions,
  renderField,
  renderTemplate,
  setPath,
  type GraphExpression,
  type LocateTemplate,
  type Rendered,
  type TemplateField,
} from './template-rendering.js';
import { labelSelectorQuery } from './label-selector-query.js';
import {
  OBSERVED_STATUS_TYPE,
  observedStatusId,
  observedTarget,
  type ObservedStatusSpec,
} from '../engine/resource/observed-status.js';

export type {
  ExpressionOutcome,
  GraphExpression,
  LocateTemplate,
  TemplateField,
} from './template-rendering.js';
/** One resource of a graph. */
export interface GraphNode {
  readonly id: string;
  /** The cosi type of what it produces. */
  readonly type: string;
  readonly namespaced: boolean;
  readonly template: Readonly<Record<string, unknown>>;
  readonly fields: readonly TemplateField[];
  readonly includeWhen: readonly GraphExpression[];
  readonly readyWhen: readonly GraphExpression[];
  /**
   * `externalRef`: the template names an existing resource (apiVersion, kind, metadata.name and
   * namespace), which is read, never written; it waits until the resource exists.
   */
  readonly external?: boolean;
  /**
   * An `externalRef` with `metadata.selector` instead of a name: a list of every resource of the
   * kind whose labels the selector selects (`{}`: all), in `metadata.namespace` or, without one,
   * in every namespace, sorted by namespace and name. It may be empty; it never waits.
   */
  readonly externalCollection?: boolean;
  /**
   * The template is an instance of another RGD (a nested instance): it is written unowned, as
   * kro's instances are the user's, so that the other RGD's controller writes its status.
   */
  readonly nested?: boolean;
  /** `forEach`: one resource per combination of the iterators' list items (in order). */
  readonly forEach?: readonly { readonly name: string; readonly expression: GraphExpression }[];
  /** The ids this resource's template, conditions reference (not itself). */
  readonly dependencies: readonly string[];
  /**
   * What the API server makes of a rendered document: its problems against its kind's schema
   * and rules, or none and the object it stores, its kind's defaults applied (kro reads that
   * object back, so expressions see the defaults).
   */
  admit?(document: Record<string, unknown>): Admission;
  /**
   * An `externalRef`'s object as the API server stores it, from the document of the resource
   * read (its own copy, changed in place): a built-in kind's Go defaults, which its manifest is
   * held without. Absent: as read.
   */
  read?(document: Record<string, unknown>): Record<string, unknown>;
  /** Where a path of {@link template} is in the RGD's file. */
  readonly locate?: LocateTemplate;
}

/** See {@link GraphNode.admit}. */
export type Admission =
  | { readonly problems: readonly string[]; readonly stored?: undefined }
  | { readonly problems: readonly []; readonly stored: Record<string, unknown> };

/** An RGD compiled: the instance type and its resources in dependency order. */
export interface ResourceGraph {
  /** The RGD's name. */
  readonly name: string;
  /** The cosi type of the instances (the RGD's kind). */
  readonly instanceType: string;
  /** The instances' Kubernetes kind (`kro.run/v1alpha1`, `WebApp`): their children's labels name it. */
  readonly instanceKind?: {
    readonly apiVersion: string;
    readonly kind: string;
    readonly namespaced: boolean;
  };
  /** Topologically ordered (Kahn's order, ties by declaration). */
  readonly nodes: readonly GraphNode[];
  /** `spec.schema.status`: fields of the instance's status. */
  readonly status: readonly TemplateField[];
  /** Where a path below `spec.schema.status` is in the RGD's file. */
  readonly locateStatus?: LocateTemplate;
  /** Where a path below `spec.schema.spec` (a field and its `default=`) is in the RGD's file. */
  readonly locateSchema?: LocateTemplate;
  /** The RGD's document as written: another one compiles to another controller. */
  readonly source: unknown;
}

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

/**
 * Whether a resource's `metadata.namespace` is (or holds) a `${...}` expression: an externalRef
 * so written (`${schema.spec.targetNamespace}`, as kro's docs write for a cluster-scoped RGD)
 * may read any namespace.
 */
export function hasExpressionNamespace(node: GraphNode): boolean {
  const metadata = node.template.metadata;
  if (typeof metadata !== 'object' || metadata === null) return false;
  const namespace = (metadata as Record<string, unknown>).namespace;
  return typeof namespace === 'string' && namespace.includes('${');
}

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
      const outputs: Outputs = { index, instance: key, written };
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
      if (problems.length > 0) throw new Error(problems.join('; '));
      if (pure && left !== undefined) settled.set(key, left);
    },
  };
}

/** What one reconcile of an instance wrote, and what the controller produced before. */
interface Outputs {
  readonly index: ProducedOutputs;
  /** The instance, as the index names it (`namespace/id`). */
  readonly instance: string;
  /** Pointer keys written (or kept) by this reconcile. */
  readonly written: Set<string>;
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

async function renderInstance(
  rt: QRuntime,
  graph: ResourceGraph,
  instance: Resource<Spec>,
  problems: string[],
  outputs: Outputs,
  reading: { readonly namespaces: readonly string[]; readonly observe: boolean },
): Promise<Resource<Spec> | undefined> {
  const { namespaces } = reading;
  const instanceNamespaced = graph.instanceKind?.namespaced !== false;
  const instanceName = instanceNamespaced
    ? `${graph.instanceType} ${instance.metadata.namespace}/${instance.metadata.id}`
    : `${graph.instanceType} ${instance.metadata.id}`;
  const schema = documentOf(instance, instanceNamespaced);
  // kro labels an instance it manages before it renders (ensureManaged), and renders the labeled
  // object: CEL reads its labels with kro's (a nested instance keeps those the outer RGD wrote).
  if (instance.metadata.labels[INSTANCE_LABEL] === undefined) {
    schema.metadata = {
      ...(schema.metadata as Record<string, unknown>),
      labels: { ...instance.metadata.labels, ...instanceLabels(graph) },
    };
  }
  const scope: Record<string, unknown> = { schema };
  /** Ids not produced (excluded, or waiting), and why. */
  const excluded = new Set<string>();
  const waiting = new Map<string, string>();
  const notReady = new Map<string, string>();
  const waits: string[] = [];

  for (const node of graph.nodes) {
    const blockedBy = node.dependencies.find((d) => excluded.has(d));
    if (blockedBy !== undefined) {
      excluded.add(node.id);
      continue;
    }
    const waitOn = node.dependencies.find((d) => waiting.has(d) || notReady.has(d));
    if (waitOn !== undefined) {
      waiting.set(node.id, waiting.get(waitOn) ?? notReady.get(waitOn) ?? '');
      keepExisting(node, outputs);
      continue;
    }
    const include = evaluateIncludeWhen(node.includeWhen, scope);
    if (include.state === 'error') {
      problems.push(`${instanceName}: resource ${node.id}: ${include.message}`);
      excluded.add(node.id);
      continue;
    }
    if (include.state === 'waiting') {
      waiting.set(node.id, include.reason);
      waits.push(`${node.id}: includeWhen ${include.reason}`);
      keepExisting(node, outputs);
      continue;
    }
    if (!include.value) {
      excluded.add(node.id);
      continue;
    }
    if (node.external === true) {
      const ref = renderTemplate(node.template, node.fields, scope);
      if (ref.state !== 'done') {
        if (ref.state === 'error')
          problems.push(`${instanceName}: resource ${node.id}: ${ref.message}`);
        waiting.set(node.id, ref.state === 'error' ? ref.message : ref.reason);
        continue;
      }
      if (node.externalCollection === true) {
        const found = await findExternalCollection(rt, node, ref.value, namespaces);
        if ('error' in found) {
          problems.push(`${instanceName}: resource ${node.id}: ${found.error}`);
          waiting.set(node.id, found.error);
          continue;
        }
        scope[node.id] = found;
      } else {
        const found = await findExternal(rt, node, ref.value as Record<string, unknown>, instance);
        if (found === undefined) {
          const reason = `externalRef ${node.id} (${describeRef(ref.value)}) does not exist`;
          waiting.set(node.id, reason);
          waits.push(reason);
          continue;
        }
        scope[node.id] = readExternal(
          node,
          documentOf(found, node.namespaced, ref.value as Record<string, unknown>),
        );
      }
    } else {
      const combinations = iterate(node, scope);
      if (combinations.state === 'error') {
        problems.push(`${instanceName}: resource ${node.id}: ${combinations.message}`);
        waiting.set(node.id, combinations.message);
        continue;
      }
      if (combinations.state === 'waiting') {
        waiting.set(node.id, combinations.reason);
        waits.push(`${node.id}: forEach ${combinations.reason}`);
        keepExisting(node, outputs);
        continue;
      }
      const produced: Record<string, unknown>[] = [];
      let blocked = false;
      const size = combinations.value.length;
      for (const [index, bindings] of combinations.value.entries()) {
        const rendered = renderTemplate(
          node.template,
          node.fields,
          node.forEach === undefined ? scope : { ...scope, ...bindings },
        );
        if (rendered.state === 'error') {
          problems.push(`${instanceName}: resource ${node.id}: ${rendered.message}`);
          waiting.set(node.id, rendered.message);
          blocked = true;
          break;
        }
        if (rendered.state === 'waiting') {
          waiting.set(node.id, rendered.reason);
          waits.push(`${node.id}: ${rendered.reason}`);
          keepExisting(node, outputs);
          blocked = true;
          break;
        }
        const written = rendered.value as Record<string, unknown>;
        if (nameOf(written) === undefined) {
          // kro applies the object as rendered; the API server refuses it without a name.
          problems.push(
            `${instanceName}: resource ${node.id} renders a ${String(written.kind)} without metadata.name: kro applies it as written, and the API server refuses an object without a name`,
          );
          waiting.set(node.id, 'invalid');
          blocked = true;
          break;
        }
        const admission = node.admit?.(deepClone(written));
        if (admission !== undefined && admission.stored === undefined) {
          problems.push(
            `${instanceName}: resource ${node.id} renders an invalid ${String(written.kind)}: ${admission.problems.join('; ')}`,
          );
          waiting.set(node.id, 'invalid');
          blocked = true;
          break;
        }
        const document = admission?.stored ?? written;
        const output = await writeOutput(
          rt,
          graph,
          node,
          document,
          instance,
          node.forEach === undefined ? undefined : { index, size },
          // An observed status is read where the controller reads: it follows one into a
          // namespace it did not read (`instance-namespaces.ts`), and is woken by it there.
          reading.observe ? reading.namespaces : [],
        );
        if (output === undefined) {
          problems.push(
            `${instanceName}: resource ${node.id}: ${describeRef(document)} exists and is not this instance's: it is a manifest, or another instance's`,
          );
          waiting.set(node.id, 'collides');
          blocked = true;
          break;
        }
        outputs.written.add(pointerKey(output.metadata));
        outputs.index.add(outputs.instance, {
          pointer: toPointer(output.metadata),
          node: node.id,
          unowned: node.nested === true,
        });
        produced.push(documentOf(output, node.namespaced, document));
      }
      if (blocked) continue;
      scope[node.id] = node.forEach === undefined ? produced[0] : produced;
    }
    const items = scope[node.id];
    const ready: ReturnType<typeof evaluateCollectionConditions> =
      (node.forEach !== undefined || node.externalCollection === true) && Array.isArray(items)
        ? evaluateCollectionConditions(node.readyWhen, items)
        : evaluateConditions(node.readyWhen, scope);
    // A collection's item that is not ready is named: `deps (web-b): readyWhen is false`.
    const subject = ready.item === undefined ? node.id : `${node.id} (${ready.item})`;
    if (ready.state === 'error') {
      problems.push(`${instanceName}: resource ${subject}: ${ready.message}`);
      notReady.set(node.id, ready.message);
    } else if (ready.state === 'waiting') {
      notReady.set(node.id, ready.reason);
      waits.push(`${subject}: readyWhen ${ready.reason}`);
    } else if (!ready.value) {
      notReady.set(node.id, 'readyWhen is false');
      waits.push(`${subject}: readyWhen is false`);
    }
  }

  const status: Record<string, unknown> = {};
  for (const field of graph.status) {
    // A field that reads a resource left out (includeWhen false, or a dependent of one) is
    // omitted, as kro omits a status field whose data is unavailable: it waits on nothing, a
    // left-out resource counting as done.
    if (readsAny(field, excluded)) continue;
    // A field whose data is not there yet (status only a cluster's controllers write) is omitted
    // too, and the instance does not wait on it: kro's state follows its resources' readiness
    // alone (`readyWhen`), a status field that cannot resolve is left out.
    const value = renderField(field, scope);
    if (value.state === 'done') setPath(status, field.path, value.value);
    else if (value.state === 'error')
      problems.push(`${instanceName}: status.${field.path.join('.')}: ${value.message}`);
  }
  // A resource that failed (a render, a rule, an apply the API server would refuse) is kro's
  // node in error, which makes the instance's state ERROR whatever else waits.
  status.state = problems.length > 0 ? 'ERROR' : waits.length === 0 ? 'ACTIVE' : 'IN_PROGRESS';
  const errors = problems.map((p) =>
    p.startsWith(`${instanceName}: `) ? p.slice(instanceName.length + 2) : p,
  );
  status.conditions = instanceConditions(errors, waits, instance.metadata.generation);
  // An instance another controller wrote as its own (not an RGD's nested instance, which is
  // written unowned) is that controller's to write: its status is left alone.
  if (instance.metadata.owner !== '') return undefined;
  return rt.modifyWithResult<Spec>(
    newResource<Spec>(instance.metadata, {}),
    (draft) => {
      // Replaced whole, as kro writes it: a field whose data went away goes with it.
      draft.spec.status = status;
      // kro labels the instances it manages; a nested instance is the outer RGD's output, whose
      // labels that RGD writes.
      if (draft.metadata.labels[INSTANCE_LABEL] === undefined) {
        draft.metadata.labels = { ...draft.metadata.labels, ...instanceLabels(graph) };
      }
    },
    { noOwner: true },
  );
}

/**
 * The value of the `kro.run/kro-version` label cosi writes (kro writes its own version): the kro
 * release whose behaviour cosi follows, marked as cosi's, the same in every run.
 */
export const KRO_VERSION_LABEL_VALUE = 'v0.9.3-cosi';

/**
 * The labels kro puts on an instance it manages (its instance labeler: `NewKROMetaLabeler` and
 * `NewResourceGraphDefinitionLabeler`), the RGD's uid made as every uid offline (deterministic).
 */
function instanceLabels(graph: ResourceGraph): Record<string, string> {
  return {
    'kro.run/owned': 'true',
    'kro.run/kro-version': KRO_VERSION_LABEL_VALUE,
    'kro.run/resource-graph-definition-id': deterministicUid(
      `ResourceGraphDefinitions.kro.run//${graph.name}`,
    ),
    [GRAPH_LABEL]: graph.name,
  };
}

/** Whether an expression of a template field reads one of `ids`. */
function readsAny(field: TemplateField, ids: ReadonlySet<string>): boolean {
  return field.parts.some(
    (part) => typeof part !== 'string' && part.references.some((r) => ids.has(r)),
  );
}

/**
 * The prefix of the message of an instance's `ResourcesReady` and `Ready` conditions while it
 * waits (kro's `awaiting resource readiness: ...`): what it waits on follows (offline, status
 * only another controller would write never comes: `cosi apply` reports such instances as
 * `rgd-waiting` warnings).
 */
export const AWAITING_PREFIX = 'awaiting resource readiness: ';

/**
 * An instance's conditions as kro's instance controller writes them (`pkg/controller/instance`,
 * `status.go`): `InstanceManaged` and `GraphResolved` (true once its controller renders it),
 * `ResourcesReady` (`AllResourcesReady`; else `NotReady` with the errors of a resource that
 * failed, `resource error: ...`, or what it waits on), and the root `Ready` (reason `Ready`, no
 * message; else `ResourcesReady`'s reason and message), each with `observedGeneration`. No
 * `lastTransitionTime`: an offline run has no clock time to give.
 */
function instanceConditions(
  errors: readonly string[],
  waits: readonly string[],
  observedGeneration: number,
): Record<string, unknown>[] {
  const resources =
    errors.length > 0
      ? { status: 'False', reason: 'NotReady', message: `resource error: ${errors.join('; ')}` }
      : waits.length > 0
        ? { status: 'False', reason: 'NotReady', message: `${AWAITING_PREFIX}${waits.join('; ')}` }
        : {
            status: 'True',
            reason: 'AllResourcesReady',
            message: 'all resources are created and ready',
          };
  return [
    {
      type: 'InstanceManaged',
      status: 'True',
      reason: 'Managed',
      message: 'instance is properly managed with finalizers and labels',
      observedGeneration,
    },
    {
      type: 'GraphResolved',
      status: 'True',
      reason: 'Resolved',
      message: 'runtime graph created and all resources resolved',
      observedGeneration,
    },
    { type: 'ResourcesReady', ...resources, observedGeneration },
    resources.status === 'True'
      ? { type: 'Ready', status: 'True', reason: 'Ready', message: '', observedGeneration }
      : { type: 'Ready', ...resources, observedGeneration },
  ];
}

/** A resource that waits keeps what it produced before (it is written again, unchanged). */
function keepExisting(node: GraphNode, outputs: Outputs): void {
  for (const output of outputs.index.of(outputs.instance)) {
    if (output.node === node.id) outputs.written.add(pointerKey(output.pointer));
  }
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
function kroChildLabels(
  graph: ResourceGraph,
  node: GraphNode,
  instance: Resource<Spec>,
  item: { readonly index: number; readonly size: number } | undefined,
): Record<string, string> {
  const { type, namespace, id } = instance.metadata;
  const labels: Record<string, string> = {
    [INSTANCE_LABEL]: instanceKey(instance),
    // The instance's uid as CEL sees it (`${schema.metadata.uid}`): deterministic offline.
    'kro.run/instance-id': deterministicUid(`${type}/${namespace}/${id}`),
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

/**
 * Writes one rendered document; `undefined` when it is a nested instance that exists unowned but
 * is not this instance's (a manifest, or another instance's output): it is left alone.
 */
async function writeOutput(
  rt: QRuntime,
  graph: ResourceGraph,
  node: GraphNode,
  document: Record<string, unknown>,
  instance: Resource<Spec>,
  item: { readonly index: number; readonly size: number } | undefined,
  /** The namespaces where observed statuses are read (none: they are not). */
  observedIn: readonly string[],
): Promise<Resource<Spec> | undefined> {
  const metadata = isRecord(document.metadata) ? document.metadata : {};
  const id = nameOf(document) ?? '';
  const namespace = !node.namespaced
    ? 'default'
    : (givenNamespace(metadata) ?? instance.metadata.namespace);
  const spec: Spec = {};
  for (const [key, value] of Object.entries(document)) {
    if (key !== 'apiVersion' && key !== 'kind' && key !== 'metadata') spec[key] = value;
  }
  const labels: Record<string, string> = {
    ...stringMap(metadata.labels),
    ...kroChildLabels(graph, node, instance, item),
  };
  const nested = node.nested === true;
  if (nested) {
    labels[GRAPH_LABEL] = graph.name;
    const existing = await rt.find<Spec>({ namespace, type: node.type, id });
    if (existing !== undefined && !isOwnNested(existing, graph, instance.metadata.id, node.id)) {
      return undefined;
    }
  }
  const annotations = stringMap(metadata.annotations);
  // The status a cluster would report, when one is observed; a nested instance's is written by
  // its own RGD's controller, and kept (an observed status of one is not laid on it).
  const observed =
    !nested && observedIn.includes(namespace)
      ? await rt.find<ObservedStatusSpec>({
          namespace,
          type: OBSERVED_STATUS_TYPE,
          id: observedStatusId(node.type, id),
        })
      : undefined;
  const empty: Draft<Spec> = newResource<Spec>({ namespace, type: node.type, id }, {});
  return rt.modifyWithResult<Spec>(
    empty,
    (draft) => {
      const kept = nested && isRecord(draft.spec.status) ? draft.spec.status : undefined;
      const status = nested
        ? kept
        : observed === undefined
          ? undefined
          : deepClone(observed.spec.status);
      draft.spec = { ...spec, ...(status === undefined ? {} : { status }) };
      draft.metadata.labels = labels;
      draft.metadata.annotations = annotations;
    },
    nested ? { noOwner: true } : {},
  );
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

/** A rendered document's `metadata.name`, when it is a non-empty string. */
function nameOf(document: Record<string, unknown>): string | undefined {
  const name = isRecord(document.metadata) ? document.metadata.name : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
}

/** Whether an unowned resource is a nested instance this graph wrote for `instance`'s `node`. */
function isOwnNested(
  resource: Resource<Spec>,
  graph: ResourceGraph,
  instance: string,
  node?: string,
): boolean {
  const { labels, owner } = resource.metadata;
  return (
    owner === '' &&
    labels[GRAPH_LABEL] === graph.name &&
    labels[INSTANCE_LABEL] === instance &&
    (node === undefined || labels[NODE_LABEL] === node)
  );
}

/** What an externalRef reads of a document, as the API server stores the object. */
function readExternal(node: GraphNode, document: Record<string, unknown>): Record<string, unknown> {
  return node.read === undefined ? document : node.read(deepClone(document));
}

/**
 * A resource as CEL sees it: the Kubernetes document, with the metadata the API server would
 * have generated, deterministic so that renders are reproducible: `uid` (from the type,
 * namespace and name), `generation` (the state's) and `resourceVersion` (the resource's version).
 */
function documentOf(
  resource: Resource<Spec>,
  namespaced: boolean,
  rendered?: Record<string, unknown>,
): Record<string, unknown> {
  // Built key by key: spreading the frozen objects of the state is many times slower in V8.
  const { metadata } = resource;
  const documentMetadata: Record<string, unknown> = {};
  if (rendered && isRecord(rendered.metadata)) copyInto(documentMetadata, rendered.metadata);
  documentMetadata.name = metadata.id;
  // A cluster-scoped object has no namespace (cosi keeps it in `default`).
  if (namespaced) documentMetadata.namespace = metadata.namespace;
  else delete documentMetadata.namespace;
  documentMetadata.uid = deterministicUid(`${metadata.type}/${metadata.namespace}/${metadata.id}`);
  documentMetadata.generation = metadata.generation;
  documentMetadata.resourceVersion = String(metadata.version);
  // As the API server sets it, a metav1.Time: RFC 3339 to the second (the run's clock).
  documentMetadata.creationTimestamp = new Date(metadata.created)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z');
  if (hasKeys(metadata.labels)) documentMetadata.labels = metadata.labels;
  if (hasKeys(metadata.annotations)) documentMetadata.annotations = metadata.annotations;
  const document: Record<string, unknown> = {};
  if (rendered) {
    document.apiVersion = rendered.apiVersion;
    document.kind = rendered.kind;
  }
  document.metadata = documentMetadata;
  copyInto(document, resource.spec);
  return document;
}

function copyInto(
  target: Record<string, unknown>,
  source: Readonly<Record<string, unknown>>,
): void {
  for (const key in source) {
    if (Object.prototype.hasOwnProperty.call(source, key)) target[key] = source[key];
  }
}

function hasKeys(record: Readonly<Record<string, unknown>>): boolean {
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key)) return true;
  return false;
}

/** The uids made, by key: each resource's is asked for on every render that reads it. */
const uids = new Map<string, string>();
const MAX_REMEMBERED_UIDS = 100_000;

/** A UUID-shaped id that is a function of `key` (four 32-bit FNV-1a hashes, differently seeded). */
export function deterministicUid(key: string): string {
  let uid = uids.get(key);
  if (uid === undefined) {
    if (uids.size >= MAX_REMEMBERED_UIDS) uids.clear();
    uid = computeUid(key);
    uids.set(key, uid);
  }
  return uid;
}

function computeUid(key: string): string {
  let digits = '';
  for (const seed of [0x811c9dc5, 0x050c5d1f, 0x1b873593, 0x6b43a9b5]) {
    let hash = seed;
    for (let i = 0; i < key.length; i++) {
      hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
    }
    digits += (hash >>> 0).toString(16).padStart(8, '0');
  }
  return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-5${digits.slice(13, 16)}-${digits.slice(16, 20)}-${digits.slice(20, 32)}`;
}

async function findExternal(
  rt: QRuntime,
  node: GraphNode,
  ref: Record<string, unknown>,
  instance: Resource<Spec>,
): Promise<Resource<Spec> | undefined> {
  const metadata = isRecord(ref.metadata) ? ref.metadata : {};
  if (typeof metadata.name !== 'string') return undefined;
  const namespace = !node.namespaced
    ? 'default'
    : (givenNamespace(metadata) ?? instance.metadata.namespace);
  return rt.find<Spec>({ namespace, type: node.type, id: metadata.name });
}

/**
 * The namespace a rendered template or externalRef names; `undefined` when it names none or
 * `""`, which kro's `normalizeNamespaces` fills with the instance's, as for one left out.
 */
function givenNamespace(metadata: Readonly<Record<string, unknown>>): string | undefined {
  return typeof metadata.namespace === 'string' && metadata.namespace !== ''
    ? metadata.namespace
    : undefined;
}

/**
 * The resources an external collection selects (see {@link GraphNode.externalCollection}), as
 * CEL sees them, or why its rendered selector selects nothing (kro's `invalid label selector`).
 */
async function findExternalCollection(
  rt: QRuntime,
  node: GraphNode,
  ref: unknown,
  namespaces: readonly string[],
): Promise<Record<string, unknown>[] | { error: string }> {
  const r = isRecord(ref) ? ref : {};
  const metadata = isRecord(r.metadata) ? r.metadata : {};
  const query = labelSelectorQuery(metadata.selector);
  if ('error' in query) return { error: `invalid label selector: ${query.error}` };
  const namespace = givenNamespace(metadata);
  const searched = !node.namespaced
    ? ['default']
    : namespace !== undefined
      ? [namespace]
      : namespaces;
  const kind = { apiVersion: r.apiVersion, kind: r.kind };
  const found: Resource<Spec>[] = [];
  for (const ns of searched) {
    found.push(
      ...(await rt.list<Spec>({ namespace: ns, type: node.type }, { labelQueries: [query] })),
    );
  }
  found.sort(
    (a, b) =>
      compare(a.metadata.namespace, b.metadata.namespace) || compare(a.metadata.id, b.metadata.id),
  );
  return found.map((resource) => readExternal(node, documentOf(resource, node.namespaced, kind)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function describeRef(ref: unknown): string {
  const r = isRecord(ref) ? ref : {};
  const metadata = isRecord(r.metadata) ? r.metadata : {};
  const namespace = givenNamespace(metadata);
  return `${String(r.kind)} ${namespace !== undefined ? `${namespace}/` : ''}${String(metadata.name)}`;
}

/**
 * A resource's `includeWhen`, as kro's `Node.IsIgnored` (pkg/runtime/node.go) decides it: a
 * condition that reads another resource waits while that one's data is not there, but one that
 * reads only the instance (`${schema.spec.ingress.enabled}`, the field not set and without a
 * default) is an evaluation error, as kro's docs warn: "give it a default or guard the expression
 * so a missing field does not raise an evaluation error".
 */
function evaluateIncludeWhen(
  conditions: readonly GraphExpression[],
  scope: Readonly<Record<string, unknown>>,
): ReturnType<typeof evaluateConditions> {
  for (const condition of conditions) {
    const outcome = evaluateConditions([condition], scope);
    if (outcome.state === 'done' && outcome.value) continue;
    if (outcome.state === 'waiting' && condition.references.every((r) => r === 'schema')) {
      const evaluated = condition.evaluate(scope);
      const missing = 'missing' in evaluated ? evaluated.missing : outcome.reason;
      return {
        state: 'error',
        message: `includeWhen \${${condition.source}} at ${condition.location}: ${missing} (give the field a default, or guard the expression: has(...), ?.orValue(...))`,
      };
    }
    return outcome;
  }
  return { state: 'done', value: true };
}

/**
 * The most resources one forEach may stamp: kro's controller refuses a larger cartesian product
 * (pkg/runtime/collection.go, `--rgd-max-collection-size`, 1000 by default).
 */
export const MAX_COLLECTION_SIZE = 1000;

/** The iterator bindings of a resource: one empty binding without `forEach`. */
function iterate(
  node: GraphNode,
  scope: Readonly<Record<string, unknown>>,
): { state: 'done'; value: Record<string, unknown>[] } | Exclude<Rendered, { state: 'done' }> {
  let combinations: Record<string, unknown>[] = [{}];
  for (const { name, expression } of node.forEach ?? []) {
    const outcome = expression.evaluate(scope);
    if ('missing' in outcome) {
      return { state: 'waiting', reason: `\${${expression.source}} (${outcome.missing})` };
    }
    if ('error' in outcome) {
      return {
        state: 'error',
        message: `\${${expression.source}} at ${expression.location}: ${outcome.error}`,
      };
    }
    const items = outcome.value;
    if (!Array.isArray(items)) {
      return {
        state: 'error',
        message: `forEach \${${expression.source}} at ${expression.location} must be a list, not ${describe(items)}`,
      };
    }
    const size = combinations.length * items.length;
    if (size > MAX_COLLECTION_SIZE) {
      return {
        state: 'error',
        message: `collection size of ${size} is over the maximum collection size of ${MAX_COLLECTION_SIZE} (kro's default --rgd-max-collection-size)`,
      };
    }
    combinations = combinations.flatMap((c) =>
      items.map((item: unknown) => ({ ...c, [name]: item })),
    );
  }
  return { state: 'done', value: combinations };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(value)) return out;
  for (const [key, item] of Object.entries(value)) if (typeof item === 'string') out[key] = item;
  return out;
}
