import type { ResourceType } from '../resource/define-resource.js';
import type { LabelQuery } from '../resource/label-query.js';
import { queriesMatch } from '../resource/label-query.js';
import type { Pointer } from '../resource/pointer.js';
import type { Draft, Resource } from '../resource/resource.js';
import type { ListOptions, UpdateOptions } from '../state/state.js';
import type { ControllerReader, ControllerWriter } from './controller.js';

/**
 * Typed reads and writes for controller code, the TypeScript shape of COSI's `safe` package:
 * the resource type carries the spec type, so no casts are needed.
 */

/** A typed, iterable list of resources. */
export class ResourceList<S> implements Iterable<Resource<S>> {
  constructor(readonly items: readonly Resource<S>[]) {}

  get length(): number {
    return this.items.length;
  }

  [Symbol.iterator](): Iterator<Resource<S>> {
    return this.items[Symbol.iterator]();
  }

  get(index: number): Resource<S> | undefined {
    return this.items[index];
  }

  find(predicate: (r: Resource<S>) => boolean): Resource<S> | undefined {
    return this.items.find(predicate);
  }

  filter(predicate: (r: Resource<S>) => boolean): ResourceList<S> {
    return new ResourceList(this.items.filter(predicate));
  }

  filterLabelQuery(...queries: LabelQuery[]): ResourceList<S> {
    return this.filter((r) => queriesMatch(r.metadata.labels, queries));
  }

  map<T>(fn: (r: Resource<S>) => T): T[] {
    return this.items.map(fn);
  }

  /** As an array's: what a whole-world controller folds its inputs with (a sum, a count). */
  reduce<T>(fn: (accumulated: T, r: Resource<S>) => T, initial: T): T {
    return this.items.reduce(fn, initial);
  }

  some(predicate: (r: Resource<S>) => boolean): boolean {
    return this.items.some(predicate);
  }

  every(predicate: (r: Resource<S>) => boolean): boolean {
    return this.items.every(predicate);
  }

  forEach(fn: (r: Resource<S>) => void): void {
    this.items.forEach(fn);
  }

  ids(): string[] {
    return this.items.map((r) => r.metadata.id);
  }

  pointers(): Pointer[] {
    return this.items.map((r) => ({
      namespace: r.metadata.namespace,
      type: r.metadata.type,
      id: r.metadata.id,
    }));
  }
}

/** Gets a resource of a declared type by id (default namespace unless given). */
export function getById<S>(
  reader: Pick<ControllerReader, 'get'>,
  type: ResourceType<S>,
  id: string,
  namespace?: string,
): Promise<Resource<S>> {
  return reader.get<S>(type.pointer(id, namespace));
}

/** Like {@link getById}, `undefined` when missing. */
export function findById<S>(
  reader: Pick<ControllerReader, 'find'>,
  type: ResourceType<S>,
  id: string,
  namespace?: string,
): Promise<Resource<S> | undefined> {
  return reader.find<S>(type.pointer(id, namespace));
}

/** Lists every resource of a declared type (default namespace unless given). */
export async function listAll<S>(
  reader: Pick<ControllerReader, 'list'>,
  type: ResourceType<S>,
  options: ListOptions & { namespace?: string } = {},
): Promise<ResourceList<S>> {
  return new ResourceList(await reader.list<S>(type.kind(options.namespace), options));
}

/** Create-or-update a resource of a declared type; `fn` edits a typed draft. */
export function modifyTyped<S>(
  writer: ControllerWriter,
  type: ResourceType<S>,
  id: string,
  fn: (draft: Draft<S>) => void | Promise<void>,
  options: Omit<UpdateOptions, 'owner'> & { namespace?: string } = {},
): Promise<Resource<S>> {
  const { namespace, ...rest } = options;
  return writer.modifyWithResult(
    type.create(id, undefined, namespace ? { namespace } : {}),
    fn,
    rest,
  );
}
