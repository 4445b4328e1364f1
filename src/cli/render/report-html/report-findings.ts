import type { ReportData, ReportFinding, ReportResource } from '../../../app/report/report-data.js';
import { formatLocation } from '../../../loaders/finding.js';
import { escapeHtml } from './html-escape.js';

/** A code with more findings than this is folded, its count in view (argo-cd: 536 duplicates). */
export const OPEN_GROUP_LIMIT = 10;

/** The findings of one code, by their numbers on the page (from 1). */
interface FindingGroup {
  readonly code: string;
  /** Its first finding's number: groups keep the check's order. */
  readonly first: number;
  readonly numbers: number[];
  failures: number;
  errors: number;
}

/**
 * Every finding with its place and a few lines of its source, as HTML that needs no script,
 * grouped by code: a group says how many, which severity, and is folded past a few (a page of
 * 536 duplicates and one schema violation shows both on its first screen). Groups that fail the
 * check come first, then in the order of their first finding: the same data gives the same page.
 * A finding keeps its number (`finding-N`, its place in the check's order) whichever group it
 * is in. The toolbar (severity, text, fold all) is shown by the script.
 */
export function renderFindings(data: ReportData): string {
  if (data.findings.length === 0) return '<p>No findings.</p>';
  const byCode = new Map<string, FindingGroup>();
  data.findings.forEach((f, index) => {
    let group = byCode.get(f.code);
    if (!group)
      byCode.set(
        f.code,
        (group = { code: f.code, first: index + 1, numbers: [], failures: 0, errors: 0 }),
      );
    group.numbers.push(index + 1);
    if (f.failure) group.failures++;
    if (f.severity === 'error') group.errors++;
  });
  // Those that fail the check first, each in the order of its first finding (the check's).
  const groups = [...byCode.values()].sort(
    (a, b) => Number(b.failures > 0) - Number(a.failures > 0) || a.first - b.first,
  );
  const resources = new Map(data.resources.map((r) => [r.key, r]));
  const only = groups.length === 1;
  const rendered = groups.map((g) => renderGroup(g, data.findings, resources, only));
  const more =
    data.moreFindings > 0 ? `<p>and ${data.moreFindings} more findings (not shown)</p>` : '';
  return [toolbar(data.findings), '<div id="finding-groups">', ...rendered, '</div>', more].join(
    '\n',
  );
}

/** The filters, hidden until the script that applies them runs. */
function toolbar(findings: readonly ReportFinding[]): string {
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  return `<div class="toolbar" id="findings-tools" hidden>
<label for="finding-severity">Severity</label>
<select id="finding-severity"><option value="">all (${findings.length})</option><option value="error">errors (${errors})</option><option value="warning">warnings (${warnings})</option></select>
<label for="finding-search">Filter</label>
<input id="finding-search" type="search" placeholder="code, file, resource or message">
<button type="button" id="findings-open">Expand all</button>
<button type="button" id="findings-close">Collapse all</button>
<span id="findings-shown" aria-live="polite"></span>
</div>`;
}

function renderGroup(
  group: FindingGroup,
  findings: readonly ReportFinding[],
  resources: ReadonlyMap<string, ReportResource>,
  only: boolean,
): string {
  const count = group.numbers.length;
  const warnings = count - group.errors;
  // A code has one severity (`error`); a group of both (none yet) counts each.
  const severities =
    warnings === 0 || group.errors === 0
      ? [
          `<span class="severity ${warnings === 0 ? 'error' : 'warning'}">${warnings === 0 ? 'error' : 'warning'}</span>`,
        ]
      : [
          `<span class="severity error">${plural(group.errors, 'error')}</span>`,
          `<span class="severity warning">${plural(warnings, 'warning')}</span>`,
        ];
  const open = only || count <= OPEN_GROUP_LIMIT ? ' open' : '';
  const items = group.numbers.map((n) =>
    renderFinding(findings[n - 1] as ReportFinding, n, resources),
  );
  return [
    `<details class="finding-group" data-code="${escapeHtml(group.code)}"${open}>`,
    `<summary><span class="group-count" data-count="${count}">${count}</span> &times; ` +
      `<code>${escapeHtml(group.code)}</code> ${severities.join(', ')}</summary>`,
    '<ol class="findings">',
    ...items,
    '</ol>',
    '</details>',
  ].join('\n');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * A finding, its list item's id `finding-N` and its number N (its place among the findings,
 * from 1): a link such as `report.html#finding-3`, in a review comment or a CI summary, opens the
 * page at it. Its place is `file:line:col`, or the file when no line is known (the script adds a button copying it), and a finding
 * about a resource the table lists links to it: the script shows it in the details, the table
 * and the graph.
 */
function renderFinding(
  f: ReportFinding,
  n: number,
  resources: ReadonlyMap<string, ReportResource>,
): string {
  // A finding about a whole file (a config's, line 0) names the file, as check's text does: not `file:0:0`.
  const place = f.file === '' ? '' : formatLocation(f);
  const pointer =
    f.pointer === '' ? '' : ` <span class="pointer">(at ${escapeHtml(f.pointer)})</span>`;
  const r = f.resource === undefined ? undefined : resources.get(f.resource);
  const about = r
    ? ` <a class="resource-link" href="#resources-title" data-key="${escapeHtml(r.key)}">` +
      `${escapeHtml(`${r.type} ${r.clusterScoped ? r.id : `${r.namespace}/${r.id}`}`)}</a>`
    : '';
  const lines = [
    `<li class="finding ${f.failure ? 'failure' : 'note'}" id="finding-${n}" value="${n}" data-severity="${f.severity}">`,
    `<p class="heading"><span class="severity ${f.severity}">${f.severity}</span> <code>${escapeHtml(f.code)}</code> ` +
      `<span class="place${place ? ' file' : ''}">${escapeHtml(place || f.name)}</span>${pointer}${about}</p>`,
    `<p class="message">${escapeHtml(f.message)}</p>`,
  ];
  const excerpt = f.excerpt;
  if (excerpt) {
    const rows = excerpt.lines.map((text, i) => {
      const line = excerpt.first + i;
      const row = `<span class="ln">${line}</span>${escapeHtml(text)}`;
      return line === f.line ? `<mark>${row}</mark>` : row;
    });
    // Focusable, so that a keyboard can scroll a long line to its marked part (WCAG 2.1.1).
    lines.push(
      `<pre class="excerpt" tabindex="0" aria-label="${escapeHtml(place)}">${rows.join('\n')}</pre>`,
    );
  }
  if (f.diff !== undefined) lines.push(`<pre class="diff" tabindex="0">${diffHtml(f.diff)}</pre>`);
  lines.push('</li>');
  return lines.join('\n');
}

/**
 * A golden file's diff with its removed and added lines marked (`del` / `ins`, coloured by the
 * stylesheet and read as such by assistive technology), as `check`'s text colours them: the
 * one changed field stands out. The `---` / `+++` headers stay plain.
 */
function diffHtml(diff: string): string {
  return diff
    .split('\n')
    .map((line) => {
      const text = escapeHtml(line);
      if (line.startsWith('+') && !line.startsWith('+++')) return `<ins>${text}</ins>`;
      if (line.startsWith('-') && !line.startsWith('---')) return `<del>${text}</del>`;
      return text;
    })
    .join('\n');
}
