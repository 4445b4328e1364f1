/**
 * The previous revision of a manifest tree, as CEL transition rules see it: for each resource
 * (by pointer key: namespace, type, id), its previous spec. A resource with a previous spec is
 * checked as an UPDATE (transition rules run, `oldSelf` is the previous value); one without,
 * as a CREATE (transition rules are skipped, unless `optionalOldSelf`).
 */

/** Previous specs by resource key. */
export interface PriorState {
  /** The previous spec of the resource with this `pointerKey`, wrapped; `undefined`: a create. */
  get(key: string): { readonly spec: unknown } | undefined;
}

/** A loaded resource, as far as the prior state reads it. */
interface LoadedResource {
  readonly key: string;
  readonly resource: { readonly spec: unknown };
}

/**
 * A prior state one fills: with a previous revision's resources (`cosi check --previous`), or
 * round by round (`cosi watch`: each round is checked against the rounds before it).
 */
export class RecordedPriorState implements PriorState {
  readonly #specs = new Map<string, { readonly spec: unknown }>();

  get(key: string): { readonly spec: unknown } | undefined {
    return this.#specs.get(key);
  }

  /** Records the specs of loaded resources. */
  record(resources: Iterable<LoadedResource>): void {
    for (const { key, resource } of resources) this.#specs.set(key, { spec: resource.spec });
  }

  /**
   * Makes `resources`, the last round's, the prior state. When the round had errors, a resource
   * missing from it may be one whose document was refused (a broken transition rule, say): it
   * keeps its older spec, as the API server keeps the stored object when it refuses an update,
   * so the edit stays flagged until it is undone. Without errors, a missing resource was
   * removed: added again, it is a create.
   */
  replace(resources: readonly LoadedResource[], hadErrors: boolean): void {
    if (!hadErrors) this.#specs.clear();
    this.record(resources);
  }

  get size(): number {
    return this.#specs.size;
  }
}
