import { pointerKey } from '../../engine/resource/pointer.js';
import { shortenMessage } from '../../loaders/shorten.js';
import type { ConvergenceReport } from '../../engine/runtime/convergence.js';
import type { ReportFailure, ReportItemFailure } from './report-data.js';

/**
 * What failed in a run, for the report to mark (each error whole: the page shows it cut, and
 * whole once on demand): each item a queue controller gave up on, and
 * each controller that failed without an item to blame (a whole-world controller's run). In
 * the report's order of controllers (by name), then items as the run lists them.
 */
export function reportFailures(report: ConvergenceReport): ReportFailure[] {
  const failures: ReportFailure[] = [];
  for (const c of report.controllers) {
    for (const item of c.failingItems) {
      const { namespace, type, id } = item.pointer;
      failures.push({
        controller: c.name,
        item: `${namespace}/${type}/${id}`,
        attempts: item.attempts,
        error: item.error.message,
      });
    }
    if (c.failingItems.length === 0 && c.condition === 'failed') {
      failures.push({ controller: c.name, error: c.lastError?.message ?? 'failed' });
    }
  }
  return failures;
}

/** The items given up on, by `pointerKey`: the first controller that gave up on each. */
export function itemFailures(report: ConvergenceReport): Map<string, ReportItemFailure> {
  const byKey = new Map<string, ReportItemFailure>();
  for (const c of report.controllers) {
    for (const item of c.failingItems) {
      const key = pointerKey(item.pointer);
      if (byKey.has(key)) continue;
      // Cut as a finding cuts it: the banner keeps the whole error, once.
      const error = shortenMessage(item.error.message);
      byKey.set(key, { controller: c.name, attempts: item.attempts, error });
    }
  }
  return byKey;
}
