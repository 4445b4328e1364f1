import { ExplainIndex } from './explain-source.js';
import { parentsOf, type LineageEdgeKind } from './lineage.js';
import { clusterNamespacesOf } from './owner-lookup.js';
import { ownerPointerOf } from '../../engine/resource/owner-scope.js';
import type { Phase } from '../../engine/resource/metadata.js';
import { pointerKey, type Pointer } from '../../engine/resource/pointer.js';
import type { Resource } from '../../engine/resource/resource.js';
import type { RecordedReconcile, RunRecord } from '../../engine/record/run-record.js';
import type { DependencyGraph } from '../../engine/runtime/dependency-graph.js';
import { compareStrings } from '../../engine/compare-strings.js';
import type { ResourceGraph } from '../../controllers/compiled-resource-graph.js';

/**
 * Why a resource comes from another: an owner reference it carries, or the input kind under
 * which the controller that wrote it read the other (from the run's record).
 */
export type LineageVia = LineageEdgeKind;

/** A resource another one was derived from. */
export interface ResourceSource extends Pointer {
  readonly via: LineageVia;
  /** Its kind is cluster-scoped: kept in namespace `default`, it is in none. */
  readonly clusterScoped?: true;
}

/** A resource instance with who wrote it and where it came from. */
export interface ResourceNode extends Pointer {
  /** The controller that owns it; empty for the user's manifests and unowned resources. */
  readonly owner: string;
  /**
   * The controller that made it, owner or not (an RGD's render of a nested kro instance, which
   * is unowned); empty for the user's manifests. A controller's write back of a resource it read
   * (an RGD's status write of its instance) does not make it.
   */
  readonly writer: string;
  readonly phase: Phase;
  /** Its kind is cluster-scoped: kept in namespace `default`, it is in none. */
  readonly clusterScoped?: true;
  /** Closest first: owner references, then what its writer read (written ones first). */
  readonly derivedFrom: readonly ResourceSource[];
}

/** What {@link traceLineage} knows of the project's kinds. */
export interface LineageOptions {
  /** The kro RGD a controller runs: an output's lineage names what its template read. */
  readonly resourceGraph?: (controller: string) => ResourceGraph | undefined;
  /** Whether a type's kind is cluster-scoped (its objects are marked so). */
  readonly isClusterScoped?: (type: string) => boolean;
}

/**
 * The lineage of every resource, exact: what the reconcile that last wrote its data (a create
 * or an update, not a finalizer change, nor the write back of a resource the reconcile read, as
 * an RGD's status write of its instance) really read through its inputs, and the resources of
 * the same kro instance its template read, from the run's record, plus the owner references it
 * carries. Without a record only owner references count.
 * destroyReady inputs carry no data and do not count. Only sources that exist are listed.
 * Sorted by type, namespace and id.
 */
export function traceLineage(
  resources: readonly Resource[],
  graph: DependencyGraph,
  record?: RunRecord,
  options: LineageOptions = {},
): ResourceNode[] {
  const { resourceGraph, isClusterScoped = () => false } = options;
  const scoped = (type: string): { clusterScoped?: true } =>
    isClusterScoped(type) ? { clusterScoped: true } : {};
  const byKey = new Map(resources.map((r) => [pointerKey(r.metadata), r]));
  const index = record
    ? new ExplainIndex({
        record,
        resources,
        manifests: [],
        graph,
        isClusterScoped,
        ...(resourceGraph ? { resourceGraph } : {}),
      })
    : undefined;
  const clusterNamespace = clusterNamespacesOf(resources, isClusterScoped);
  // A whole-world reconcile reads every item of a type and writes one resource per item: the
  // keys it read are built once, not once per resource it wrote (that was quadratic).
  // Keyed by the reads list, which the record replaces when a running pass reads more.
  const readKeys = new WeakMap<readonly Pointer[], Set<string>>();
  const readsOf = (reconcile: RecordedReconcile): Set<string> => {
    let keys = readKeys.get(reconcile.reads);
    if (!keys) {
      keys = new Set(reconcile.reads.map((r) => pointerKey(r)));
      readKeys.set(reconcile.reads, keys);
    }
    return keys;
  };
  const nodes = resources.map((resource): ResourceNode => {
    const { namespace, type, id, owner, phase, ownerReferences } = resource.metadata;
    const candidates: ResourceSource[] = [];
    const managing = [...ownerReferences].sort(
      (a, b) => Number(b.controller === true) - Number(a.controller === true),
    );
    for (const ref of managing) {
      const at = ownerPointerOf(ref, resource.metadata, clusterNamespace);
      if (at !== undefined) candidates.push({ ...at, via: 'ownerReference' });
    }
    const read: ResourceSource[] = [];
    let writer = owner;
    if (index && record) {
      const key = pointerKey(resource.metadata);
      // A write back of what the reconcile read through an input (an RGD's status write of its
      // instance) leaves the resource where it came from.
      const writesBack = (reconcile: RecordedReconcile): boolean =>
        readsOf(reconcile).has(key) &&
        index.inputOf(reconcile.controller, resource.metadata) !== undefined;
      const made = record
        .writesTo(resource.metadata)
        .filter((w) => w.write.op === 'create' || w.write.op === 'update')
        .filter((w) => !writesBack(w.reconcile))
        .at(-1);
      const last = made?.write;
      if (made && writer === '') writer = made.reconcile.controller;
      if (last) {
        for (const parent of parentsOf(index, last)) {
          if (parent.kind === 'ownerReference') continue;
          const { namespace: ns, type: t, id: i } = parent.ref;
          read.push({ namespace: ns, type: t, id: i, via: parent.kind });
        }
      }
    }
    // The closest ancestor first (the tree hangs a resource under its first source): written by
    // a controller before the user's own resources, then the one with its own id (its item).
    const written = (s: Pointer): number => (byKey.get(pointerKey(s))?.metadata.owner ? 0 : 1);
    const other = (s: Pointer): number => (s.id === id ? 0 : 1);
    read.sort((a, b) => written(a) - written(b) || other(a) - other(b) || comparePointers(a, b));
    const seen = new Set<string>([pointerKey(resource.metadata)]);
    const derivedFrom = [...candidates, ...read]
      .filter((source) => {
        const key = pointerKey(source);
        if (seen.has(key) || !byKey.has(key)) return false;
        seen.add(key);
        return true;
      })
      .map((source) => ({ ...source, ...scoped(source.type) }));
    return { namespace, type, id, owner, writer, phase, ...scoped(type), derivedFrom };
  });
  return nodes.sort(comparePointers);
}

/** By type, then namespace, then id. */
export function comparePointers(a: Pointer, b: Pointer): number {
  return (
    compareStrings(a.type, b.type) ||
    compareStrings(a.namespace, b.namespace) ||
    compareStrings(a.id, b.id)
  );
}
