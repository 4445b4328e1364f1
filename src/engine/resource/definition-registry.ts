import type { ResourceDefinition } from './definition.js';

/**
 * kubectl's `singular.group` form of a cosi type (`vm.example.org` beside `vms.example.org`),
 * which COSI's aliases lack; a Kubernetes kind has it among its aliases as `KIND.GROUP`.
 */
function groupForms(definition: ResourceDefinition): string[] {
  const dot = definition.type.indexOf('.');
  if (definition.kubernetes !== undefined || dot < 0) return [];
  return [`${definition.displayType}${definition.type.slice(dot)}`.toLowerCase()];
}

/** Why a type name did not resolve. */
export class TypeResolutionError extends Error {
  constructor(
    readonly code: 'unknown-type' | 'ambiguous-type',
    readonly typeName: string,
    readonly candidates: readonly string[],
  ) {
    super(
      code === 'unknown-type'
        ? `resource type ${JSON.stringify(typeName)} is not registered`
        : `resource type ${JSON.stringify(typeName)} is ambiguous: it matches ${candidates.join(', ')}`,
    );
    this.name = 'TypeResolutionError';
  }
}

/**
 * The set of known definitions and the lookup `talosctl get` does: a case-insensitive match on the
 * definition id or any alias; more than one match is ambiguous.
 */
export class DefinitionRegistry {
  readonly #byType = new Map<string, ResourceDefinition>();
  readonly #byName = new Map<string, Set<string>>();

  constructor(definitions: Iterable<ResourceDefinition> = []) {
    for (const d of definitions) this.register(d);
  }

  /** Adds a definition; registering the same type again replaces it. */
  register(definition: ResourceDefinition): void {
    if (this.#byType.has(definition.type)) this.#unindex(definition.type);
    this.#byType.set(definition.type, definition);
    for (const name of [definition.id, ...definition.allAliases, ...groupForms(definition)]) {
      let types = this.#byName.get(name);
      if (!types) this.#byName.set(name, (types = new Set()));
      types.add(definition.type);
    }
  }

  has(type: string): boolean {
    return this.#byType.has(type);
  }

  /** The definition of an exact type name. */
  get(type: string): ResourceDefinition | undefined {
    return this.#byType.get(type);
  }

  /** All definitions, sorted by type. */
  all(): ResourceDefinition[] {
    return [...this.#byType.values()].sort((a, b) =>
      a.type < b.type ? -1 : a.type > b.type ? 1 : 0,
    );
  }

  /**
   * Resolves a type or alias, case-insensitively.
   * @throws TypeResolutionError when nothing or more than one type matches.
   */
  resolve(name: string): ResourceDefinition {
    const exact = this.#byType.get(name);
    if (exact) return exact;
    const types = [...(this.#byName.get(name.toLowerCase()) ?? [])].sort();
    if (types.length === 1) return this.#byType.get(types[0] as string) as ResourceDefinition;
    throw new TypeResolutionError(
      types.length === 0 ? 'unknown-type' : 'ambiguous-type',
      name,
      types,
    );
  }

  #unindex(type: string): void {
    for (const types of this.#byName.values()) types.delete(type);
  }
}
