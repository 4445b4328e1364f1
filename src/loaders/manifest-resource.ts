/** What a load gives of each resource: the resource, its definition and where it was written. */
import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { Draft } from '../engine/resource/resource.js';
import type { Position } from './position.js';
import type { AppliedBy } from './applied-by.js';

/** A manifest file's name and contents. */
export interface ManifestFile {
  /** The path as it should appear in findings. */
  readonly path: string;
  readonly text: string;
  /**
   * Where the text starts in that file, when it is an excerpt of it (a scenario's inline
   * document): findings name the file's lines and columns. Default: line 1, column 1.
   */
  readonly origin?: Position;
  /** The end-to-end test that applies it, and the namespace it applies it in. */
  readonly appliedBy?: AppliedBy;
}

/** Where a loaded resource was written. */
export interface ManifestSource {
  readonly file: string;
  /** 1-based position of the document's root node. */
  readonly line: number;
  readonly col: number;
  /** 0-based index of the document in its file (empty documents count). */
  readonly document: number;
}

/**
 * A resource read from a manifest: a new draft with no owner, and its definition. The draft's
 * empty finalizers, labels, annotations and owner references are shared frozen empties (a load
 * may hold a hundred thousand): change one by assigning a new collection.
 */
export interface ManifestResource {
  /** `pointerKey` of the resource: unique among the loaded resources. */
  readonly key: string;
  readonly resource: Draft;
  readonly definition: ResourceDefinition;
  readonly source: ManifestSource;
  /**
   * Where a JSON pointer inside the resource's document is (`/spec/disks/0`), or its nearest
   * existing parent; with `part: 'key'`, the key of the last segment. For findings about a
   * loaded resource, such as `cosi check --strict`'s unknown fields. A method, not an own
   * property: copies and JSON of a resource hold plain data only.
   */
  readonly locate?: (pointer: string, part?: 'key' | 'value') => Position;
  /**
   * Where a field of the resource (a JSON pointer into `{ metadata, spec }`) is in its document:
   * the same pointer in a cosi-shaped document; a Kubernetes-shaped one holds the spec's fields
   * at its top level, so `/spec/spec/replicas` is its `/spec/replicas`, `/spec/data/a` its
   * `/data/a`. A method, as `locate` is.
   */
  readonly documentPointer?: (field: string) => string;
  /**
   * The fields (JSON pointers into `{ metadata, spec }`) the manifest leaves out and its type's
   * schema's `default`s filled in (a cosi type's JSON Schema, a CRD's), outermost first; absent
   * when there are none.
   */
  readonly defaulted?: readonly string[];
}
