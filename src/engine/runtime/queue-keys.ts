/**
 * The keys a queue controller's work queue holds its jobs under, and the items they are about:
 * a reconcile of a primary item, a mapping of a changed input, the routing of an event again.
 */
import {
  ALL_NAMESPACES,
  kindKey,
  pointerKey,
  toPointer,
  type Kind,
  type Pointer,
} from '../resource/pointer.js';
import type { ResourceEvent } from '../state/state.js';
import type { Input, QInputKind } from './controller.js';
import { MapJob, RouteJob, type Job } from './queue-jobs.js';

/** The queue keys of one queue controller, by its primary inputs. */
export class QueueKeys {
  readonly #primaryKinds: Set<string>;
  /** The first primary input kind, whose items are queued under their bare id. */
  readonly #mainKind: Kind | undefined;

  constructor(inputs: readonly Input[]) {
    const primaries = inputs.filter((i) => i.kind === 'primary');
    this.#primaryKinds = new Set(primaries.map(kindKey));
    // A job of the main kind is its id: only a kind of one namespace can tell it back.
    this.#mainKind = primaries[0]?.namespace === ALL_NAMESPACES ? undefined : primaries[0];
  }

  /** A primary input added after registration: its items are reconciled from now on. */
  addPrimary(kind: Kind): void {
    this.#primaryKinds.add(kindKey(kind));
  }

  /**
   * The queue key of a reconcile. An item of the first primary kind (for most controllers the
   * only one) is queued under its id, a string the resource already holds, whose hash is
   * computed once: so an event builds no key string. Any other kind's key names the whole
   * pointer; an id holds no NUL, so the two never meet.
   */
  reconcileKey(pointer: Pointer): string {
    const main = this.#mainKind;
    return main !== undefined && pointer.type === main.type && pointer.namespace === main.namespace
      ? pointer.id
      : `r\0${pointerKey(pointer)}`;
  }

  /** The queue key of a mapping of a changed input. */
  mapKey(pointer: Pointer): string {
    return `m\0${pointerKey(pointer)}`;
  }

  /**
   * The queue key of the routing of an event: one per input and resource (the routing of a
   * later event of the resource replaces one still waiting).
   */
  routeKey(input: Input<QInputKind>, event: ResourceEvent): string {
    return `e\0${input.kind}\0${pointerKey(event.resource.metadata)}`;
  }

  /** The item a job is about: a reconcile's item, or the changed input of a mapping. */
  itemOf(job: Job): Pointer {
    if (job instanceof MapJob) return toPointer(job.metadata);
    if (job instanceof RouteJob) return toPointer(job.event.resource.metadata);
    return this.pointerOf(job);
  }

  /** The item a reconcile job is for. */
  pointerOf(job: string | Pointer): Pointer {
    if (typeof job !== 'string') return job;
    const main = this.#mainKind as Kind;
    return { namespace: main.namespace, type: main.type, id: job };
  }

  /** Whether an item is of a primary input's kind. */
  isPrimary(pointer: Pointer): boolean {
    const main = this.#mainKind;
    if (main !== undefined && pointer.type === main.type && pointer.namespace === main.namespace)
      return true;
    return (
      this.#primaryKinds.has(kindKey(pointer)) ||
      // An input of every namespace: the type is primary wherever it is.
      this.#primaryKinds.has(kindKey({ namespace: ALL_NAMESPACES, type: pointer.type }))
    );
  }
}
