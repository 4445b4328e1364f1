import type { Pointer } from '../../engine/resource/pointer.js';
import type { ManifestPosition } from './explain-source.js';

/**
 * Why a controller did not leave the resource behind. `input-missing`: no input with its id
 * exists. `filtered`: the input changed, and the controller's predicates or handlers (its
 * `mapEvent`) queued nothing for it. `mapped-to-nothing`: its `mapInput` returned nothing for
 * the input. `error`: the reconcile for it failed (its last error). `given-up`: it failed until
 * the attempt bound. `torn-down`: it was written, then destroyed. `not-run`: the controller never
 * reconciled it. `no-write`: it reconciled the input and wrote nothing of the kind. `refused`: a
 * controller that does not declare the type as an output tried to write the resource, and the
 * runtime refused it. A kro RGD's (see `why-not-graph.ts`), for one of its resources and an
 * instance: `left-out` (an `includeWhen`, its own or a dependency's, was false), `waiting` (it,
 * or a dependency, waits on what no one wrote), `rendered-other` (it rendered a resource of
 * another name).
 */
export type WhyNotReason =
  | 'refused'
  | 'input-missing'
  | 'filtered'
  | 'mapped-to-nothing'
  | 'error'
  | 'given-up'
  | 'torn-down'
  | 'not-run'
  | 'no-write'
  | 'left-out'
  | 'waiting'
  | 'rendered-other';

export interface WhyNotFinding {
  readonly reason: WhyNotReason;
  /** A sentence for the terminal. */
  readonly message: string;
  /** The input concerned, when there is one. */
  readonly input?: Pointer;
  /** The manifest of that input, when it is one. */
  readonly position?: ManifestPosition;
  /** The reconciles the finding rests on. */
  readonly reconciles: readonly number[];
}
