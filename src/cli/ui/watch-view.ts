import type { ChalkInstance } from 'chalk';
import { formatDuration } from '../duration.js';
import { CliError } from '../exit-codes.js';
import type { CliIo } from '../io.js';
import { plural } from '../render/plural.js';
import { renderFindings, renderReport } from '../render/report.js';
import { renderResources } from '../render/resources.js';
import { selectResources, type QueriedState, type ResourceQuery } from '../resource-query.js';
import type { WatchRound } from '../watch/watch-session.js';

/** How rounds are shown. */
export interface WatchViewOptions {
  readonly colors: ChalkInstance;
  /** `-t` / `-n`: which resources the table shows. */
  readonly query: Pick<ResourceQuery, 'type' | 'namespace'>;
  /** Omit wall times, so the output can be diffed. */
  readonly stable?: boolean;
  /** On a terminal: redraw in place and say how to quit. Otherwise one block per round. */
  readonly interactive: boolean;
}

/** Clear the screen and the scrollback, cursor home. */
const CLEAR = '\u001b[H\u001b[2J\u001b[3J';

/**
 * Writes each round to stdout: on a terminal, redraws the screen in place; off a terminal (CI,
 * pipes), appends one block per round, separated by a blank line.
 */
export function createWatchView(
  io: Pick<CliIo, 'stdout'>,
  options: WatchViewOptions,
): { show(round: WatchRound): void } {
  let first = true;
  return {
    show(round) {
      const block = renderWatchRound(round, options);
      io.stdout.write(options.interactive ? CLEAR + block : (first ? '' : '\n') + block);
      first = false;
    },
  };
}

/**
 * One round as text: a header (what changed, what it cost, the convergence summary), the
 * resource table as `cosi apply` prints it, then controller errors and findings.
 */
export function renderWatchRound(round: WatchRound, options: WatchViewOptions): string {
  const c = options.colors;
  const lines: string[] = [c.bold(headline(round, options))];
  const { project, snapshot } = round;
  if (round.error !== undefined) lines.push(c.red(round.error));
  if (!round.applied && project !== undefined) {
    lines.push(c.yellow('nothing applied: the last good state keeps running'));
  }
  let details: string[] = [];
  if (round.report && project && snapshot) {
    const [summary = '', ...rest] = renderReport(
      round.report,
      {
        resources: snapshot.resources.length,
        controllers: project.runtime.controllerNames().length,
        config: round.config,
        ...(options.stable ? {} : { wallTime: round.wallTime }),
      },
      c,
    )
      .trimEnd()
      .split('\n');
    lines.push(summary);
    details = rest;
  }
  if (project && snapshot) {
    lines.push('', table({ project, snapshot }, options).trimEnd());
  }
  if (details.length > 0) lines.push('', ...details);
  const findings = renderFindings(round.findings, c).trimEnd();
  if (findings !== '') lines.push('', findings);
  if (options.interactive) lines.push('', c.dim('watching for changes; press q to quit'));
  return `${lines.join('\n')}\n`;
}

function headline(round: WatchRound, options: WatchViewOptions): string {
  const what =
    round.trigger === 'start'
      ? 'started'
      : `${round.changed.length > 0 ? round.changed.join(', ') : 'files'} changed${round.trigger === 'restart' ? ': restarted on a new state' : ''}`;
  const parts = [`cosi watch: round ${round.number}, ${what}`, plural(round.files.length, 'file')];
  if (round.trigger !== 'start') {
    parts.push(`read ${round.cost.read}, parsed ${round.cost.parsed}`);
  }
  if (round.changes) {
    const { created, updated, tornDown } = round.changes;
    parts.push(`${created.length} created, ${updated.length} updated, ${tornDown.length} removed`);
  }
  if (!options.stable) parts.push(`${formatDuration(round.wallTime)} at ${clockTime()}`);
  return parts.join(' | ');
}

function table(state: QueriedState, options: WatchViewOptions): string {
  try {
    const groups = selectResources(state, options.query);
    return groups.length === 0 ? 'no resources' : renderResources(groups, 'table');
  } catch (error) {
    if (error instanceof CliError) return options.colors.red(error.message);
    throw error;
  }
}

function clockTime(): string {
  return new Date().toTimeString().slice(0, 8);
}
