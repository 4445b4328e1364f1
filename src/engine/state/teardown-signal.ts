import { formatPointer, type Pointer } from '../resource/pointer.js';
import type { State } from './state.js';

/**
 * An `AbortSignal` that aborts once the resource starts tearing down or is destroyed (at once,
 * if it is already tearing down or does not exist), or when `signal` aborts, or when the watch
 * behind it fails (with its error as the reason). COSI's `ContextWithTeardown`: the signal is
 * handed to long-running work on behalf of the resource, which stops when the resource goes.
 *
 * It is built on `State.watch`, so any backend has it; the watch ends when the signal aborts.
 *
 * @example
 * const stop = await teardownSignal(state, vm.metadata);
 * await provision(vm, { signal: stop });
 */
export async function teardownSignal(
  state: Pick<State, 'watch'>,
  pointer: Pointer,
  signal?: AbortSignal,
): Promise<AbortSignal> {
  const controller = new AbortController();
  if (signal?.aborted) {
    controller.abort(signal.reason);
    return controller.signal;
  }
  const onAbort = (): void => {
    controller.abort(signal?.reason);
  };
  signal?.addEventListener('abort', onAbort, { once: true });
  controller.signal.addEventListener(
    'abort',
    () => {
      signal?.removeEventListener('abort', onAbort);
    },
    { once: true },
  );
  const name = formatPointer(pointer);
  await state.watch(
    pointer,
    (event) => {
      if (controller.signal.aborted) return;
      switch (event.type) {
        case 'created':
        case 'updated':
          if (event.resource.metadata.phase === 'tearingDown') {
            controller.abort(new Error(`resource ${name} is tearing down`));
          }
          break;
        case 'destroyed':
          controller.abort(new Error(`resource ${name} was destroyed`));
          break;
        case 'errored':
          controller.abort(event.error);
          break;
        case 'bootstrapped':
          break;
      }
    },
    { signal: controller.signal },
  );
  return controller.signal;
}
