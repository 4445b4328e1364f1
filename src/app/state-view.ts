import { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import {
  createDefinition,
  resourceDefinitionDefinition,
  type ResourceDefinition,
  type ResourceDefinitionInput,
} from '../engine/resource/definition.js';
import { takeSnapshot, type StateSnapshot } from '../engine/state/state-snapshot.js';
import type { State } from '../engine/state/state.js';
import { toError } from '../engine/errors.js';
import type { Kind } from '../engine/resource/pointer.js';

function hasErrorCode(error: unknown, code: string): boolean {
  return error instanceof Error && (error as { code?: unknown }).code === code;
}

/** What a running system's state holds, ready to be shown: its resources and its types. */
export interface StateView {
  readonly snapshot: StateSnapshot;
  /** The built-in types and the definitions stored in the state (as `cosi run` stores them). */
  readonly registry: DefinitionRegistry;
  /**
   * The kinds that could not be read (a value in etcd that is no resource): left out of the
   * snapshot, each with why, so that one bad value does not hide every other kind.
   */
  readonly unreadable: readonly { readonly kind: Kind; readonly error: Error }[];
}

/**
 * Reads a state once, for `get` and `graph --resources` on a running system: the types come
 * from the definitions stored in it, so no manifest or config is needed to show it. A stored
 * definition that no longer validates is left out (its resources show under the bare type).
 */
export async function readStateView(state: State): Promise<StateView> {
  const unreadable: { kind: Kind; error: Error }[] = [];
  const snapshot = await takeSnapshot(state, (kind, error) => {
    // Only a kind's own data fails it; etcd unreachable fails the whole read.
    if (!hasErrorCode(error, 'etcd-corrupt-value')) throw error;
    unreadable.push({ kind, error: toError(error) });
  });
  const definitions: ResourceDefinition[] = [];
  for (const stored of snapshot.definitions) {
    try {
      definitions.push(createDefinition(stored.spec as ResourceDefinitionInput));
    } catch {
      // Written by another version or by hand: shown, but not used for aliases and columns.
    }
  }
  return {
    snapshot,
    registry: new DefinitionRegistry([resourceDefinitionDefinition, ...definitions]),
    unreadable,
  };
}
