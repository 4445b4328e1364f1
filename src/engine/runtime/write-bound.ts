import { formatPointer, type Pointer } from '../resource/pointer.js';

/** The code of a {@link WriteBoundError}, as error records carry it. */
export const WRITE_BOUND_CODE = 'max-writes';

/**
 * A write refused because the convergence run has made as many writes as its bound allows
 * (`maxWrites`, `--max-writes`). Checked on every write, so a controller that writes in a loop
 * without yielding is stopped there, not after the loop; the run then ends as `max-writes`.
 */
export class WriteBoundError extends Error {
  readonly code = WRITE_BOUND_CODE;

  constructor(
    readonly controller: string,
    readonly pointer: Pointer,
    readonly maxWrites: number,
  ) {
    super(
      `write to ${formatPointer(pointer)} refused: the run reached its bound of ${maxWrites} writes`,
    );
    this.name = 'WriteBoundError';
  }
}
