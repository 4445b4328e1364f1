import { Chalk, type ChalkInstance } from 'chalk';
import { formatPointer, pointerKey } from '../../engine/resource/pointer.js';
import { OSCILLATION_WINDOW, type ConvergenceReport } from '../../engine/runtime/convergence.js';
import { formatFinding, type Finding } from '../../loaders/finding.js';
import { shortenMessage } from '../../loaders/shorten.js';
import { formatDuration } from '../duration.js';
import { formatLocation } from './location.js';
import { escapeControl } from './escape-control.js';
import { plural } from './plural.js';
import { RepeatedWarnings } from './repeated-warnings.js';
import { describeSpreadWrites } from '../../app/spread-writes.js';
import { describeStuck } from '../../app/stuck-controllers.js';

/** A chalk instance that colors only when told to (never from the environment). */
export function createColors(enabled: boolean): ChalkInstance {
  return new Chalk({ level: enabled ? 1 : 0 });
}

/**
 * Findings, one per line, errors in red and warnings in yellow (past ten of one code, the other
 * warnings of it are counted in a line: see `repeated-warnings.ts`); then, unless quiet, a count
 * of them all.
 */
export function renderFindings(
  findings: readonly Finding[],
  c: ChalkInstance,
  options: { readonly quiet?: boolean } = {},
): string {
  if (findings.length === 0) return '';
  // What prints these prints resources with -o json, not findings: check lists them all.
  const repeated = new RepeatedWarnings('cosi check -o json');
  const lines = findings
    .filter((f) => repeated.take(f))
    .map((f) => {
      const text = escapeControl(formatFinding(f));
      return f.severity === 'error' ? c.red(text) : c.yellow(text);
    });
  for (const rest of repeated.rest) lines.push(c.yellow(escapeControl(rest)));
  const errors = findings.filter((f) => f.severity === 'error').length;
  const warnings = findings.length - errors;
  // The count is a summary: `-q` prints the findings alone, as `check -q` does.
  if (options.quiet !== true) {
    lines.push(c.bold(`${plural(errors, 'error')}, ${plural(warnings, 'warning')}`));
  }
  return `${lines.join('\n')}\n`;
}

/** What the summary line counts beside the report. */
export interface RunCounts {
  readonly resources: number;
  readonly controllers: number;
  /** The config the controllers came from, as a display path; `undefined`: none was found. */
  readonly config: string | undefined;
  /**
   * What the walk set aside as not manifests until rendered (`2 Helm charts, 1 kustomization`,
   * see `unrendered-counts.ts`), or `''`.
   */
  readonly setAside?: string;
  /** For each resource that kept changing (by pointer key): the fields its last write changed. */
  readonly lastChanges?: ReadonlyMap<string, readonly string[]>;
  /** Wall-clock milliseconds; omitted with `--stable` so the output can be diffed. */
  readonly wallTime?: number;
  /**
   * The manifest arguments of the run (`-f dir`): each resource that kept changing then names
   * the `cosi explain` command that shows its cycle of writes.
   */
  readonly explainArgs?: string;
}

/**
 * The convergence report for a person: a one-line summary, then each controller's errors, then,
 * when it did not converge, what kept changing and who changed it.
 */
export function renderReport(
  report: ConvergenceReport,
  counts: RunCounts,
  c: ChalkInstance,
): string {
  // Failing controllers are findings (exit 1): the run settled, with them. "Did not converge" is
  // a bound's (exit 3).
  const polled = report.controllers.reduce(
    (n, controller) => n + controller.waitingItems.length,
    0,
  );
  const status = report.converged
    ? c.green('converged') +
      (report.reason === 'steady'
        ? ` (steady: ${plural(polled, 'item')} requeued periodically, changing nothing)`
        : '')
    : report.reason === 'failing'
      ? c.red('settled with failing controllers')
      : c.red(`did not converge (${describeReason(report.reason)})`);
  const parts = [
    status,
    plural(counts.resources, 'resource') +
      (counts.setAside ? ` (set aside, not manifests until rendered: ${counts.setAside})` : ''),
    `${plural(counts.controllers, 'controller')} (${counts.config ?? 'no config found'})`,
    plural(report.reconciles, 'reconcile'),
    plural(report.writes, 'write'),
    `virtual time ${formatDuration(report.elapsed)}`,
  ];
  if (counts.wallTime !== undefined) parts.push(`wall time ${formatDuration(counts.wallTime)}`);
  const lines = [parts.join(', ')];
  for (const controller of report.controllers) {
    if (controller.errors === 0 && controller.failingItems.length === 0) continue;
    const head = escapeControl(
      `${controller.name}: ${plural(controller.errors, 'error')} (${controller.condition})`,
    );
    lines.push(controller.condition === 'failed' ? c.red(head) : c.yellow(head));
    const { lastError } = controller;
    if (lastError !== undefined) {
      // Where in the project's code it was thrown (`controllers.ts:12:5`), when its stack says so.
      const place = lastError.location && formatLocation(lastError.location);
      lines.push(
        `  last error: ${escapeControl(shortenMessage(lastError.message))}${place ? ` (at ${escapeControl(place)})` : ''}`,
      );
    }
    for (const item of controller.failingItems) {
      lines.push(
        escapeControl(
          `  ${formatPointer(item.pointer)}: ${plural(item.attempts, 'attempt')}: ${shortenMessage(item.error.message)}`,
        ),
      );
    }
  }
  const stuck = describeStuck(report);
  if (stuck !== undefined) lines.push(c.red(escapeControl(stuck)));
  if (!report.converged) {
    // What kept the run going without changing anything: items requeued again and again.
    for (const controller of report.controllers) {
      const waiting = controller.waitingItems;
      if (waiting.length === 0) continue;
      const shown = waiting.slice(0, 5).map(formatPointer).join(', ');
      const more = waiting.length > 5 ? `, and ${waiting.length - 5} more` : '';
      lines.push(
        c.yellow(
          escapeControl(
            `${controller.name} kept requeueing ${plural(waiting.length, 'item')} (${plural(controller.reconciles, 'reconcile')}, ${plural(controller.writes, 'write')}): ${shown}${more}`,
          ),
        ),
      );
    }
  }
  const spread = describeSpreadWrites(report);
  if (spread !== undefined) lines.push(c.red(escapeControl(spread)));
  if (report.oscillating.length > 0) {
    const window = Math.min(report.writes, OSCILLATION_WINDOW);
    lines.push(c.red(`kept changing (counted over the last ${plural(window, 'write')}):`));
    for (const o of report.oscillating) {
      const fields = counts.lastChanges?.get(pointerKey(o.pointer));
      lines.push(
        escapeControl(
          `  ${formatPointer(o.pointer)}: ${plural(o.writes, 'write')} by ${o.writers.join(', ')}${fields ? `; the last one changed ${fields.join(', ')}` : ''}`,
        ),
      );
      if (counts.explainArgs !== undefined) {
        lines.push(
          escapeControl(
            `    why: cosi explain ${o.pointer.type}/${o.pointer.id} -n ${o.pointer.namespace} ${counts.explainArgs}`,
          ),
        );
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Why a convergence run ended, in words. */
export function describeReason(reason: ConvergenceReport['reason']): string {
  switch (reason) {
    case 'failing':
      return 'controllers kept failing';
    case 'max-writes':
      return 'write bound hit';
    case 'max-time':
      return 'time bound hit';
    case 'aborted':
      return 'aborted';
    case 'quiescent':
      return 'quiescent';
    case 'steady':
      return 'steady: only periodic requeues that change nothing';
  }
}
