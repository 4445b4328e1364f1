import type { ChalkInstance } from 'chalk';
import { formatFinding } from '../../loaders/finding.js';
import { escapeControl, escapeControlLines } from '../render/escape-control.js';
import { plural } from '../render/plural.js';
import { RepeatedWarnings } from '../render/repeated-warnings.js';
import {
  describeCondition,
  describeStatus,
  describeTrigger,
  failingText,
  roundFacts,
} from './round-text.js';
import type { ChangeMarker, RoundView } from './round-view.js';

/**
 * A round as lines for a log (`cosi watch > log`, `--plain`): one header line, then one line per
 * resource changed this round (`+ VMs.example.org default/web-3`), then the findings and the
 * errors of failing controllers. Nothing is redrawn, so a log stays readable; control characters
 * of ids and messages are written out (`\x1b`), as every human format does.
 */
export function renderRoundLines(round: RoundView, c: ChalkInstance): string {
  const status = describeStatus(round);
  const color =
    round.status === 'converged' ? c.green : round.status === 'not-applied' ? c.yellow : c.red;
  const lines = [
    `${c.bold(`round ${round.number}`)}: ${describeTrigger(round)} | ${color(status)} | ${roundFacts(round)}`,
  ];
  const markerColor: Record<ChangeMarker, ChalkInstance> = {
    '+': c.green,
    '-': c.red,
    '~': c.yellow,
    ' ': c,
  };
  // The first round creates everything: its header counts it, a log need not list it.
  for (const change of round.trigger === 'start' ? [] : changedResources(round)) {
    lines.push(
      markerColor[change.marker](
        escapeControl(`${change.marker} ${change.type} ${change.namespace}/${change.id}`),
      ),
    );
  }
  if (round.lastGoodRunning) {
    lines.push(c.yellow('nothing applied: the last good state keeps running'));
  }
  if (round.queryError !== undefined) lines.push(c.red(escapeControlLines(round.queryError)));
  if (round.status === 'error' && round.reason !== undefined) {
    lines.push(c.red(escapeControlLines(round.reason)));
  }
  const repeated = new RepeatedWarnings();
  for (const finding of round.findings) {
    if (!repeated.take(finding)) continue;
    const text = escapeControlLines(formatFinding(finding));
    lines.push(finding.severity === 'error' ? c.red(text) : c.yellow(text));
  }
  for (const rest of repeated.rest) lines.push(c.yellow(escapeControl(rest)));
  for (const controller of round.controllers) {
    if (controller.errors === 0 && controller.failingItems === 0) continue;
    lines.push(
      c.red(
        escapeControl(
          `${controller.name}: ${describeCondition(controller)}, ${plural(controller.errors, 'error')}${controller.failingItems > 0 ? `, ${failingText(controller)}` : ''}${controller.lastError !== undefined ? `: ${controller.lastError.split('\n', 1)[0] ?? ''}` : ''}`,
        ),
      ),
    );
  }
  return `${lines.join('\n')}\n`;
}

/** A round as one JSON object (`-o json`: one per line, NDJSON). */
export function roundJson(round: RoundView): Record<string, unknown> {
  return {
    round: round.number,
    trigger: round.trigger,
    changed: round.changed,
    ...(round.removed !== undefined ? { removed: round.removed } : {}),
    status: round.status,
    ...(round.reason !== undefined ? { reason: round.reason } : {}),
    counts: round.counts,
    resources: round.resources,
    files: round.files,
    cost: round.cost,
    ...(round.wallTime !== undefined ? { wallTime: Math.round(round.wallTime * 10) / 10 } : {}),
    lastGoodRunning: round.lastGoodRunning,
    ...(round.queryError !== undefined ? { queryError: round.queryError } : {}),
    changes: changedResources(round),
    findings: round.findings,
    controllers: round.controllers,
  };
}

/** The resources a round changed, in the order of the view (by type, namespace, id). */
export function changedResources(round: RoundView): {
  readonly marker: Exclude<ChangeMarker, ' '>;
  readonly type: string;
  readonly namespace: string;
  readonly id: string;
  readonly version: number;
}[] {
  const changes = [];
  for (const group of round.groups) {
    for (const row of group.rows) {
      if (row.marker === ' ') continue;
      const md = row.resource.metadata;
      changes.push({
        marker: row.marker,
        type: group.type,
        namespace: md.namespace,
        id: md.id,
        version: md.version,
      });
    }
  }
  return changes;
}
