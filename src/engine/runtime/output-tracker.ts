import { pointerKey, type Pointer } from '../resource/pointer.js';

/**
 * Which outputs a whole-world controller wrote in the current pass, between
 * `startTrackingOutputs()` and `cleanupOutputs()` (COSI's output tracker). Off outside a pass; a
 * pass that ends by a crash or a stop leaves nothing behind.
 */
export class OutputTracker {
  #touched: Set<string> | undefined;

  get tracking(): boolean {
    return this.#touched !== undefined;
  }

  start(controller: string): void {
    if (this.#touched) {
      throw new Error(
        `controller ${JSON.stringify(controller)}: output tracking is already on; end each pass with cleanupOutputs() before startTrackingOutputs() again`,
      );
    }
    this.#touched = new Set();
  }

  /** Records a write of `pointer` (failed ones too, as COSI does), when tracking. */
  touch(pointer: Pointer): void {
    this.#touched?.add(pointerKey(pointer));
  }

  /** The keys (`pointerKey`) written in this pass; throws when tracking is off. */
  written(controller: string): ReadonlySet<string> {
    if (!this.#touched) {
      throw new Error(
        `controller ${JSON.stringify(controller)}: cleanupOutputs() needs output tracking; call startTrackingOutputs() at the start of the pass`,
      );
    }
    return this.#touched;
  }

  /** Ends the pass. */
  stop(): void {
    this.#touched = undefined;
  }
}
