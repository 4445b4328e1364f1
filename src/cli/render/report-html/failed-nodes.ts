import type { ReportData } from '../../../app/report/report-data.js';
import { controllerKey, resourceKey } from '../graph/drawing.js';

/** The SVG class of a graph node that failed: the page's style draws it in the error colour. */
export const FAILED_CLASS = 'failed';

/**
 * The graph nodes to mark as failed, as the drawing's node classes (`DotOptions.classes`): each controller that kept
 * failing, and each resource a queue controller gave up on.
 */
export function failedNodeClasses(data: ReportData): Map<string, string> {
  const classes = new Map<string, string>();
  for (const failure of data.failures ?? []) {
    classes.set(controllerKey(failure.controller), FAILED_CLASS);
  }
  for (const r of data.resources) {
    if (r.failure) classes.set(resourceKey(r), FAILED_CLASS);
  }
  return classes;
}
