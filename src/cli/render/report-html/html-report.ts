import type { ReportData } from '../../../app/report/report-data.js';
import type { ReportTimeline } from '../../../app/report/report-timeline.js';
import { encodeReportData } from './embedded-data.js';
import { escapeHtml } from './html-escape.js';
import { shortenMessage } from '../../../loaders/shorten.js';
import { REPORT_SCRIPT } from './report-script.js';
import { renderFindings } from './report-findings.js';
import { renderVerdict } from './report-static.js';
import { REPORT_STYLE } from './report-style.js';

/** The graph as inline SVG: Graphviz's document without its XML prolog, doctype and comments. */
export function inlineSvg(svg: string): string {
  const start = svg.indexOf('<svg');
  return start < 0 ? '' : svg.slice(start).replace(/<!--[\s\S]*?-->/g, '');
}

/**
 * The whole report as one HTML file: styles, data and script inline, nothing fetched when it is
 * opened. The verdict, findings and graph are plain HTML and SVG; the resource table, details,
 * lineage and timeline are drawn by the script from the embedded data.
 */
export function renderHtmlReport(data: ReportData, graphSvg: string, graphNote?: string): string {
  const title = `cosi report: ${data.title}`;
  const empty = data.graph.controllers.length === 0 && data.resources.length === 0;
  const graph = empty ? '' : inlineSvg(graphSvg);
  const noGraph =
    graphNote === undefined
      ? '<p>No graph: no controller was registered and no resource made.</p>'
      : '';
  const findingsCount = data.findings.length + data.moreFindings;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>${REPORT_STYLE}</style>
</head>
<body>
<header>
<h1>${escapeHtml(title)}</h1>
${renderVerdict(data)}
${renderContents(data, findingsCount)}
</header>
<main>
<section aria-labelledby="findings-title">
<h2 id="findings-title">Findings (${findingsCount})</h2>
${renderFindings(data)}
</section>
<section aria-labelledby="graph-title">
<h2 id="graph-title">Dependency graph</h2>
<a class="skip" href="#resources-title">Skip the graph's nodes, to the resources</a>
${data.notRun === undefined ? '' : `<p id="not-run" class="note">${escapeHtml(data.notRun)}</p>`}
${graphNote === undefined ? '' : `<p id="graph-note" class="note">${escapeHtml(graphNote)}</p>`}
${graph === '' ? noGraph : graphFrame(graph)}
</section>
<div class="layout">
<section aria-labelledby="resources-title">
<h2 id="resources-title">Resources (${data.resources.length})</h2>
<noscript><p>The resource table needs JavaScript.</p></noscript>
<div id="resources-ui" hidden>
<div class="toolbar">
<label for="search">Search</label>
<input id="search" type="search" placeholder="type, namespace, id or controller">
<span id="shown" aria-live="polite"></span>
</div>
<div class="scroll" id="resource-scroll" tabindex="0" role="region" aria-label="resources">
<table class="virtual">
<colgroup><col style="width:14%"><col style="width:32%"><col style="width:22%"><col style="width:10%"><col style="width:22%"></colgroup>
<thead><tr><th scope="col">Namespace</th><th scope="col">Type</th><th scope="col">ID</th><th scope="col">Version</th><th scope="col">Written by</th></tr></thead>
<tbody id="resource-rows"></tbody>
</table>
</div>
</div>
</section>
<section aria-labelledby="details-heading">
<h2 id="details-heading">Details</h2>
<div id="details" aria-live="polite"><p>Click a graph node or a resource.</p></div>
</section>
</div>
${data.timeline ? renderTimelineFrame(data.timeline) : ''}
</main>
<script type="application/octet-stream" id="report-data">${encodeReportData(embeddedData(data))}</script>
<script>${REPORT_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * The timeline's heading counts reconciles as the summary does, and the mappings of changed
 * inputs to items (a queue controller's `mapInput`) apart: they are rows too, not reconciles.
 */
function renderTimelineFrame(timeline: ReportTimeline): string {
  const { reconciles, mappings, dropped } = timeline;
  const count = timeline.entries.length;
  const note = dropped > 0 ? ` (the last ${count}; ${dropped} earlier not kept)` : '';
  const mapped = mappings > 0 ? `, ${plural(mappings, 'mapping')}` : '';
  // Nothing ran (no controller, or none had an item): a sentence, not an empty table's frame.
  if (count === 0 && dropped === 0) {
    return `<section aria-labelledby="timeline-title">
<h2 id="timeline-title">Run timeline: ${plural(reconciles, 'reconcile')}${mapped}</h2>
<p id="timeline-empty">No controller reconciled anything in this run.</p>
</section>`;
  }
  return `<section aria-labelledby="timeline-title">
<h2 id="timeline-title">Run timeline: ${plural(reconciles, 'reconcile')}${mapped}${note}</h2>
<noscript><p>The timeline needs JavaScript.</p></noscript>
<div id="timeline-ui" hidden>
<div class="scroll" id="timeline-scroll" tabindex="0" role="region" aria-label="timeline">
<table class="virtual">
<colgroup><col style="width:5%"><col style="width:10%"><col style="width:17%"><col style="width:25%"><col style="width:37%"><col style="width:6%"></colgroup>
<thead><tr><th scope="col">#</th><th scope="col">Virtual time</th><th scope="col">Controller</th><th scope="col">Item</th><th scope="col">Outcome</th><th scope="col">Writes</th></tr></thead>
<tbody id="timeline-rows"></tbody>
</table>
</div>
</div>
</section>`;
}

/**
 * Links to the page's parts, under the verdict: a repository's hundreds of findings (argo-cd's
 * manifests: 563, each with its source lines) put the graph and the resources 140 screens down.
 */
function renderContents(data: ReportData, findings: number): string {
  const parts = [
    ['findings-title', `Findings (${findings})`],
    ['graph-title', 'Dependency graph'],
    ['resources-title', `Resources (${data.resources.length})`],
    ...(data.timeline ? [['timeline-title', 'Run timeline']] : []),
  ];
  const links = parts.map(([id = '', text = '']) => `<li><a href="#${id}">${text}</a></li>`);
  return `<nav class="contents" aria-label="contents"><ul>${links.join('')}</ul></nav>`;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function graphFrame(svg: string): string {
  return `<div class="toolbar" id="graph-tools" hidden>
<button type="button" id="zoom-in">Zoom in</button>
<button type="button" id="zoom-out">Zoom out</button>
<button type="button" id="zoom-reset">Reset</button>
<span>Drag to pan, Ctrl+wheel or pinch to zoom, click a node to see it (on the focused graph: arrows pan, + and - zoom, 0 resets).</span>
<span id="graph-part" class="note" hidden>Showing the top of the graph at a size that reads; Reset shows all of it.</span>
</div>
<div id="graph-view" tabindex="0" role="group" aria-label="dependency graph">
${svg}
</div>`;
}

/**
 * The data the page's script reads, with each failure's error cut as the banner shows it: the
 * banner's folded `<details>` holds the whole error, once.
 */
function embeddedData(data: ReportData): ReportData {
  if (!data.failures) return data;
  const failures = data.failures.map((f) => ({ ...f, error: shortenMessage(f.error) }));
  return { ...data, failures };
}
