import { deepEqual } from '../engine/resource/plain-data.js';
import type { Resource } from '../engine/resource/resource.js';

/** What a transform pass remembers of an input it transformed: stored objects, by identity. */
export interface Transformed<I, O> {
  /**
   * The input as it was transformed (stored resources are frozen: a change is a new object), or
   * as it is since the transform's own finalizer was added to it (see {@link onlyFinalizerAdded}).
   */
  input: Resource<I>;
  /** The output as the transform's modify left it stored. */
  readonly output: Resource<O>;
  /** The output's pointer key (what `mapMetadata` gave); `output.metadata` is its pointer. */
  readonly key: string;
}

/**
 * What the passes of one transform run know of its inputs: those transformed and unchanged since
 * (by input id), how many of them map to each output, and the inputs a pass visited without
 * settling them (unmapped, tearing down, skipped, not ours to write), which the next pass must
 * visit again even if they did not change.
 */
export class TransformMemory<I, O> {
  readonly #entries = new Map<string, Transformed<I, O>>();
  /**
   * The remembered inputs by the output key they map to: the input's id while it is the only one
   * (nearly always: a transform is mostly one to one), a set of them beyond. A set per output
   * was most of what a large transform's memory held.
   */
  readonly #byKey = new Map<string, string | Set<string>>();
  /** Input ids visited by the last pass and not remembered. */
  readonly unsettled = new Set<string>();

  get size(): number {
    return this.#entries.size;
  }

  get(id: string): Transformed<I, O> | undefined {
    return this.#entries.get(id);
  }

  has(id: string): boolean {
    return this.#entries.has(id);
  }

  set(id: string, entry: Transformed<I, O>): void {
    this.delete(id);
    this.#entries.set(id, entry);
    const ids = this.#byKey.get(entry.key);
    if (ids === undefined) this.#byKey.set(entry.key, id);
    else if (typeof ids === 'string') this.#byKey.set(entry.key, new Set([ids, id]));
    else ids.add(id);
  }

  delete(id: string): void {
    const entry = this.#entries.get(id);
    if (!entry) return;
    this.#entries.delete(id);
    const ids = this.#byKey.get(entry.key);
    if (ids === id) this.#byKey.delete(entry.key);
    else if (typeof ids === 'object') {
      ids.delete(id);
      if (ids.size === 0) this.#byKey.delete(entry.key);
    }
  }

  /** Whether a remembered input maps to this output key. */
  uses(key: string): boolean {
    return this.#byKey.has(key);
  }

  /** The remembered inputs that map to this output key. */
  inputsOf(key: string): Iterable<string> {
    const ids = this.#byKey.get(key);
    return ids === undefined ? [] : typeof ids === 'string' ? [ids] : ids;
  }

  clear(): void {
    this.#entries.clear();
    this.#byKey.clear();
    this.unsettled.clear();
  }

  /** Keeps only the entries of the listed inputs. */
  forgetAllBut(items: readonly Resource[]): void {
    const live = new Set(items.map((item) => item.metadata.id));
    for (const id of [...this.#entries.keys()]) if (!live.has(id)) this.delete(id);
  }
}

/**
 * Whether `now` is `was` with only its finalizers changed, and this transform's own `finalizer`
 * (when it puts one on its inputs) there: the write a transform with input finalizers makes to
 * each input on its first pass, or another controller's finalizer on the same input. The output
 * does not depend on the finalizers, so the pass that the write wakes need not transform the
 * input again (about one whole pass over the inputs saved: 50,000 modifies that would write
 * nothing, and their garbage). In memory a finalizer change shares the previous version's spec
 * and collections, so identity tells what else changed; a state that decodes each version anew
 * (etcd) is compared by value.
 */
export function onlyFinalizersChanged(
  was: Resource,
  now: Resource,
  finalizer: string | undefined,
): boolean {
  const a = was.metadata;
  const b = now.metadata;
  return (
    b.version > a.version &&
    b.phase === a.phase &&
    b.owner === a.owner &&
    (finalizer === undefined || b.finalizers.includes(finalizer)) &&
    sameData(now.spec, was.spec) &&
    sameData(b.labels, a.labels) &&
    sameData(b.annotations, a.annotations) &&
    sameData(b.ownerReferences, a.ownerReferences)
  );
}

const sameData = (x: unknown, y: unknown): boolean => x === y || deepEqual(x, y);
