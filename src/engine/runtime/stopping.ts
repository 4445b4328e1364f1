import { formatPointer, type Pointer } from '../resource/pointer.js';

/**
 * Wall ms a stopping controller's work (a pass, the reconciles in flight, a run hook) is waited
 * for once its signal aborted; then, as long again for the writes it had already handed to the
 * state. Code that ignores its signal and never ends must not hold the stop forever.
 */
export const STOP_GRACE_MS = 1000;

/** Waits until `work` settles, at most `ms` wall ms; whether it settled in time. */
export async function settledWithin(work: Promise<unknown>, ms = STOP_GRACE_MS): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<false>((resolve) => (timer = setTimeout(resolve, ms, false)));
  try {
    return await Promise.race([
      work.then(
        () => true,
        () => true,
      ),
      grace,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The code of a {@link ControllerStoppedError}, as error records carry it. */
export const CONTROLLER_STOPPED_CODE = 'controller-stopped';

/**
 * A write refused because its controller was stopped (`Runtime.stop`): work that outlived the
 * stop's grace period, having ignored its signal, writes nothing once the stop has resolved.
 */
export class ControllerStoppedError extends Error {
  readonly code = CONTROLLER_STOPPED_CODE;

  constructor(
    readonly controller: string,
    readonly pointer: Pointer,
  ) {
    super(
      `write to ${formatPointer(pointer)} refused: controller ${JSON.stringify(controller)} has stopped`,
    );
    this.name = 'ControllerStoppedError';
  }
}
