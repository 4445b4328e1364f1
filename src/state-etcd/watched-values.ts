import type { Resource } from '../engine/resource/resource.js';

/**
 * The values a watch keeps (see `WatchedValues`), by key, with an index of them by label: a list
 * of the kind by a label's value (the placements on one host) reads the values that have it, not
 * every value of the kind. The index follows every `set` and `delete`.
 */
export class WatchedValueMap extends Map<string, Resource> {
  /** The keys of the values with each label and value (`label NUL value`). */
  readonly #byLabel = new Map<string, Set<string>>();

  override set(key: string, resource: Resource): this {
    const old = super.get(key);
    if (old !== undefined) this.#unindex(key, old);
    super.set(key, resource);
    for (const [label, value] of Object.entries(resource.metadata.labels)) {
      const id = `${label}\u0000${value}`;
      let keys = this.#byLabel.get(id);
      if (keys === undefined) this.#byLabel.set(id, (keys = new Set()));
      keys.add(key);
    }
    return this;
  }

  override delete(key: string): boolean {
    const old = super.get(key);
    if (old !== undefined) this.#unindex(key, old);
    return super.delete(key);
  }

  override clear(): void {
    this.#byLabel.clear();
    super.clear();
  }

  /** The keys of the values whose label `label` is `value` (empty: none). */
  withLabel(label: string, value: string): ReadonlySet<string> {
    return this.#byLabel.get(`${label}\u0000${value}`) ?? NONE;
  }

  #unindex(key: string, old: Resource): void {
    for (const [label, value] of Object.entries(old.metadata.labels)) {
      const id = `${label}\u0000${value}`;
      const keys = this.#byLabel.get(id);
      if (keys === undefined) continue;
      keys.delete(key);
      if (keys.size === 0) this.#byLabel.delete(id);
    }
  }
}

const NONE: ReadonlySet<string> = new Set();
