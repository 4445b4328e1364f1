import type {
  ControllerContext,
  ControllerReader,
  ControllerWriter,
} from '../engine/runtime/controller.js';
import type { Logger } from '../engine/runtime/logger.js';

/**
 * What the functions given to a generic controller receive: the controller's guarded reader and
 * writer, and its logger.
 *
 * The writer is the controller's own: it may write only the declared outputs (the primary output
 * and any extra outputs), and every write is owned by the controller.
 */
export interface GenericContext {
  readonly reader: ControllerReader;
  readonly writer: ControllerWriter;
  readonly log: Logger;
  /**
   * Independent writes the function may keep under way at once (the runtime's `writesInFlight`:
   * 1 in memory, 32 on etcd under `cosi run`); 1 when absent.
   */
  readonly writesInFlight?: number;
}

export function createContext(rt: ControllerContext, log: Logger): GenericContext {
  return { reader: rt, writer: rt, log, writesInFlight: rt.writesInFlight ?? 1 };
}
