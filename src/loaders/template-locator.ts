/**
 * Where the paths of a declarative controller's template are in its document, for `explain`:
 * an RGD's resource templates and status, a transform's output.
 */

import type { LocateTemplate } from '../controllers/template-rendering.js';
import type { DocumentReport } from './document-report.js';
import { formatLocation } from './finding.js';
import { jsonPointer } from './json-pointer.js';

/** Where a path below `at` is in the document: `file:line:col` of it or its nearest parent. */
export function locator(report: DocumentReport, at: readonly (string | number)[]): LocateTemplate {
  return (path) => formatLocation(report.location(jsonPointer([...at, ...path])));
}
