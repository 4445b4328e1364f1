import type { OwnerReference } from '../engine/resource/metadata.js';
import { ownerPointerOf, type ClusterNamespaceOf } from '../engine/resource/owner-scope.js';
import {
  ALL_NAMESPACES,
  formatPointer,
  isAllNamespaces,
  kindKey,
  pointerKey,
  type Kind,
} from '../engine/resource/pointer.js';
import type { ResourceType } from '../engine/resource/define-resource.js';
import { DEFAULT_NAMESPACE } from '../engine/resource/definition.js';
import type { Resource } from '../engine/resource/resource.js';
import type {
  Controller,
  ControllerInputKind,
  ControllerRuntime,
  Input,
} from '../engine/runtime/controller.js';
import { isNotFound, ReconcileCycleError } from '../engine/errors.js';
import { forEachConcurrently } from '../engine/for-each-concurrently.js';
import type { Logger } from '../engine/runtime/logger.js';
import { annotate } from './errors.js';

/** What the garbage collector watches. */
export interface GarbageCollectorOptions {
  /**
   * The kinds whose resources may be collected: what `owns()` makes. A resource type
   * (`ConfigMap`) is the type in every namespace, as Kubernetes' collector sees them all; a kind
   * (`ConfigMap.kind('shop')`) only that namespace. Their types become shared outputs of the
   * collector, so no other controller may declare one of them an exclusive output.
   */
  readonly dependents: readonly (ResourceType<unknown> | Kind)[];
  /**
   * The kinds owners may be of (what `for()` reconciles): a resource type in every namespace, a
   * kind in its own. A controller reference to a kind not listed here is never followed: the
   * collector cannot see that owner, so it never collects on its account.
   */
  readonly owners: readonly (ResourceType<unknown> | Kind)[];
  /** The controller's name; `GarbageCollector` by default. */
  readonly name?: string;
  /**
   * The finalizer it holds on owners for foreground deletion, a domain-qualified name as
   * Kubernetes wants one (`domain/name`): `cosi.dev/garbage-collector` by default, and
   * `cosi.dev/<name>` for a collector given a `name`.
   */
  readonly finalizer?: string;
}

/** The finalizer of the collector with the default name. */
export const GARBAGE_COLLECTOR_FINALIZER = 'cosi.dev/garbage-collector';

/** Kubernetes' qualified name (`IsQualifiedName`) with the `domain/` prefix it wants of a finalizer. */
const QUALIFIED_FINALIZER =
  /^(?=.{1,253}\/)[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/(?=.{1,63}$)[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/**
 * The finalizer a collector holds, and the one versions of cosi before the qualified name held
 * (its name, `GarbageCollector` by default), which it still releases.
 */
function finalizersOf(
  name: string,
  options: GarbageCollectorOptions,
): {
  finalizer: string;
  legacy: string;
} {
  const finalizer =
    options.finalizer ??
    (options.name === undefined ? GARBAGE_COLLECTOR_FINALIZER : `cosi.dev/${name}`);
  if (!QUALIFIED_FINALIZER.test(finalizer)) {
    throw new Error(
      `garbage collector ${JSON.stringify(name)}: its finalizer ${JSON.stringify(finalizer)} is not a domain-qualified name (domain/name, as cosi.dev/garbage-collector): Kubernetes refuses it on an object; give one with the finalizer option`,
    );
  }
  return { finalizer, legacy: name };
}

/**
 * An opt-in owner-reference garbage collector, the part of the Kubernetes API server that
 * controller-runtime projects rely on: objects go when their controlling owner goes. It is a
 * controller like any other (registered, shown by `cosi graph`), and it maps Kubernetes' deletion
 * onto COSI's teardown and finalizers:
 *
 * - **Background** (the default): once the owner named by a dependent's controller reference
 *   (`controller: true`) is destroyed, the dependent is torn down in its own
 *   owner's name and destroyed as soon as no finalizer holds it.
 * - **Foreground**, for a reference marked `blockOwnerDeletion`: the collector holds a finalizer
 *   (`cosi.dev/garbage-collector`) on the running owner. When the owner starts tearing down, its dependents are torn
 *   down and destroyed, and the finalizer is released only once every blocking dependent is gone,
 *   so the owner cannot be destroyed before them.
 * - A dependent with only plain (non-controller) references goes, in the background, once every
 *   owner they name is destroyed, as in Kubernetes.
 *
 * An owner is in its dependent's namespace, unless its kind is cluster-scoped (the runtime's
 * `kubernetesKind` says so): then it is the one of that type and id, kept where `owners` lists
 * its kind, and owns dependents in any namespace, as a Namespace or a ClusterIssuer does in
 * Kubernetes. A cluster-scoped dependent's reference to a namespaced kind names nothing: it is
 * never followed (Kubernetes' collector takes it as unresolvable).
 *
 * Deviations, on purpose: a controller reference decides alone (a dependent with other, plain
 * owners still goes when its controller goes; Kubernetes waits for all owners); an owner is
 * known by type and id, not by a UID, so a re-created owner of the same id adopts the old
 * dependents; there is no orphan policy.
 *
 * @example
 * await controllerManagedBy(runtime).for(VM).owns(Disk).complete(reconcileVM);
 * await runtime.register(createGarbageCollector({ owners: [VM], dependents: [Disk] }));
 */
export function createGarbageCollector(options: GarbageCollectorOptions): Controller {
  const name = options.name ?? 'GarbageCollector';
  if (options.dependents.length === 0) {
    throw new Error(
      `garbage collector ${JSON.stringify(name)}: dependents is empty, so it would never collect anything`,
    );
  }
  const owners = options.owners.map(watchedKind);
  const dependents = options.dependents.map(watchedKind);
  const inputs = new Map<string, Input<ControllerInputKind>>();
  // Owners are strong inputs: the collector puts its finalizer on them for foreground deletion.
  for (const kind of owners) {
    inputs.set(kindKey(kind), { namespace: kind.namespace, type: kind.type, kind: 'strong' });
  }
  for (const kind of dependents) {
    const key = kindKey(kind);
    if (!inputs.has(key)) {
      inputs.set(key, { namespace: kind.namespace, type: kind.type, kind: 'weak' });
    }
  }
  const outputTypes = [...new Set(dependents.map((k) => k.type))];
  const pass = createPass(finalizersOf(name, options), owners, dependents, options.owners);
  return {
    name,
    inputs: [...inputs.values()],
    outputs: outputTypes.map((type) => ({ type, kind: 'shared' })),
    async run(rt, _signal, log) {
      for await (const _ of rt.events()) {
        const errors = await pass(rt, log);
        if (errors.length > 0) throw new ReconcileCycleError(name, errors);
        rt.resetRestartBackoff();
      }
    },
  };
}

/** One pass over every owner and dependent; returns the errors it collected. */
function createPass(
  { finalizer, legacy }: { finalizer: string; legacy: string },
  ownerKindList: readonly Kind[],
  dependentKinds: readonly Kind[],
  ownersGiven: GarbageCollectorOptions['owners'],
): (rt: ControllerRuntime, log: Logger) => Promise<Error[]> {
  /** Whether the collector holds the owner: by its finalizer, or by an older cosi's. */
  const holds = (owner: Resource): boolean =>
    owner.metadata.finalizers.includes(finalizer) || owner.metadata.finalizers.includes(legacy);
  const ownerKinds = kindsCovering(ownerKindList);
  /**
   * Where each owner type's objects are when it is cluster-scoped: the namespace `owners` lists
   * it in, or, listed in every namespace, its type's (cosi keeps them there, `default` unless
   * the type says otherwise).
   */
  const ownerNamespaces = new Map<string, string>();
  for (const given of ownersGiven) {
    const kept = isResourceType(given)
      ? given.namespace
      : given.namespace === ALL_NAMESPACES
        ? DEFAULT_NAMESPACE
        : given.namespace;
    if (!ownerNamespaces.has(given.type)) ownerNamespaces.set(given.type, kept);
  }

  return async (rt, log) => {
    const inFlight = rt.writesInFlight ?? 1;
    const clusterNamespace = clusterNamespaces(rt, ownerNamespaces);
    const owners = new Map<string, Resource>();
    for (const kind of ownerKindList) {
      for (const owner of await rt.list(kind)) owners.set(pointerKey(owner.metadata), owner);
    }
    /** Running owners with a blocking dependent: they get our finalizer. */
    const guarded = new Set<string>();
    /** Tearing-down owners a blocking dependent still holds. */
    const held = new Set<string>();
    /** The dependents to collect now, each with the owner it blocks (if it blocks one). */
    const collectable: { dependent: Resource; blocks: string | undefined }[] = [];

    for (const kind of dependentKinds) {
      for (const dependent of await rt.list(kind)) {
        const ref = controllerReference(dependent);
        if (!ref) {
          if (plainOwnersGone(dependent, owners, ownerKinds, clusterNamespace)) {
            collectable.push({ dependent, blocks: undefined });
          }
          continue;
        }
        const ownerPointer = ownerPointerOf(ref, dependent.metadata, clusterNamespace);
        if (ownerPointer === undefined || !ownerKinds(ownerPointer)) continue;
        const ownerKey = pointerKey(ownerPointer);
        const owner = owners.get(ownerKey);
        const blocking = ref.blockOwnerDeletion === true;
        if (owner?.metadata.phase === 'running') {
          if (blocking) guarded.add(ownerKey);
          continue;
        }
        // An owner tearing down without our finalizer is deleted in the background: its
        // dependents wait until it is destroyed. With the finalizer, it is a foreground deletion
        // and every dependent goes now, blocking or not, as in Kubernetes.
        if (owner && !holds(owner)) continue;
        // The owner is gone (background) or tearing down in the foreground: the dependent goes.
        collectable.push({ dependent, blocks: blocking && owner ? ownerKey : undefined });
      }
    }

    // Each dependent is collected once a pass (its teardown, then its destroy); different
    // dependents together, as many at once as the runtime allows. Errors in the listed order.
    const collectErrors: (Error | undefined)[] = [];
    await forEachConcurrently(collectable, inFlight, async ({ dependent, blocks }, index) => {
      try {
        const gone = await collect(rt, dependent, log);
        if (!gone && blocks !== undefined) held.add(blocks);
      } catch (error) {
        if (blocks !== undefined) held.add(blocks);
        collectErrors[index] = annotate('collecting', dependent.metadata, error);
      }
    });

    // Only once the dependents are settled: the finalizer is what holds an owner for them.
    const ownerErrors: (Error | undefined)[] = [];
    await forEachConcurrently([...owners], inFlight, async ([key, owner], index) => {
      const md = owner.metadata;
      const holding = md.finalizers.includes(finalizer);
      // An older cosi's finalizer (state it wrote, on etcd): released as the collector's own, or
      // on a running owner, swapped for the qualified one.
      const holdingLegacy = legacy !== finalizer && md.finalizers.includes(legacy);
      const wanted = md.phase === 'running' ? guarded.has(key) : held.has(key);
      try {
        // A tearing-down owner takes no new finalizer: one it does not carry yet has no dependent
        // it waited for (an older cosi's finalizer keeps holding it then).
        if (wanted && !holding && md.phase === 'running') await rt.addFinalizer(md, finalizer);
        else if (!wanted && holding) await rt.removeFinalizer(md, finalizer);
        if (holdingLegacy && (!wanted || md.phase === 'running')) {
          await rt.removeFinalizer(md, legacy);
        }
      } catch (error) {
        if (!isNotFound(error))
          ownerErrors[index] = annotate('updating the finalizer of', md, error);
      }
    });
    return [...collectErrors, ...ownerErrors].filter((e) => e !== undefined);
  };
}

/**
 * What the collector watches of an entry of `owners` or `dependents`: a resource type in every
 * namespace, a kind in its own.
 */
function watchedKind(given: ResourceType<unknown> | Kind): Kind {
  return isResourceType(given)
    ? { namespace: ALL_NAMESPACES, type: given.type }
    : { namespace: given.namespace, type: given.type };
}

/** A `defineResource` handle, not a bare kind (`VM.kind('ns')`, `{ namespace, type }`). */
function isResourceType(given: ResourceType<unknown> | Kind): given is ResourceType<unknown> {
  return typeof (given as Partial<ResourceType<unknown>>).definition === 'object';
}

/** Whether one of `kinds` covers a kind (a pointer's): in its namespace or in every one. */
function kindsCovering(kinds: readonly Kind[]): (kind: Kind) => boolean {
  const exact = new Set(kinds.filter((k) => !isAllNamespaces(k)).map(kindKey));
  const everywhere = new Set(kinds.filter(isAllNamespaces).map((k) => k.type));
  return (kind) => everywhere.has(kind.type) || exact.has(kindKey(kind));
}

/**
 * Whether a dependent without a controller reference has owner references, and every owner they
 * name is gone: Kubernetes collects a dependent once all its owners are absent, controller or not
 * (controller-runtime's `SetOwnerReference` is how a project shares an object among owners). A
 * reference to a kind the collector does not watch may name a live owner: it keeps the dependent.
 */
function plainOwnersGone(
  dependent: Resource,
  owners: ReadonlyMap<string, Resource>,
  ownerKinds: (kind: Kind) => boolean,
  clusterNamespace: ClusterNamespaceOf,
): boolean {
  const refs = dependent.metadata.ownerReferences;
  return (
    refs.length > 0 &&
    refs.every((ref) => {
      const pointer = ownerPointerOf(ref, dependent.metadata, clusterNamespace);
      return pointer !== undefined && ownerKinds(pointer) && !owners.has(pointerKey(pointer));
    })
  );
}

/**
 * Where the objects of each cluster-scoped type are (as the runtime's `kubernetesKind` tells the
 * scope): where `owners` lists the type, or, for a type it does not list, nowhere a listed kind
 * is (`''`), so that a reference to it is never followed. Asked once per type and pass.
 */
function clusterNamespaces(
  rt: ControllerRuntime,
  ownerNamespaces: ReadonlyMap<string, string>,
): ClusterNamespaceOf {
  const known = new Map<string, string | undefined>();
  return (type) => {
    if (known.has(type)) return known.get(type);
    const clusterScoped = rt.kubernetesKind?.(type)?.namespaced === false;
    const kept = clusterScoped ? (ownerNamespaces.get(type) ?? '') : undefined;
    known.set(type, kept);
    return kept;
  };
}

/** The dependent's controller reference: the first with `controller: true`. */
function controllerReference(resource: Resource): OwnerReference | undefined {
  return resource.metadata.ownerReferences.find((r) => r.controller === true);
}

/**
 * Tears the dependent down in the name of its own owner (the controller that wrote it), and
 * destroys it once no finalizer holds it; true when it is gone.
 */
async function collect(rt: ControllerRuntime, dependent: Resource, log: Logger): Promise<boolean> {
  const md = dependent.metadata;
  const as = { owner: md.owner };
  try {
    if (!(await rt.teardown(md, as))) return false;
    await rt.destroy(md, as);
  } catch (error) {
    if (isNotFound(error)) return true;
    throw error;
  }
  log.debug('collected a dependent whose owner is gone', { resource: formatPointer(md) });
  return true;
}
