import { formatPointer, type Pointer } from '../engine/resource/pointer.js';
import type { ConvergenceReport } from '../engine/runtime/convergence.js';
import type { CodeLocation } from '../engine/runtime/error-record.js';
import { formatDuration } from './format-duration.js';

/**
 * The controllers a run stopped waiting on (a reconcile that never returned: it awaited a
 * promise that never settled, or something outside the run), in one sentence; `undefined` when
 * none. Names as the caller quotes them.
 *
 * @example
 * // 'Waiter was still running (on VMs.example.org(default/web-1)) after 5s with nothing else to do'
 * // and, for a controller a factory made, ' (defined at cosi.config.ts:12:17)'
 */
export function describeStuck(
  report: ConvergenceReport,
  name: (controller: string) => string = (n) => n,
  pointer: (p: Pointer) => string = formatPointer,
): string | undefined {
  const stuck = report.controllers.flatMap((c) =>
    c.stuck === undefined
      ? []
      : [
          `${name(c.name)} was still running${c.stuck.pointer ? ` (on ${pointer(c.stuck.pointer)})` : ''} after ${formatDuration(c.stuck.waited)} with nothing else to do${definedAt(c.stuck.location)}`,
        ],
  );
  return stuck.length === 0 ? undefined : stuck.join('; ');
}

/**
 * ` (defined at cosi.config.ts:12:17)`: where the project made a controller that never returned,
 * as a thrown error ends with where it was thrown; `''` when that is not known.
 */
export function definedAt(location: CodeLocation | undefined): string {
  return location === undefined
    ? ''
    : ` (defined at ${location.file}:${location.line}:${location.col})`;
}
