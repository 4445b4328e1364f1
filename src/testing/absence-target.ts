import { compareStrings } from '../engine/compare-strings.js';
import {
  TypeResolutionError,
  type DefinitionRegistry,
} from '../engine/resource/definition-registry.js';
import type { Pointer } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import type { RunRecord } from '../engine/record/run-record.js';
import { didYouMean, didYouMeanType } from '../loaders/did-you-mean.js';
import { rgdTypeNote } from '../loaders/kro/rgd-type-name.js';

/**
 * An absence check that names a type or a namespace the project never had: it would pass
 * whatever the controllers do, so it is an error in the test, not an assertion that holds.
 */
export class UnknownTargetError extends Error {
  constructor(
    readonly code: 'unknown-type' | 'unknown-namespace',
    message: string,
  ) {
    super(message);
    this.name = 'UnknownTargetError';
  }
}

/** Where the project has had resources: what an absence check may name. */
export interface KnownPlaces {
  readonly registry: DefinitionRegistry;
  /** The state's resources now. */
  readonly resources: readonly Resource[];
  /** Every manifest applied so far, destroyed or not. */
  readonly manifests: Iterable<Pointer>;
  /** The run's record: what the controllers wrote, deleted since or not. */
  readonly record?: RunRecord;
}

/**
 * The pointer an absence check means (`pointer` resolves the type by alias and fills the
 * namespace), once it is known that the check can fail: its type has a definition or a resource
 * of it has existed (controllers may write types no definition has), and its namespace is one a
 * definition defaults to or a resource has lived in. `kubectl get` says "No resources found" for
 * a namespace that does not exist; an assertion that nothing is there is vacuous for one.
 *
 * @throws UnknownTargetError, with the nearest known name, for any other type or namespace.
 */
export function absenceTarget(
  type: string,
  pointer: (type: string) => Pointer,
  known: KnownPlaces,
): Pointer {
  const seen = [...known.manifests, ...known.resources.map((r) => r.metadata)];
  for (const reconcile of known.record?.reconciles() ?? []) seen.push(...reconcile.writes);
  const definitions = known.registry.all();
  const undefinedTypes = [
    ...new Set(seen.map((p) => p.type).filter((t) => known.registry.get(t) === undefined)),
  ];
  let target: Pointer;
  try {
    target = pointer(type);
  } catch (error) {
    if (!(error instanceof TypeResolutionError) || error.code !== 'unknown-type') throw error;
    throw unknownType(type, definitions, undefinedTypes);
  }
  if (known.registry.get(target.type) === undefined && !undefinedTypes.includes(target.type)) {
    throw unknownType(type, definitions, undefinedTypes);
  }
  const namespaces = new Set([
    ...definitions.map((d) => d.defaultNamespace),
    ...seen.map((p) => p.namespace),
  ]);
  if (!namespaces.has(target.namespace)) {
    const listed = [...namespaces].sort(compareStrings);
    const guess = didYouMean(target.namespace, listed);
    throw new UnknownTargetError(
      'unknown-namespace',
      `namespace ${JSON.stringify(target.namespace)} has never held a resource and is no type's default namespace, so nothing could be there${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}; the project's namespaces: ${listed.join(', ')}`,
    );
  }
  return target;
}

function unknownType(
  type: string,
  definitions: Parameters<typeof didYouMeanType>[1],
  undefinedTypes: readonly string[],
): UnknownTargetError {
  const rgd = rgdTypeNote(type);
  const guess =
    rgd === undefined
      ? (didYouMeanType(type, definitions) ?? didYouMean(type, undefinedTypes))
      : undefined;
  return new UnknownTargetError(
    'unknown-type',
    `resource type ${JSON.stringify(type)} is not registered and no resource of it has existed, so nothing of it could be there${rgd === undefined ? '' : `: ${rgd}`}${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}`,
  );
}
