/**
 * One render of an RGD's instance: its resources in dependency order (included, iterated,
 * rendered, admitted, written), then its status. A resource whose data is not there yet waits,
 * and keeps what it produced before.
 */

import type { Draft, Resource } from '../engine/resource/resource.js';
import { newResource } from '../engine/resource/resource.js';
import { deepClone, isRecord } from '../engine/resource/plain-data.js';
import type { QRuntime } from '../engine/runtime/controller.js';
import { pointerKey, toPointer } from '../engine/resource/pointer.js';
import {
  OBSERVED_STATUS_TYPE,
  observedStatusId,
  type ObservedStatusSpec,
} from '../engine/resource/observed-status.js';
import type { ProducedOutputs } from './produced-outputs.js';
import {
  evaluateCollectionConditions,
  evaluateConditions,
  renderField,
  renderTemplate,
  setPath,
  type TemplateField,
} from './template-rendering.js';
import type { GraphNode, ResourceGraph } from './compiled-resource-graph.js';
import {
  GRAPH_LABEL,
  INSTANCE_LABEL,
  NODE_LABEL,
  instanceLabels,
  kroChildLabels,
} from './kro-labels.js';
import { instanceConditions } from './instance-conditions.js';
import { customConditions } from './custom-conditions.js';
import { documentOf } from './api-object-document.js';
import {
  describeRef,
  findExternal,
  findExternalCollection,
  givenNamespace,
  readExternal,
} from './external-references.js';
import { evaluateIncludeWhen } from './include-when.js';
import { iterate } from './for-each-bindings.js';

type Spec = Record<string, unknown>;

/** What one reconcile of an instance wrote, and what the controller produced before. */
export interface Outputs {
  readonly index: ProducedOutputs;
  /** The instance, as the index names it (`namespace/id`). */
  readonly instance: string;
  /** Pointer keys written (or kept) by this reconcile. */
  readonly written: Set<string>;
  /**
   * Why custom conditions were dropped (`custom-conditions.ts`): the instance is in error, but
   * what it rendered was applied whole, so kro prunes what it no longer renders.
   */
  readonly conditionProblems: string[];
}

export async function renderInstance(
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
  const builtins = instanceConditions(errors, waits, instance.metadata.generation);
  status.conditions = builtins;
  if (graph.conditions !== undefined && graph.conditions.length > 0) {
    // The author's conditions are the instance's, in place of kro's four (which they read).
    const previous = isRecord(instance.spec.status) ? instance.spec.status.conditions : undefined;
    const custom = customConditions(graph.conditions, scope, builtins, previous, {
      generation: instance.metadata.generation,
      // As the API server writes a metav1.Time: RFC 3339 to the second (the run's clock).
      now: new Date(rt.clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'),
    });
    status.conditions = custom.conditions;
    if (custom.problems.length > 0) {
      // kro writes the conditions that survived and sets the state to Error.
      status.state = 'ERROR';
      for (const problem of custom.problems) {
        outputs.conditionProblems.push(`${instanceName}: ${problem}`);
      }
    }
  }
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

/** Whether an expression of a template field reads one of `ids`. */
function readsAny(field: TemplateField, ids: ReadonlySet<string>): boolean {
  return field.parts.some(
    (part) => typeof part !== 'string' && part.references.some((r) => ids.has(r)),
  );
}

/** A resource that waits keeps what it produced before (it is written again, unchanged). */
function keepExisting(node: GraphNode, outputs: Outputs): void {
  for (const output of outputs.index.of(outputs.instance)) {
    if (output.node === node.id) outputs.written.add(pointerKey(output.pointer));
  }
}

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

function stringMap(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isRecord(value)) return out;
  for (const [key, item] of Object.entries(value)) if (typeof item === 'string') out[key] = item;
  return out;
}
