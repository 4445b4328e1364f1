import { OSCILLATION_WINDOW, type ConvergenceReport } from '../engine/runtime/convergence.js';

/**
 * Why a run that hit its write bound names no resource that kept changing: its writes went to
 * ever new resources, none written more than twice (a chain of controllers that keeps creating
 * them, or more work than the bound allows), in one sentence with the controllers that wrote
 * them, most first; `undefined` for any other run. Names as the caller quotes them.
 *
 * @example
 * // 'no resource was written more than twice over the last 300 writes: they went to ever new
 * // resources (controllers that keep creating them, or more work than the write bound allows),
 * // written by XtoY (151 writes), YtoX (149 writes)'
 */
export function describeSpreadWrites(
  report: ConvergenceReport,
  name: (controller: string) => string = (n) => n,
): string | undefined {
  if (report.reason !== 'max-writes' || report.oscillating.length > 0 || report.writes === 0) {
    return undefined;
  }
  const writers = report.controllers
    .filter((c) => c.writes > 0)
    .sort((a, b) => b.writes - a.writes)
    .map((c) => `${name(c.name)} (${c.writes} ${c.writes === 1 ? 'write' : 'writes'})`);
  const window = Math.min(report.writes, OSCILLATION_WINDOW);
  return `no resource was written more than twice over the last ${window} writes: they went to ever new resources (controllers that keep creating them, or more work than the write bound allows), written by ${writers.join(', ')}`;
}
