import type {
  ReportData,
  ReportFailure,
  ReportFinding,
  ReportVerdict,
} from '../../../app/report/report-data.js';
import { shortenMessage } from '../../../loaders/shorten.js';
import { escapeHtml } from './html-escape.js';
import { plural } from '../plural.js';
import { UNRENDERED_NAMES } from '../../../loaders/unrendered-sources.js';
import { listedUnrendered } from '../check/check-text.js';

const VERDICTS: Record<ReportVerdict, string> = {
  passed: 'Passed',
  failed: 'Failed',
  'not-converged': 'Did not converge',
  'not-run': 'Could not run',
};

/** The verdict and the summary, as HTML that needs no script. */
export function renderVerdict(data: ReportData): string {
  const { summary } = data;
  // The lines `cosi check` prints, the total first: the verdict's count.
  const { text } = summary;
  const items = [...text.notes, text.total, ...text.lines];
  const unrendered = summary.unrendered ?? [];
  if (unrendered.length > 0) {
    const SHOWN = 10;
    const named = unrendered
      .slice(0, SHOWN)
      .map((u) => `${u.path} (${UNRENDERED_NAMES[u.kind][0]})`);
    const more = unrendered.length > SHOWN ? `, and ${unrendered.length - SHOWN} more` : '';
    items.push(`set aside, not manifests until rendered: ${named.join(', ')}${more}`);
    // How to check what a chart or a kustomization renders, as `cosi check`'s notes say it.
    for (const u of listedUnrendered(unrendered).slice(0, SHOWN)) {
      items.push(`${u.path}: ${u.message}`);
    }
  }
  const c = summary.convergence;
  if (c) {
    // Counted as the lines above count ("1,724 passed"): "1,741 reconciles", not "1741".
    const n = (count: number): string => count.toLocaleString('en-US');
    items.push(
      `${convergenceText(c)}: ${n(c.rounds)} ${c.rounds === 1 ? 'round' : 'rounds'}, ` +
        `${n(c.reconciles)} reconciles, ${n(c.writes)} writes, ${n(c.errors)} errors, virtual time ${n(c.elapsed)} ms`,
    );
  }
  return [
    `<p id="verdict" class="verdict ${data.verdict}">${VERDICTS[data.verdict]}</p>`,
    ...renderFailures(data.failures ?? []),
    '<ul class="summary">',
    ...items.map((i) => `<li>${escapeHtml(i)}</li>`),
    '</ul>',
  ].join('\n');
}

/** The failures named under the verdict, at most this many; the rest are counted. */
const SHOWN_FAILURES = 10;

/** What failed, right under the verdict: each controller and the resource it gave up on. */
function renderFailures(failures: readonly ReportFailure[]): string[] {
  if (failures.length === 0) return [];
  const shown = failures.slice(0, SHOWN_FAILURES).map((f) => {
    const on =
      f.item === undefined
        ? ' failed'
        : ` gave up on <span class="failed-item">${escapeHtml(f.item)}</span> after ${plural(f.attempts ?? 0, 'attempt')}`;
    const error = shortenMessage(f.error);
    // A long error (a 1 MB value quoted) is cut as check cuts it; the whole of it once, folded.
    const whole =
      error === f.error
        ? ''
        : `<details><summary>The whole error (${f.error.length.toLocaleString('en-US')} characters)</summary>` +
          `<pre class="whole-error" tabindex="0">${escapeHtml(f.error)}</pre></details>`;
    return `<li><strong>${escapeHtml(f.controller)}</strong>${on}: ${escapeHtml(error)}${whole}</li>`;
  });
  const more = failures.length - shown.length;
  if (more > 0) shown.push(`<li>and ${more} more</li>`);
  return ['<ul id="failures" class="failures" aria-label="what failed">', ...shown, '</ul>'];
}

/** How the run ended, in `cosi check`'s words: failing controllers settled, but failed. */
function convergenceText(c: { readonly converged: boolean; readonly reason: string }): string {
  if (c.converged) return 'converged';
  return c.reason === 'failing'
    ? 'settled with failing controllers'
    : `not converged (${c.reason})`;
}

/** Every finding with its place and a few lines of its source, as HTML that needs no script. */
export function renderFindings(data: ReportData): string {
  if (data.findings.length === 0) return '<p>No findings.</p>';
  const more =
    data.moreFindings > 0 ? `<p>and ${data.moreFindings} more findings (not shown)</p>` : '';
  return `<ol class="findings">\n${data.findings.map(renderFinding).join('\n')}\n</ol>${more}`;
}

/**
 * A finding, its list item's id `finding-N` (its number on the page, from 1): a link such as
 * `report.html#finding-3`, in a review comment or a CI summary, opens the page at it.
 */
function renderFinding(f: ReportFinding, index: number): string {
  const place = f.file === '' ? '' : `${f.file}:${f.line}:${f.col}`;
  const pointer =
    f.pointer === '' ? '' : ` <span class="pointer">(at ${escapeHtml(f.pointer)})</span>`;
  const lines = [
    `<li class="finding ${f.failure ? 'failure' : 'note'}" id="finding-${index + 1}">`,
    `<p><span class="severity ${f.severity}">${f.severity}</span> <code>${escapeHtml(f.code)}</code> ` +
      `<span class="place">${escapeHtml(place || f.name)}</span>${pointer}</p>`,
    `<p class="message">${escapeHtml(f.message)}</p>`,
  ];
  const excerpt = f.excerpt;
  if (excerpt) {
    const rows = excerpt.lines.map((text, i) => {
      const n = excerpt.first + i;
      const row = `<span class="ln">${n}</span>${escapeHtml(text)}`;
      return n === f.line ? `<mark>${row}</mark>` : row;
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
