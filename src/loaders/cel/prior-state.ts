/**
 * The previous revision of a manifest tree, as CEL transition rules see it: for each resource
 * (by pointer key: namespace, type, id), its previous spec. A resource with a previous spec is
 * checked as an UPDATE (transition rules run, `oldSelf` is the previous value); one without,
 * as a CREATE (transition rules are skipped, unless `optionalOldSelf`).
 */

import type { SourceLocation } from '../position.js';
import type { ManifestHeader } from '../manifest-header.js';

/** A resource's previous revision: its spec and, for a Kubernetes-shaped one, its metadata. */
export interface PriorSpec {
  readonly spec: unknown;
  readonly metadata?: unknown;
}

/** Previous specs by resource key. */
export interface PriorState {
  /** The previous spec of the resource with this `pointerKey`, wrapped; `undefined`: a create. */
  get(key: string): PriorSpec | undefined;
  /**
   * For a resource with nothing under its key, what the previous revision had of the same
   * object by {@link priorIdentity}: a Kubernetes object written at another version of its
   * kind (the API server converts the stored object: the same object), or the place of a
   * document whose type the previous revision could not resolve (not a create: unknown).
   */
  find?(identity: string): PriorSpec | { readonly unresolved: SourceLocation } | undefined;
  /**
   * The previous revision's CustomResourceDefinition of this name, as its document has it (the
   * stored CRD an update of it is compared with); `undefined`: the CRD is created.
   */
  crd?(name: string): Readonly<Record<string, unknown>> | undefined;
}

/** What the load of a previous revision tells, document by document (`recordPrior`). */
export interface PriorRecorder {
  /** A document whose type resolved: its key, identity and previous spec (even if invalid now). */
  resolved(key: string, identity: string | undefined, prior: PriorSpec): void;
  /** A document whose type did not resolve, at its type. */
  unresolved(identity: string, at: SourceLocation): void;
  /** A CustomResourceDefinition document, by its name (the first of a name is kept). */
  crdDocument?(name: string, value: Readonly<Record<string, unknown>>): void;
}

/**
 * A document's identity beside its key, which needs its type resolved: a Kubernetes object's
 * group, kind, namespace and name (its version left out), a cosi document's type as written,
 * namespace and id. `undefined` without an id.
 */
export function priorIdentity(header: ManifestHeader): string | undefined {
  if (header.id === undefined) return undefined;
  const at = `${header.namespace ?? 'default'}\0${header.id}`;
  const kind = header.kubernetes;
  if (kind !== undefined) return `${kind.group}/${kind.kind}\0${at}`;
  return header.type === undefined ? undefined : `${header.type.toLowerCase()}\0${at}`;
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
export class RecordedPriorState implements PriorState, PriorRecorder {
  readonly #specs = new Map<string, PriorSpec>();
  /** By identity: what {@link find} answers (filled by a previous revision's load only). */
  readonly #identities = new Map<string, PriorSpec | { readonly unresolved: SourceLocation }>();
  /** CRD documents by name (filled by a previous revision's load only). */
  readonly #crds = new Map<string, Readonly<Record<string, unknown>>>();
  /**
   * The keys each file of the last load gave, while the specs are exactly that load's (the last
   * replace had no errors): what {@link replaceChanged} needs to take out a removed resource.
   */
  #byFile: Map<string, readonly string[]> | undefined;

  get(key: string): PriorSpec | undefined {
    return this.#specs.get(key);
  }

  find(identity: string): PriorSpec | { readonly unresolved: SourceLocation } | undefined {
    return this.#identities.get(identity);
  }

  crd(name: string): Readonly<Record<string, unknown>> | undefined {
    return this.#crds.get(name);
  }

  crdDocument(name: string, value: Readonly<Record<string, unknown>>): void {
    if (!this.#crds.has(name)) this.#crds.set(name, value);
  }

  resolved(key: string, identity: string | undefined, prior: PriorSpec): void {
    this.#specs.set(key, prior);
    if (identity !== undefined) this.#identities.set(identity, prior);
  }

  unresolved(identity: string, at: SourceLocation): void {
    if (!this.#identities.has(identity)) this.#identities.set(identity, { unresolved: at });
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
