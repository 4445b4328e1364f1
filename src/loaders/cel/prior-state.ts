/**
 * The previous revision of a manifest tree, as CEL transition rules see it: for each resource
 * (by pointer key: namespace, type, id), its previous spec. A resource with a previous spec is
 * checked as an UPDATE (transition rules run, `oldSelf` is the previous value); one without,
 * as a CREATE (transition rules are skipped, unless `optionalOldSelf`).
 */

/** Previous specs by resource key; `get` returns `undefined` for a resource new in this revision. */
export interface PriorState {
  /** The previous spec of the resource with this `pointerKey`, wrapped; `undefined`: a create. */
  get(key: string): { readonly spec: unknown } | undefined;
}

/** A prior state one can fill: `cosi watch` records each round's resources for the next. */
export class RecordedPriorState implements PriorState {
  readonly #specs = new Map<string, { readonly spec: unknown }>();

  get(key: string): { readonly spec: unknown } | undefined {
    return this.#specs.get(key);
  }

  /**
   * Records the specs of loaded resources. Resources that did not load (a document with an
   * error, such as a broken transition rule) keep their older spec, as the API server keeps the
   * stored object when it refuses an update: the edit stays flagged until it is undone.
   */
  record(
    resources: Iterable<{ readonly key: string; readonly resource: { readonly spec: unknown } }>,
  ): void {
    for (const { key, resource } of resources) this.#specs.set(key, { spec: resource.spec });
  }

  get size(): number {
    return this.#specs.size;
  }
}
