import type { ReportData, ReportFailure, ReportVerdict } from '../../../app/report/report-data.js';
import { shortenMessage } from '../../../loaders/shorten.js';
import { escapeHtml } from './html-escape.js';
import { plural } from '../plural.js';
import { UNRENDERED_NAMES } from '../../../loaders/unrendered-counts.js';
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
