/**
 * The `rgd-waiting` warnings of a run: each kro RGD instance still in progress because an
 * expression reads status that no controller here writes (a Deployment's `availableReplicas`),
 * at the instance's manifest, naming what it waits on (its `Ready` condition's message).
 */

import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { formatPointer, pointerKey } from '../engine/resource/pointer.js';
import { typeRange, type StateSnapshot } from '../engine/state/state-snapshot.js';
import { AWAITING_PREFIX } from '../controllers/instance-conditions.js';
import { INSTANCE_LABEL, INSTANCE_NAMESPACE_LABEL, NODE_LABEL } from '../controllers/kro-labels.js';
import {
  OBSERVED_ANNOTATION,
  OBSERVED_STATUS_TYPE,
  observedStatusId,
} from '../engine/resource/observed-status.js';
import { createFinding, type Finding } from '../loaders/finding.js';
import { resourceGraphOf } from '../loaders/kro/resource-graph-definition.js';
import type { ManifestSource } from '../loaders/manifest-resource.js';
import { isRecord } from '../engine/resource/plain-data.js';

/** A warning for each RGD instance that waits, at its manifest (nested ones: at no file). */
export function waitingInstanceFindings(
  snapshot: StateSnapshot,
  registry: DefinitionRegistry,
  sources: Pick<ReadonlyMap<string, ManifestSource>, 'get'>,
): Finding[] {
  const findings: Finding[] = [];
  let outputs: RenderedOutputs | undefined;
  // The instances of each RGD's kind, found by type (a watch round reads them every round).
  const instances = registry
    .all()
    .filter((definition) => resourceGraphOf(definition) !== undefined)
    .flatMap((definition) => {
      const { start, end } = typeRange(snapshot.resources, definition.type);
      return snapshot.resources.slice(start, end).map((resource) => ({ definition, resource }));
    });
  for (const { definition, resource } of instances) {
    const waiting = waitingMessage((resource.spec as { status?: unknown }).status);
    if (waiting === undefined) continue;
    outputs ??= renderedOutputs(snapshot, registry, sources);
    const source = sources.get(pointerKey(resource.metadata));
    const instance = {
      kind: definition.kubernetes?.kind ?? '',
      namespace: definition.kubernetes?.namespaced === false ? '' : resource.metadata.namespace,
      name: resource.metadata.id,
    };
    findings.push(
      createFinding({
        code: 'rgd-waiting',
        message: `${formatPointer(resource.metadata)} stays in progress: ${waitingHint(waiting, (node, item) => outputs?.of(instance, node, item) ?? [], requiredSpecFields(definition.schema))}`,
        file: source?.file ?? '',
        line: source?.line ?? 0,
        col: source?.col ?? 0,
        pointer: '',
      }),
    );
  }
  return findings;
}

/** The fields an RGD's instance schema requires of `spec`, as its CRD lists them. */
function requiredSpecFields(schema: Readonly<Record<string, unknown>> | undefined): string[] {
  const properties = schema?.properties as Record<string, { required?: unknown }> | undefined;
  const required = properties?.spec?.required;
  return Array.isArray(required) ? required.filter((f): f is string => typeof f === 'string') : [];
}

/** An output an RGD rendered for an instance, as the hint tells of it. */
interface RenderedOutput {
  readonly name: string;
  /** The output as `Type(namespace/name)`. */
  readonly pointer: string;
  /** The output as kubectl names it: `Deployment default/web` (cluster-scoped: `Namespace web`). */
  readonly object: string;
  /** Whether it is another RGD's instance (a nested one), whose status that RGD writes. */
  readonly nested: boolean;
  /** Where its observed status is given (`file:line:col`), if one is. */
  readonly observedAt?: string;
  /** Its fields as rendered (`data`, `spec`, ...: the resource's spec). */
  readonly fields: unknown;
}

/** The outputs of each instance's resources, by the labels kro puts on them. */
interface RenderedOutputs {
  of(
    instance: { readonly kind: string; readonly namespace: string; readonly name: string },
    node: string,
    item: string | undefined,
  ): RenderedOutput[];
}

function renderedOutputs(
  snapshot: StateSnapshot,
  registry: DefinitionRegistry,
  sources: Pick<ReadonlyMap<string, ManifestSource>, 'get'>,
): RenderedOutputs {
  const observed = new Map<string, string>();
  for (const resource of snapshot.resources) {
    if (resource.metadata.type !== OBSERVED_STATUS_TYPE) continue;
    const source = sources.get(pointerKey(resource.metadata));
    const at = source === undefined ? 'a test step' : `${source.file}:${source.line}:${source.col}`;
    observed.set(`${resource.metadata.namespace}/${resource.metadata.id}`, at);
  }
  const byNode = new Map<string, RenderedOutput[]>();
  for (const resource of snapshot.resources) {
    const { labels, type, namespace, id } = resource.metadata;
    const node = labels[NODE_LABEL];
    const instance = labels[INSTANCE_LABEL];
    if (node === undefined || instance === undefined) continue;
    const key = outputKey(
      labels['kro.run/instance-kind'] ?? '',
      labels[INSTANCE_NAMESPACE_LABEL] ?? '',
      instance,
      node,
    );
    const observedAt = observed.get(`${namespace}/${observedStatusId(type, id)}`);
    const kind = registry.get(type);
    const scoped = kind?.kubernetes?.namespaced === false;
    const output: RenderedOutput = {
      name: id,
      pointer: formatPointer(resource.metadata),
      object: `${kind?.kubernetes?.kind ?? type} ${scoped ? id : `${namespace}/${id}`}`,
      nested: kind !== undefined && resourceGraphOf(kind) !== undefined,
      fields: resource.spec,
      ...(observedAt === undefined ? {} : { observedAt }),
    };
    const list = byNode.get(key);
    if (list === undefined) byNode.set(key, [output]);
    else list.push(output);
  }
  return {
    of: (instance, node, item) =>
      (byNode.get(outputKey(instance.kind, instance.namespace, instance.name, node)) ?? []).filter(
        (output) => item === undefined || output.name === item,
      ),
  };
}

function outputKey(kind: string, namespace: string, instance: string, node: string): string {
  return JSON.stringify([kind, namespace, instance, node]);
}

/**
 * What an instance waits on, and what to do: a field of its own spec that is not set is the
 * user's to give (or the schema's to default); anything else is status no controller here writes
 * (given as an observed status), unless it is given and not ready, or is a nested instance's.
 */
function waitingHint(
  waiting: string,
  outputsOf: (node: string, item: string | undefined) => RenderedOutput[],
  required: readonly string[],
): string {
  const own = /\$\{\s*schema\.spec\.([A-Za-z_][\w.]*)/.exec(waiting)?.[1];
  if (own !== undefined && waiting.includes('(no such key: spec)')) {
    // No spec at all: kro defaults it to {} only when a field of it has a default and none is
    // required (simpleschema/transform.go), so the schema's defaults of its fields never apply.
    if (required.length > 0) {
      return `it reads spec.${own}, and the instance has no spec: ${waiting} (give the instance a spec: its RGD's schema requires ${required.map((f) => `spec.${f}`).join(', ')}, so spec has no default and neither have its fields)`;
    }
    const optional = own
      .split('.')
      .map((part) => `?${part}`)
      .join('.');
    return `it reads spec.${own}, and the instance has no spec: ${waiting} (set spec.${own} in the instance, or read it as \${schema.spec.${optional}.orValue(...)}: no field of spec has a default, so kro gives the instance no spec)`;
  }
  if (waiting.includes('(index out of bounds:')) {
    // kro waits on an index out of bounds as on data not there yet (celDataPendingPatterns).
    return own !== undefined
      ? `it reads an item of spec.${own} that the instance's list does not have: ${waiting} (give the list the item in the instance, or guard the read: size(schema.spec.${own}) > 0 ? ... : ...)`
      : `it reads an item a list does not have: ${waiting} (kro waits for the item, as for data not there yet: guard the read with size(...) > 0 ? ... : ..., or see that the list holds it)`;
  }
  const meta = /\$\{[^}]*?\bschema\.metadata\.([A-Za-z_]\w*)/.exec(waiting)?.[1];
  if (own === undefined && meta !== undefined && waiting.includes('(no such key:')) {
    // The instance's own metadata, which the user writes: no cluster fills it in later.
    const optional =
      meta === 'labels' || meta === 'annotations'
        ? `schema.metadata.?${meta}[?"KEY"].orValue("...")`
        : `schema.metadata.?${meta}.orValue(...)`;
    return `it reads the instance's metadata.${meta}, which does not have what it reads: ${waiting} (set it on the instance, or read it optionally: \${${optional}})`;
  }
  if (own !== undefined && waiting.includes('no such key')) {
    return `it reads spec.${own}, which it does not set: ${waiting} (set it in the instance, or give the field a default in the RGD's schema: \`${own.split('.').pop() ?? own}: string | default=...\`)`;
  }
  // A resource the RGD writes cannot also be a manifest (output-collision), nor can another
  // controller write its status (it is the RGD's): the status a cluster would report is given
  // as an observed object. Only an externalRef, which the RGD reads, can be given as a manifest.
  const external = /externalRef \S+ \([^)]*\) does not exist/.test(waiting);
  if (external) {
    return `it waits on what no controller writes here: ${waiting} (give the resource the externalRef names as a manifest, or write it with a controller)`;
  }
  const advice: string[] = [];
  let unobserved = false;
  let unwritten = 0;
  /** The objects to give an observed status of, as far as the waits name them. */
  const toObserve = new Set<string>();
  const parts = waiting.split('; ');
  for (const part of parts) {
    const miss = templateMiss(part, outputsOf);
    if (miss !== undefined) {
      unwritten++;
      advice.push(miss);
      continue;
    }
    // A readyWhen reads its own resource: what that resource is tells what to do.
    const ready = /^([\w-]+)(?: \(([^)]*)\))?: readyWhen /.exec(part);
    const outputs = ready === null ? [] : outputsOf(ready[1] ?? '', ready[2]);
    const nested = outputs.find((output) => output.nested);
    if (ready !== null && nested !== undefined) {
      advice.push(
        `${ready[1]} is ${nested.pointer}, whose status its own RGD writes: see what it waits on`,
      );
    } else if (ready !== null && outputs.length > 0 && outputs.every((o) => o.observedAt)) {
      const at = [...new Set(outputs.map((output) => output.observedAt))].join(', ');
      advice.push(
        `the status observed of ${ready[1]} (${at}) is not one it is ready with: give the status a ready one would report`,
      );
    } else {
      unobserved = true;
      for (const output of outputs)
        if (output.observedAt === undefined) toObserve.add(output.object);
    }
  }
  if (unobserved) {
    const of = toObserve.size === 0 ? '' : ` of ${[...toObserve].join(', ')}`;
    advice.push(
      `give the status a cluster would report${of} as a manifest of that object annotated ${OBSERVED_ANNOTATION}: "true", with its status`,
    );
  }
  // Given, or another RGD's to write, it is not what no controller writes.
  const what = unobserved
    ? 'what no controller writes here'
    : unwritten === parts.length
      ? 'a field its own resources do not have'
      : 'its resources';
  return `it waits on ${what}: ${waiting} (${advice.join('; ')})`;
}

/**
 * A wait on a key that a resource of the RGD lacks outside its status (`base.data.on`, where the
 * template wrote `data: { on: ... }` and YAML 1.1 made the key `true`): no cluster would report
 * it, the template is what to look at. Names what the resource has where the key is missing.
 */
function templateMiss(
  part: string,
  outputsOf: (node: string, item: string | undefined) => RenderedOutput[],
): string | undefined {
  const missing = /\(no such key: ([^)]*)\)$/.exec(part)?.[1];
  if (missing === undefined) return undefined;
  for (const { node, path } of references(part)) {
    if (path.length < 2 || path[0] === 'status' || path[0] === 'metadata') continue;
    const [output] = outputsOf(node, undefined);
    if (output === undefined) continue;
    let at: unknown = output.fields;
    let depth = 0;
    while (depth < path.length && isRecord(at) && Object.hasOwn(at, path[depth] ?? '')) {
      at = at[path[depth] ?? ''];
      depth++;
    }
    if (depth === path.length || path[depth] !== missing || !isRecord(at)) continue;
    const where = [node, ...path.slice(0, depth)].join('.');
    const keys = Object.keys(at);
    const has =
      keys.length === 0
        ? `${where} is empty`
        : `${where} has ${keys.length === 1 ? 'the key' : 'the keys'} ${keys
            .slice(0, 8)
            .map((key) => JSON.stringify(key))
            .join(', ')}${keys.length > 8 ? ', ...' : ''}`;
    const boolean = YAML11_BOOLEANS.get(missing.toLowerCase());
    const why =
      boolean !== undefined && keys.includes(boolean)
        ? `: the key ${missing} written unquoted is the boolean ${boolean} as kubectl reads it (YAML 1.1), quote it in the template`
        : `: see the key in ${node}'s template`;
    return `${[node, ...path].join('.')} is not in ${node} as its template renders it, and no cluster writes it: ${has}${why}`;
  }
  return undefined;
}

/** The words YAML 1.1 (kubectl's go-yaml) reads as booleans, and the key each becomes. */
const YAML11_BOOLEANS = new Map([
  ...['y', 'yes', 'on', 'true'].map((word): [string, string] => [word, 'true']),
  ...['n', 'no', 'off', 'false'].map((word): [string, string] => [word, 'false']),
]);

/** The `id.field.field` references of an expression (`base.data["on"]` too), in order. */
function references(text: string): { node: string; path: string[] }[] {
  const found: { node: string; path: string[] }[] = [];
  const reference =
    /(?<![\w.\]])([A-Za-z_]\w*)((?:\s*\.\s*[A-Za-z_]\w*|\s*\[\s*(?:"[^"]*"|'[^']*'|\d+)\s*\])+)/g;
  for (const match of text.matchAll(reference)) {
    const path = [...(match[2] ?? '').matchAll(/[A-Za-z_]\w*|"([^"]*)"|'([^']*)'|\d+/g)].map(
      (step) => step[1] ?? step[2] ?? step[0],
    );
    found.push({ node: match[1] ?? '', path });
  }
  return found;
}

/** The message of a `Ready` condition that waits, in an instance's status. */
export function waitingMessage(status: unknown): string | undefined {
  if (typeof status !== 'object' || status === null) return undefined;
  const conditions = (status as { conditions?: unknown }).conditions;
  if (!Array.isArray(conditions)) return undefined;
  for (const condition of conditions as unknown[]) {
    if (typeof condition !== 'object' || condition === null) continue;
    const { type, reason, message } = condition as Record<string, unknown>;
    if (
      type === 'Ready' &&
      reason === 'NotReady' &&
      typeof message === 'string' &&
      message.startsWith(AWAITING_PREFIX)
    ) {
      return message.slice(AWAITING_PREFIX.length);
    }
  }
  return undefined;
}
