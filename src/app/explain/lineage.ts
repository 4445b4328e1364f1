import { pointerKey, type Pointer } from '../../engine/resource/pointer.js';
import {
  versionKey,
  type RecordedReconcile,
  type RecordedWrite,
  type VersionRef,
} from '../../engine/record/run-record.js';
import type { InputKind } from '../../engine/runtime/controller.js';
import type { ExplainIndex, ManifestPosition } from './explain-source.js';
import { NODE_LABEL } from '../../controllers/kro-labels.js';
import { OBSERVED_STATUS_TYPE, observedStatusId } from '../../engine/resource/observed-status.js';

/** The label kro puts on every resource an instance renders: the instance's uid. */
const INSTANCE_ID_LABEL = 'kro.run/instance-id';

/**
 * Why an edge of the lineage exists: the input kind under which the writer read the resource,
 * an owner reference the resource carries, a finalizer or teardown write, which makes a new
 * version of the same resource, or (`template`) another resource of the same kro instance that
 * the template of an RGD's output reads (`${cm.metadata.name}`), which its controller rendered
 * rather than read from the store.
 */
export type LineageEdgeKind = InputKind | 'ownerReference' | 'finalizer' | 'teardown' | 'template';

/** Who made a version of a resource. */
export type VersionOrigin =
  | {
      readonly kind: 'manifest';
      /** Where it is written, when the manifests were given. */
      readonly position?: ManifestPosition;
    }
  | {
      readonly kind: 'reconcile';
      readonly controller: string;
      /** The reconcile's sequence number in the record. */
      readonly seq: number;
      /** Clock time of the reconcile's start (virtual). */
      readonly at: number;
      readonly fields: readonly string[];
    }
  /** The record does not hold its writer (dropped by the cap, or written outside a reconcile). */
  | { readonly kind: 'unknown' };

/** A resource at one version and where it came from (or, reversed, what it fed). */
export interface LineageNode {
  readonly ref: VersionRef;
  readonly origin: VersionOrigin;
  readonly edges: readonly LineageEdge[];
  /** Why the edges stop here although there is more: `depth` reached or a `cycle` met. */
  readonly cut?: 'depth' | 'cycle';
  /** Its kind is cluster-scoped: kept in namespace `default`, it is in none. */
  readonly clusterScoped?: true;
}

export interface LineageEdge {
  readonly kind: LineageEdgeKind;
  readonly node: LineageNode;
}

/** Where a version came from: the reconcile that wrote it, or the manifest. */
export function originOf(index: ExplainIndex, ref: VersionRef): VersionOrigin {
  const found = index.record.writeOf(ref);
  if (found) {
    return {
      kind: 'reconcile',
      controller: found.reconcile.controller,
      seq: found.reconcile.seq,
      at: found.reconcile.startedAt,
      fields: found.write.fields.map((field) => index.documentField(ref, field)),
    };
  }
  const position = index.position(ref);
  const current = index.resource(ref);
  // A manifest is the user's: any version the record did not see a controller write is its.
  if (position && (current === undefined || current.metadata.owner === '')) {
    return { kind: 'manifest', position };
  }
  if (current?.metadata.owner === '') return { kind: 'manifest' };
  return { kind: 'unknown' };
}

/**
 * Where `ref` came from, recursively: the reconcile that wrote it and, under it, each resource
 * that reconcile read through an input, at the version it read, down to the manifests. A
 * finalizer or teardown write leads to the version before it. `depth` bounds the hops.
 */
export function traceBack(index: ExplainIndex, ref: VersionRef, depth: number): LineageNode {
  return withScope(index, back(index, ref, depth, new Set()));
}

/** Marks the nodes of a tree whose kind is cluster-scoped. */
function withScope(index: ExplainIndex, node: LineageNode): LineageNode {
  const edges = node.edges.map((e) => ({ ...e, node: withScope(index, e.node) }));
  const scoped = index.source.isClusterScoped?.(node.ref.type) === true;
  return { ...node, edges, ...(scoped ? { clusterScoped: true as const } : {}) };
}

function back(index: ExplainIndex, ref: VersionRef, depth: number, path: Set<string>): LineageNode {
  const origin = originOf(index, ref);
  const key = versionKey(ref);
  if (path.has(key)) return { ref, origin, edges: [], cut: 'cycle' };
  const parents = parentsOf(index, ref);
  if (parents.length === 0) return { ref, origin, edges: [] };
  if (depth <= 0) return { ref, origin, edges: [], cut: 'depth' };
  path.add(key);
  const edges = parents.map(({ kind, ref: parent }) => ({
    kind,
    node: back(index, parent, depth - 1, path),
  }));
  path.delete(key);
  return { ref, origin, edges };
}

/** The versions `ref` was made from, each with why. */
export function parentsOf(
  index: ExplainIndex,
  ref: VersionRef,
): { kind: LineageEdgeKind; ref: VersionRef }[] {
  const found = index.record.writeOf(ref);
  const out: { kind: LineageEdgeKind; ref: VersionRef }[] = [];
  const seen = new Set<string>([pointerKey(ref)]);
  if (found) {
    const { reconcile, write } = found;
    // A finalizer or teardown write changes only the metadata of the version before it.
    if (write.op === 'finalizers' || write.op === 'teardown') {
      const kind = write.op === 'teardown' ? 'teardown' : 'finalizer';
      return ref.version > 1 ? [{ kind, ref: previous(ref) }] : [];
    }
    // An RGD's output is made from its own observed status, not the others its reconcile read.
    const output = write.resource?.metadata.labels[NODE_LABEL] !== undefined;
    const ownObservation = observedStatusId(ref.type, ref.id);
    for (const read of narrowReads(reconcile, ref)) {
      if (output && read.type === OBSERVED_STATUS_TYPE) {
        if (read.id !== ownObservation || read.namespace !== ref.namespace) continue;
      }
      const key = pointerKey(read);
      const input = index.inputOf(reconcile.controller, read);
      if (!input) continue;
      // A controller that read the resource and wrote it back (an RGD's write of its instance's
      // status) changed the version it read: that version is where this one came from.
      if (key === pointerKey(ref)) {
        if (read.version < ref.version) out.push({ kind: input.kind as InputKind, ref: read });
        continue;
      }
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ kind: input.kind as InputKind, ref: read });
    }
    for (const source of templateSources(index, reconcile, write)) {
      if (seen.has(pointerKey(source))) continue;
      seen.add(pointerKey(source));
      out.push({ kind: 'template', ref: source });
    }
  }
  const written = found?.write.resource ?? index.resource(ref);
  for (const owner of written?.metadata.ownerReferences ?? []) {
    const pointer = index.ownerPointer(owner, ref);
    if (pointer === undefined || seen.has(pointerKey(pointer))) continue;
    const current = index.resource(pointer);
    if (!current) continue;
    seen.add(pointerKey(pointer));
    out.push({ kind: 'ownerReference', ref: { ...pointer, version: current.metadata.version } });
  }
  return out;
}

/**
 * The other resources of the same kro instance whose nodes the template of an RGD's output reads
 * (its node's dependencies), at the version the writing reconcile saw: read by it, else the last
 * written before it ended.
 */
function templateSources(
  index: ExplainIndex,
  reconcile: RecordedReconcile,
  write: RecordedWrite,
): VersionRef[] {
  const labels = write.resource?.metadata.labels;
  const node = labels?.[NODE_LABEL];
  const instance = labels?.[INSTANCE_ID_LABEL];
  if (node === undefined || instance === undefined) return [];
  const graph = index.source.resourceGraph?.(reconcile.controller);
  const dependencies = graph?.nodes.find((n) => n.id === node)?.dependencies ?? [];
  if (dependencies.length === 0) return [];
  const out: VersionRef[] = [];
  for (const resource of index.labelled(INSTANCE_ID_LABEL, instance)) {
    if (!dependencies.includes(resource.metadata.labels[NODE_LABEL] ?? '')) continue;
    const key = pointerKey(resource.metadata);
    const read = reconcile.reads.find((r) => pointerKey(r) === key);
    const written = index.record
      .writesTo(resource.metadata)
      .filter((w) => w.reconcile.seq <= reconcile.seq && w.write.op !== 'destroy')
      .at(-1)?.write;
    const version = read?.version ?? written?.version ?? resource.metadata.version;
    const { namespace, type, id } = resource.metadata;
    out.push({ namespace, type, id, version });
  }
  return out.sort((a, b) => pointerKey(a).localeCompare(pointerKey(b)));
}

/**
 * What `pointer` feeds, recursively: each reconcile that read it (any version) through an input,
 * and what that reconcile wrote last of each resource; `depth` bounds the hops.
 */
export function traceForward(index: ExplainIndex, pointer: Pointer, depth: number): LineageNode {
  const readers = readersByPointer(index);
  const current = index.resource(pointer);
  const last = index.record.writesTo(pointer).at(-1)?.write;
  const ref: VersionRef = {
    namespace: pointer.namespace,
    type: pointer.type,
    id: pointer.id,
    version: current?.metadata.version ?? last?.version ?? 0,
  };
  return withScope(index, forward(index, readers, ref, depth, new Set()));
}

function forward(
  index: ExplainIndex,
  readers: Map<string, RecordedReconcile[]>,
  ref: VersionRef,
  depth: number,
  path: Set<string>,
): LineageNode {
  const origin = originOf(index, ref);
  const key = pointerKey(ref);
  if (path.has(key)) return { ref, origin, edges: [], cut: 'cycle' };
  const children = new Map<string, { kind: LineageEdgeKind; write: RecordedWrite }>();
  for (const reconcile of readers.get(key) ?? []) {
    const input = index.inputOf(reconcile.controller, ref);
    if (!input) continue;
    for (const write of reconcile.writes) {
      if (write.op === 'destroy' || pointerKey(write) === key) continue;
      if (!narrowReads(reconcile, toRef(write)).some((r) => pointerKey(r) === key)) continue;
      children.set(pointerKey(write), { kind: input.kind as InputKind, write });
    }
  }
  if (children.size === 0) return { ref, origin, edges: [] };
  if (depth <= 0) return { ref, origin, edges: [], cut: 'depth' };
  path.add(key);
  const edges = [...children.values()]
    .sort((a, b) => pointerKey(a.write).localeCompare(pointerKey(b.write)))
    .map(({ kind, write }) => ({
      kind,
      node: forward(index, readers, toRef(write), depth - 1, path),
    }));
  path.delete(key);
  return { ref, origin, edges };
}

function readersByPointer(index: ExplainIndex): Map<string, RecordedReconcile[]> {
  const out = new Map<string, RecordedReconcile[]>();
  for (const reconcile of index.record.reconciles()) {
    const keys = new Set(reconcile.reads.map(pointerKey));
    for (const key of keys) {
      const list = out.get(key);
      if (list) list.push(reconcile);
      else out.set(key, [reconcile]);
    }
  }
  return out;
}

/**
 * The reads a write is tied to. A queue reconcile is about one item: all its reads. A whole-world
 * pass lists whole kinds and writes many resources; of a kind it read several resources of, the
 * write is tied to the one with its own id when it read one (a transform's input), else to all.
 */
function narrowReads(reconcile: RecordedReconcile, ref: VersionRef): readonly VersionRef[] {
  if (reconcile.job !== 'run') return reconcile.reads;
  const groups = readGroupsOf(reconcile);
  if (groups.length === 1 && (groups[0]?.reads.length ?? 0) < 2) return reconcile.reads;
  return groups.flatMap(({ reads, byId }) => {
    if (reads.length < 2) return reads;
    return byId.get(ref.id) ?? reads;
  });
}

/** The reads of one kind (namespace and type) of a pass, in read order, and those by id. */
interface ReadGroup {
  readonly reads: VersionRef[];
  readonly byId: Map<string, VersionRef[]>;
}

/**
 * A whole-world pass's reads grouped by kind, computed once per pass: a pass that listed n
 * resources and wrote n asks for its groups n times, and regrouping each time was quadratic.
 */
const readGroups = new WeakMap<readonly VersionRef[], readonly ReadGroup[]>();

function readGroupsOf(reconcile: RecordedReconcile): readonly ReadGroup[] {
  // Keyed by the reads list, which the record replaces when a running pass reads more.
  const cached = readGroups.get(reconcile.reads);
  if (cached) return cached;
  const byKind = new Map<string, ReadGroup>();
  for (const read of reconcile.reads) {
    const kind = `${read.namespace}\0${read.type}`;
    let group = byKind.get(kind);
    if (!group) byKind.set(kind, (group = { reads: [], byId: new Map() }));
    group.reads.push(read);
    const same = group.byId.get(read.id);
    if (same) same.push(read);
    else group.byId.set(read.id, [read]);
  }
  const groups = [...byKind.values()];
  readGroups.set(reconcile.reads, groups);
  return groups;
}

function toRef(write: RecordedWrite): VersionRef {
  const { namespace, type, id, version } = write;
  return { namespace, type, id, version };
}

function previous(ref: VersionRef): VersionRef {
  return { ...ref, version: ref.version - 1 };
}
