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

/** A loaded resource with the file it came from. */
interface SourcedResource {
  readonly source: { readonly file: string };
}

function keysByFile(resources: readonly (LoadedResource & SourcedResource)[]) {
  const byFile = new Map<string, string[]>();
  for (const { key, source } of resources) {
    let keys = byFile.get(source.file);
    if (!keys) byFile.set(source.file, (keys = []));
    keys.push(key);
  }
  return byFile as Map<string, readonly string[]>;
}

/**
 * A prior state one fills: with a previous revision's resources (`cosi check --previous`), or
 * round by round (`cosi watch`: each round is checked against the rounds before it).
 */
export class RecordedPriorState implements PriorState {
  readonly #specs = new Map<string, { readonly spec: unknown }>();
  /**
   * The keys each file of the last load gave, while the specs are exactly that load's (the last
   * replace had no errors): what {@link replaceChanged} needs to take out a removed resource.
   */
  #byFile: Map<string, readonly string[]> | undefined;

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
    this.#byFile = undefined;
    if (!hadErrors) this.#specs.clear();
    this.record(resources);
  }

  /**
   * {@link replace} with a load told as the files that changed since the previous load, each
   * with its resources now: costs what changed, not the whole tree. `all` gives the load's
   * resources, read only when the changes are not enough: on the first load, and on the first
   * load without errors after one with errors (which kept refused resources' older specs).
   */
  replaceChanged(
    changes: ReadonlyMap<string, readonly (LoadedResource & SourcedResource)[]> | undefined,
    all: () => readonly (LoadedResource & SourcedResource)[],
    hadErrors: boolean,
  ): void {
    const byFile = this.#byFile;
    if (changes === undefined || byFile === undefined) {
      const resources = all();
      this.replace(resources, hadErrors);
      if (!hadErrors) this.#byFile = keysByFile(resources);
      return;
    }
    if (hadErrors) {
      for (const resources of changes.values()) this.record(resources);
      this.#byFile = undefined;
      return;
    }
    for (const [file, resources] of changes) {
      const now = new Set(resources.map((r) => r.key));
      for (const key of byFile.get(file) ?? []) if (!now.has(key)) this.#specs.delete(key);
      this.record(resources);
      if (now.size > 0) byFile.set(file, [...now]);
      else byFile.delete(file);
    }
  }

  get size(): number {
    return this.#specs.size;
  }
}
