import * as path from 'node:path';
import type { ReportData } from '../app/report/report-data.js';
import { writeOutputFile } from './output-file.js';
import { renderGraphSvg } from './render/graph/svg.js';
import { renderHtmlReport } from './render/report-html/html-report.js';
import { reportGraph } from './render/report-html/report-graph.js';
import { failedNodeClasses } from './render/report-html/failed-nodes.js';

/** The report as one HTML page, its graph laid out by the WebAssembly Graphviz. */
export async function renderReportHtml(data: ReportData): Promise<string> {
  const { view, note } = reportGraph(data);
  const svg = view
    ? await renderGraphSvg(view, { classes: failedNodeClasses(data), keyIds: true })
    : '';
  return renderHtmlReport(data, svg, note);
}

/**
 * Writes the HTML report at `file` (relative to `cwd`), atomically; a file that cannot be
 * written is a usage error naming it.
 */
export async function writeReportFile(
  file: string,
  data: ReportData,
  options: { readonly cwd: string },
): Promise<void> {
  await writeOutputFile(path.resolve(options.cwd, file), await renderReportHtml(data), file);
}
