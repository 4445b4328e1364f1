import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { Draft } from '../engine/resource/resource.js';
import type { ManifestResource, ManifestSource } from './manifest-resource.js';
import type { Position, StreamPositions } from './position.js';
import { kubernetesFieldPointer } from './kubernetes/kubernetes-field-pointer.js';
import { observedFieldPointer } from './observed-field-pointer.js';

/**
 * How a resource's document holds its fields: as the resource (`cosi`), a Kubernetes object's
 * top-level fields as its spec (`kubernetes`), or an observed status read from the object it
 * observes (`observed`).
 */
export type DocumentShape = 'cosi' | 'kubernetes' | 'observed';

/**
 * A resource read from a manifest, as a load returns it. It keeps of its document only what
 * positions need, the stream's position index and the document's index in it: not the document,
 * its data or a closure per resource, which a file of 100,000 documents would hold as many times.
 * `locate` is a method, so a copy (`{ ...r }`) or JSON holds plain data only.
 */
export class LoadedResource implements ManifestResource {
  readonly key: string;
  readonly resource: Draft;
  readonly definition: ResourceDefinition;
  readonly source: ManifestSource;
  /** See {@link ManifestResource.defaulted}; set only when there are some. */
  declare defaulted?: readonly string[];
  readonly #positions: StreamPositions | undefined;
  readonly #index: number;
  readonly #prefix: string;
  readonly #shape: DocumentShape;

  constructor(
    key: string,
    resource: Draft,
    definition: ResourceDefinition,
    source: ManifestSource,
    /** Absent: `locate` answers the document's start (the load was told not to keep positions). */
    positions: StreamPositions | undefined,
    /** Where the resource is in its document: `''`, or a `kind: List` item's `/items/<i>`. */
    prefix = '',
    /** How its document holds its fields. */
    shape: DocumentShape = 'cosi',
  ) {
    // In this order, the order of the plain objects loads returned before.
    this.key = flatCopy(key);
    this.resource = resource;
    this.definition = definition;
    this.source = source;
    this.#positions = positions;
    this.#index = source.document;
    this.#prefix = prefix;
    this.#shape = shape;
  }

  /** Where a field of the resource is in its document; see {@link ManifestResource.documentPointer}. */
  documentPointer(field: string): string {
    if (this.#shape === 'kubernetes') return kubernetesFieldPointer(field);
    return this.#shape === 'observed' ? observedFieldPointer(field) : field;
  }

  /** Where a JSON pointer inside the resource's document is; see {@link ManifestResource.locate}. */
  locate(pointer: string, part?: 'key' | 'value'): Position {
    if (this.#positions === undefined) return { line: this.source.line, col: this.source.col };
    return this.#positions.locate(this.#index, this.#prefix + pointer, part);
  }
}

/**
 * The same string in one flat piece. A key built by concatenation is a chain of pieces several
 * times its size; a loaded resource keeps its key for as long as it lives. (Splitting and joining
 * on one separator gives back any string, and join builds a flat one.)
 */
function flatCopy(text: string): string {
  return text.split('\0').join('\0');
}
