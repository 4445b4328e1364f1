import type { ReconcileFailure } from '../../../app/explain/reconcile-failures.js';
import type { ResourceStatus } from '../../../app/explain/resource-status.js';

/** Sequence numbers told in full; more are shortened to the first ones, `…` and the last. */
const SEQS_SHOWN = 4;

/**
 * A resource's `status.state` and its conditions as `kubectl describe` lists them (type, status,
 * reason, message), under a `status` heading.
 */
export function statusLines(status: ResourceStatus): string[] {
  const lines = ['status'];
  if (status.state !== undefined) lines.push(`  state: ${status.state}`);
  if (status.conditions.length === 0) return lines;
  const rows = [
    ['TYPE', 'STATUS', 'REASON', 'MESSAGE'],
    ...status.conditions.map((c) => [c.type, c.status, c.reason ?? '', c.message ?? '']),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...rows.map((row) => (row[i] ?? '').length)));
  for (const row of rows) {
    const cells = row.map((cell, i) => (i < 3 ? cell.padEnd(widths[i] ?? 0) : cell));
    lines.push(`  ${cells.join('  ').trimEnd()}`);
  }
  return lines;
}

/**
 * Each controller whose reconciles of the resource failed: how many of how many, which, whether
 * it gave up or has since succeeded, and the last error.
 */
export function failureLines(failures: readonly ReconcileFailure[]): string[] {
  return [
    'reconciles of it that failed',
    ...failures.map((f) => {
      const how = f.recovered
        ? ', then succeeded'
        : f.gaveUp
          ? ', given up'
          : f.terminal
            ? ' (terminal, not retried)'
            : '';
      const last = f.recovered ? 'last error' : 'error';
      return `  ${f.controller}: ${f.failed} of ${f.attempts} failed${how} (${seqsText(f.reconciles)}): ${last}: ${f.message}`;
    }),
  ];
}

function seqsText(seqs: readonly number[]): string {
  const text = (list: readonly number[]): string => list.map((s) => `#${s}`).join(', ');
  if (seqs.length <= SEQS_SHOWN) return text(seqs);
  return `${text(seqs.slice(0, SEQS_SHOWN - 1))}, … #${seqs.at(-1)}`;
}
