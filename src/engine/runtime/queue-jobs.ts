/**
 * What a queue controller's work queue holds: a reconcile of an item (by its id or pointer), a
 * mapping of a changed secondary input, or an event routed again.
 */

import type { Pointer } from '../resource/pointer.js';
import type { ResourceEvent } from '../state/state.js';
import type { Input, MapEventContext, QInputKind, ReducedMetadata } from './controller.js';

/** A mapping of a changed secondary input to the primary items it affects. */
export class MapJob {
  constructor(readonly metadata: ReducedMetadata) {}
}

/**
 * An event whose routing by `mapEvent` (a builder's predicates and handlers) threw: it is routed
 * again, with the item's backoff, as a mapping that throws is, so the change is not lost.
 */
export class RouteJob {
  constructor(
    readonly input: Input<QInputKind>,
    readonly event: ResourceEvent,
    readonly context: MapEventContext,
  ) {}
}

/**
 * A queued job: a reconcile of an item of the first primary kind, by its id (a string the
 * resource already holds, so an event allocates nothing to queue one; the pointer is made when
 * it runs), a reconcile of another primary kind's item, by its pointer, a mapping, or the
 * routing of an event again.
 */
export type Job = string | Pointer | MapJob | RouteJob;

/** Whether a job maps changes to items (a mapping, or the routing of an event), not a reconcile. */
export function isMapping(job: Job): job is MapJob | RouteJob {
  return job instanceof MapJob || job instanceof RouteJob;
}
