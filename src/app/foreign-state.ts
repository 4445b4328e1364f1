import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import type { State } from '../engine/state/state.js';
import { BuiltinKinds } from '../loaders/kubernetes/builtin-kinds.js';

/**
 * A shared state that holds resources of types this project does not know: another project's
 * (a mistyped `--state` prefix, or two projects on one prefix). Serving it would mix them.
 */
export class ForeignStateError extends Error {
  readonly code = 'foreign-state';

  constructor(
    readonly where: string,
    readonly types: readonly string[],
  ) {
    const shown =
      types.slice(0, 3).join(', ') + (types.length > 3 ? `, ${types.length - 3} more` : '');
    super(
      `${where} holds resources of types this project does not define (${shown}): it is another project's state. Give this project its own prefix (--state etcd://HOST:PORT/PREFIX), or check the prefix for a typo`,
    );
    this.name = 'ForeignStateError';
  }
}

/**
 * The types stored in `state` that neither the project's registry nor the built-in Kubernetes
 * kinds define, sorted. Empty for a fresh state or one this project (of any earlier version that
 * had the same types) wrote.
 */
export async function foreignTypes(state: State, registry: DefinitionRegistry): Promise<string[]> {
  const builtins = BuiltinKinds.of();
  const foreign = new Set<string>();
  for (const { type } of await state.kinds()) {
    if (!registry.has(type) && builtins.findByType(type) === undefined) foreign.add(type);
  }
  return [...foreign].sort();
}
