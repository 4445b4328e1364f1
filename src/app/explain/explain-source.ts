import type { OwnerReference } from '../../engine/resource/metadata.js';
import { ownerPointerOf, type ClusterNamespaceOf } from '../../engine/resource/owner-scope.js';
import {
  ALL_NAMESPACES,
  kindCovers,
  pointerKey,
  type Pointer,
} from '../../engine/resource/pointer.js';
import type { Resource } from '../../engine/resource/resource.js';
import type { RunRecord } from '../../engine/record/run-record.js';
import type { ConvergenceReport } from '../../engine/runtime/convergence.js';
import type { DependencyEdge, DependencyGraph } from '../../engine/runtime/dependency-graph.js';
import { isOutputKind } from '../../engine/runtime/controller.js';
import type { ManifestResource } from '../../loaders/manifest-resource.js';
import { kubernetesFieldPointer } from '../../loaders/kubernetes/kubernetes-field-pointer.js';
import type { TemplateOrigins } from './template-origins.js';
import type { ResourceGraph } from '../../controllers/compiled-resource-graph.js';
import { clusterNamespacesOf } from './owner-lookup.js';

/** A place in a manifest file. */
export interface ManifestPosition {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/** Everything an explanation is built from: the record of a run and what the run ended with. */
export interface ExplainSource {
  readonly record: RunRecord;
  /** The state at the end of the run. */
  readonly resources: readonly Resource[];
  /** The manifests the run started from, or a lookup of one by its key (a watch's applier). */
  readonly manifests: readonly ManifestResource[] | ManifestLookup;
  readonly graph: DependencyGraph;
  readonly report?: ConvergenceReport;
  /** The template lines the declarative controllers (RGDs, transforms) rendered fields from. */
  readonly templateOrigins?: TemplateOrigins;
  /** The kro RGD a controller runs, by the controller's name (see `why-not-graph.ts`). */
  readonly resourceGraph?: (controller: string) => ResourceGraph | undefined;
  /**
   * Whether a type's resources are Kubernetes objects (a built-in kind, a CRD's): the fields of
   * one no manifest wrote are named as its Kubernetes document has them.
   */
  readonly isKubernetesType?: (type: string) => boolean;
  /**
   * Where the schema that gave a type's field (a JSON pointer as its document has it) its
   * default writes that default (`rgd.yaml:12:14`, an RGD's `image: string | default=nginx`).
   */
  readonly locateDefault?: (type: string, field: string) => string | undefined;
  /** Whether a type is a cluster-scoped kind: its objects, kept in `default`, are in none. */
  readonly isClusterScoped?: (type: string) => boolean;
  /** Whether a type is declared `sensitivity: sensitive`: its spec is never printed. */
  readonly isSensitive?: (type: string) => boolean;
}

/** The manifest resource with a key (`pointerKey`), if there is one. */
export type ManifestLookup = (key: string) => ManifestResource | undefined;

/** Lookups over an {@link ExplainSource}, built once per explanation. */
export class ExplainIndex {
  readonly #resources: Map<string, Resource>;
  readonly #manifest: ManifestLookup;

  constructor(readonly source: ExplainSource) {
    this.#resources = new Map(source.resources.map((r) => [pointerKey(r.metadata), r]));
    const { manifests } = source;
    if (typeof manifests === 'function') {
      this.#manifest = manifests;
    } else {
      const byKey = new Map(manifests.map((m) => [m.key, m]));
      this.#manifest = (key) => byKey.get(key);
    }
  }

  get record(): RunRecord {
    return this.source.record;
  }

  resource(pointer: Pointer): Resource | undefined {
    return this.#resources.get(pointerKey(pointer));
  }

  #clusterNamespace?: ClusterNamespaceOf;

  /**
   * Where the owner `ref` (a reference of `dependent`) names is: in the dependent's namespace,
   * or where a cluster-scoped owner kind's objects are; `undefined` for a cluster-scoped
   * dependent's reference to a namespaced kind, which names nothing.
   */
  ownerPointer(ref: OwnerReference, dependent: Pointer): Pointer | undefined {
    this.#clusterNamespace ??= clusterNamespacesOf(
      this.source.resources,
      this.source.isClusterScoped ?? (() => false),
    );
    return ownerPointerOf(ref, dependent, this.#clusterNamespace);
  }

  #byLabel?: { readonly label: string; readonly map: Map<string, Resource[]> };

  /** The resources whose `label` has `value` (indexed on first use, for one label). */
  labelled(label: string, value: string): readonly Resource[] {
    if (this.#byLabel?.label !== label) {
      const map = new Map<string, Resource[]>();
      for (const resource of this.source.resources) {
        const v = resource.metadata.labels[label];
        if (v === undefined) continue;
        const list = map.get(v);
        if (list) list.push(resource);
        else map.set(v, [resource]);
      }
      this.#byLabel = { label, map };
    }
    return this.#byLabel.map.get(value) ?? [];
  }

  manifest(pointer: Pointer): ManifestResource | undefined {
    return this.#manifest(pointerKey(pointer));
  }

  /**
   * Where a manifest resource (or, with `field`, one field of it: a JSON pointer into
   * `{ metadata, spec }`) is written.
   */
  position(pointer: Pointer, field?: string): ManifestPosition | undefined {
    const manifest = this.manifest(pointer);
    if (!manifest) return undefined;
    const { file, line, col } = manifest.source;
    if (field === undefined || !manifest.locate) return { file, line, col };
    const at = manifest.locate(this.documentField(pointer, field));
    return { file, line: at.line, col: at.col };
  }

  /**
   * A field of a resource (a JSON pointer into `{ metadata, spec }`) as its document has it: a
   * Kubernetes object's `/spec/spec/replicas` is its document's `/spec/replicas`, unless its
   * manifest wrote it cosi-shaped (`metadata.type`, `spec.spec`).
   */
  documentField(pointer: Pointer, field: string): string {
    const manifest = this.manifest(pointer);
    if (manifest?.documentPointer) return manifest.documentPointer(field);
    const kubernetes =
      manifest === undefined
        ? this.source.isKubernetesType?.(pointer.type) === true
        : manifest.definition.kubernetes !== undefined;
    return kubernetes ? kubernetesFieldPointer(field) : field;
  }

  /**
   * The input a controller declared that covers `pointer` and carries data into what it writes
   * (`undefined`: none, e.g. the read was of one of its outputs). The one pinned to the id first.
   */
  inputOf(controller: string, pointer: Pointer): DependencyEdge | undefined {
    let match: DependencyEdge | undefined;
    for (const edge of this.source.graph.edges) {
      if (edge.controller !== controller || isOutputKind(edge.kind)) continue;
      // A destroy-ready input gates a teardown; it carries no data into what is written.
      if (edge.kind === 'destroyReady' || edge.kind === 'mappedDestroyReady') continue;
      // An input of every namespace (or an output's edge, with none) covers any namespace.
      const namespace = edge.namespace ?? ALL_NAMESPACES;
      if (!kindCovers({ namespace, type: edge.type }, pointer)) continue;
      if (edge.id === pointer.id) return edge;
      if (edge.id === undefined) match ??= edge;
    }
    return match;
  }

  /** The controllers that declare `type` as an output. */
  writersOf(type: string): DependencyEdge[] {
    return this.source.graph.edges.filter((e) => e.type === type && isOutputKind(e.kind));
  }

  inputsOfController(controller: string): DependencyEdge[] {
    return this.source.graph.edges.filter(
      (e) => e.controller === controller && !isOutputKind(e.kind),
    );
  }
}
