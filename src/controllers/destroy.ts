import { formatPointer, type Kind } from '../engine/resource/pointer.js';
import type { QController } from '../engine/runtime/controller.js';
import { isNotFound } from '../engine/errors.js';

/** Options of `createDestroyController`. */
export interface DestroyOptions {
  /**
   * Resources destroyed in parallel; by default the runtime's `writesInFlight` (1 in memory, 32
   * on etcd under `cosi run`). Each resource is destroyed by one reconcile at a time.
   */
  readonly concurrency?: number;
}

/**
 * A queue controller named `Destroy[<type>]` that destroys every resource of a type that is
 * tearing down, has no owner and no finalizers left, COSI's `destroy.Controller`: the safety
 * valve for user resources whose finalizers were all released (say, by a crashed controller's
 * replacement) but that nobody destroyed.
 *
 * @example
 * await runtime.register(createDestroyController(VM));
 */
export function createDestroyController(type: Kind, options: DestroyOptions = {}): QController {
  return {
    name: `Destroy[${type.type}]`,
    settings: {
      inputs: [{ namespace: type.namespace, type: type.type, kind: 'primary' }],
      outputs: [{ type: type.type, kind: 'shared' }],
      concurrency: options.concurrency ?? 'writesInFlight',
    },
    async reconcile(rt, pointer, log) {
      const found = await rt.find(pointer);
      if (!found) return;
      const md = found.metadata;
      if (md.phase !== 'tearingDown' || md.owner !== '' || md.finalizers.length > 0) return;
      try {
        await rt.destroy(md, { owner: '' });
        log.info('destroyed a released resource', { resource: formatPointer(md) });
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },
    mapInput: async () => [],
  };
}
