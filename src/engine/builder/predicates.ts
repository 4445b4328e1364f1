import { queryMatches, type LabelQuery } from '../resource/label-query.js';
import { deepEqual } from '../resource/plain-data.js';
import { checkEventFuncs, checkFunction } from './event-funcs.js';
import type { CreateEvent, DeleteEvent, GenericEvent, ObjectLike, UpdateEvent } from './events.js';

/**
 * controller-runtime's `Predicate`: decides, per kind of event, whether an event reaches the
 * handler. Predicates run before handlers, so dropping a delete (or the initial create) can
 * suppress a reconcile the controller needed.
 */
export interface Predicate<O extends ObjectLike = ObjectLike> {
  create(event: CreateEvent<O>): boolean;
  update(event: UpdateEvent<O>): boolean;
  delete(event: DeleteEvent<O>): boolean;
  generic(event: GenericEvent<O>): boolean;
}

/** The functions of {@link predicateFuncs}; each is optional. */
export type PredicateFuncs<O extends ObjectLike = ObjectLike> = Partial<Predicate<O>>;

const pass = (): boolean => true;

/**
 * A predicate from the functions given; a missing one lets its events through, so
 * `predicateFuncs({})` passes everything.
 *
 * @throws TypeError for a key it does not take (`UpdateFunc`: it is `update` here) or a value
 * that is no function.
 *
 * @example
 * const noDeletes = predicateFuncs({ delete: () => false });
 */
export function predicateFuncs<O extends ObjectLike = ObjectLike>(
  funcs: PredicateFuncs<O>,
): Predicate<O> {
  checkEventFuncs('predicateFuncs', funcs);
  return {
    create: funcs.create ?? pass,
    update: funcs.update ?? pass,
    delete: funcs.delete ?? pass,
    generic: funcs.generic ?? pass,
  };
}

/** A predicate that applies `filter` to the object of every event (the new one on update). */
export function newPredicateFuncs<O extends ObjectLike = ObjectLike>(
  filter: (object: O) => boolean,
): Predicate<O> {
  checkFunction('newPredicateFuncs', filter);
  return {
    create: (e) => filter(e.object),
    update: (e) => filter(e.objectNew),
    delete: (e) => filter(e.object),
    generic: (e) => filter(e.object),
  };
}

const specOf = (object: ObjectLike): unknown => (object as { spec?: unknown }).spec;

/**
 * Passes updates whose spec changed (deeply) or whose phase changed, a write of the spec's
 * `status` too, which {@link generationChanged} (controller-runtime's `GenerationChangedPredicate`)
 * drops. Writes that touch only other metadata are dropped. The start of a
 * teardown passes, as the API server bumps the generation when it sets `deletionTimestamp`
 * (`rest.BeforeDelete`), so a controller that holds a finalizer sees it. Creates, deletes and
 * generic events pass. On a metadata-only watch there is no spec, so only a phase change passes.
 */
export const specChanged: Predicate = predicateFuncs({
  update: (e) =>
    e.objectOld.metadata.phase !== e.objectNew.metadata.phase ||
    !deepEqual(specOf(e.objectOld), specOf(e.objectNew)),
});

/**
 * Passes updates whose generation changed, controller-runtime's `GenerationChangedPredicate`:
 * a change of the spec other than its `status`, or the start of a teardown (see the state's
 * `generation.ts`). A status write, a label, a finalizer pass no event. Metadata-only watches
 * carry the generation too. Creates, deletes and generic events pass. On a Kubernetes kind the
 * API server keeps no generation for (ConfigMap, Secret), a builder watch sees 0 on both sides,
 * so every update is dropped, as on a cluster (see `RuntimeOptions.kubernetesKind`).
 */
export const generationChanged: Predicate = predicateFuncs({
  update: (e) => e.objectOld.metadata.generation !== e.objectNew.metadata.generation,
});

/** Passes updates whose labels changed. Creates, deletes and generic events pass. */
export const labelsChanged: Predicate = predicateFuncs({
  update: (e) => !deepEqual(e.objectOld.metadata.labels, e.objectNew.metadata.labels),
});

/** Passes updates whose annotations changed. Creates, deletes and generic events pass. */
export const annotationsChanged: Predicate = predicateFuncs({
  update: (e) => !deepEqual(e.objectOld.metadata.annotations, e.objectNew.metadata.annotations),
});

/**
 * Passes updates whose resource version changed, the analogue of
 * `ResourceVersionChangedPredicate`: it drops re-deliveries of an unchanged resource. Creates,
 * deletes and generic events pass.
 */
export const versionChanged: Predicate = predicateFuncs({
  update: (e) => e.objectOld.metadata.version !== e.objectNew.metadata.version,
});

/** Passes events whose object (the new one on update) matches the label query. */
export function labelSelectorPredicate(query: LabelQuery): Predicate {
  return newPredicateFuncs((object) => queryMatches(object.metadata.labels, query));
}

/** Passes an event when every predicate does (the first that refuses wins); `and()` passes all. */
export function and<O extends ObjectLike = ObjectLike>(
  ...predicates: readonly Predicate<O>[]
): Predicate<O> {
  return {
    create: (e) => predicates.every((p) => p.create(e)),
    update: (e) => predicates.every((p) => p.update(e)),
    delete: (e) => predicates.every((p) => p.delete(e)),
    generic: (e) => predicates.every((p) => p.generic(e)),
  };
}

/** Passes an event when any predicate does (the first that passes wins); `or()` passes none. */
export function or<O extends ObjectLike = ObjectLike>(
  ...predicates: readonly Predicate<O>[]
): Predicate<O> {
  return {
    create: (e) => predicates.some((p) => p.create(e)),
    update: (e) => predicates.some((p) => p.update(e)),
    delete: (e) => predicates.some((p) => p.delete(e)),
    generic: (e) => predicates.some((p) => p.generic(e)),
  };
}

/** Passes exactly the events `predicate` drops. */
export function not<O extends ObjectLike = ObjectLike>(predicate: Predicate<O>): Predicate<O> {
  return {
    create: (e) => !predicate.create(e),
    update: (e) => !predicate.update(e),
    delete: (e) => !predicate.delete(e),
    generic: (e) => !predicate.generic(e),
  };
}
