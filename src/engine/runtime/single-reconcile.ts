/**
 * One controller's code run once, outside any convergence: a queue controller's `reconcile` of
 * one item, or one pass of a whole-world controller's `run`. What a unit test of a controller
 * calls, as controller-runtime's tests call `Reconcile(ctx, req)` on a fake client: the state as
 * it is, no other controller running, and the answer (requeue, error) returned, not acted on.
 */
import { RequeueError, toError } from '../errors.js';
import type { Pointer } from '../resource/pointer.js';
import { isQController, type AnyController, type ReconcileEvent } from './controller.js';
import { ControllerFacade, type FacadeHost } from './controller-facade.js';
import { ControllerRunFacade } from './controller-adapter.js';
import type { Input } from './controller.js';
import type { Logger } from './logger.js';
import { createMetrics } from './metrics.js';

/** How a single reconcile ended. */
export interface SingleReconcileOutcome {
  /** What it threw (not a requeue); `undefined` when it returned. */
  readonly error?: Error;
  /** The delay of the requeue it asked for (`requeueAfter(ms)`), in ms. */
  readonly requeueAfter?: number;
  /**
   * It asked to run again: a requeue (with or without a delay), or a whole-world controller's
   * `queueReconcile()` during its pass.
   */
  readonly requeued: boolean;
}

/** What running it needs of the runtime: the facade's host, its current inputs, its log. */
export interface SingleReconcileHost extends FacadeHost {
  readonly inputs: () => readonly Input[];
  readonly log: Logger;
}

/**
 * Runs `controller` once over the host's state: `reconcile(pointer)` for a queue controller,
 * one pass of `run` (its `events()` yields one `start` event, then ends) for a whole-world one.
 * Writes go through the same guarded facade as in a run (only its outputs, owned by it).
 *
 * @throws Error when `pointer` is missing for a queue controller or given for a whole-world one.
 */
export async function reconcileOnce(
  controller: AnyController,
  host: SingleReconcileHost,
  pointer: Pointer | undefined,
  signal: AbortSignal,
): Promise<SingleReconcileOutcome> {
  const metrics = createMetrics();
  if (isQController(controller)) {
    if (pointer === undefined) {
      throw new Error(
        `${controller.name} is a queue controller: it reconciles one item at a time; name the item`,
      );
    }
    const { name, settings } = controller;
    const rt = new ControllerFacade(name, settings.outputs, host.inputs, metrics, host, signal);
    try {
      await controller.reconcile(rt, pointer, host.log);
      return { requeued: false };
    } catch (thrown) {
      return outcomeOf(thrown, false);
    } finally {
      await rt.close();
    }
  }
  if (pointer !== undefined) {
    throw new Error(
      `${controller.name} is a whole-world controller: each pass reconciles all its inputs; run it without an item`,
    );
  }
  let requeued = false;
  const rt = new ControllerRunFacade(
    controller.name,
    controller.outputs,
    host.inputs,
    metrics,
    host,
    {
      // One wakeup, then the stream ends: a `for await` over it ends after one pass.
      events: async function* (): AsyncGenerator<ReconcileEvent> {
        yield { reason: 'start' };
      },
      queueReconcile: () => {
        requeued = true;
      },
      resetRestartBackoff: () => undefined,
      updateInputs: () => undefined,
      workingOn: () => undefined,
    },
    signal,
  );
  try {
    await controller.run(rt, signal, host.log);
    return { requeued };
  } catch (thrown) {
    return outcomeOf(thrown, requeued);
  } finally {
    rt.endTracking();
    await rt.close();
  }
}

function outcomeOf(thrown: unknown, requeued: boolean): SingleReconcileOutcome {
  if (thrown instanceof RequeueError) {
    return thrown.rateLimited === true
      ? { requeued: true }
      : { requeued: true, requeueAfter: thrown.interval };
  }
  return { error: toError(thrown), requeued };
}
