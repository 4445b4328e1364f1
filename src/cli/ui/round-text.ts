import { formatDuration } from '../duration.js';
import { escapeControl } from '../render/escape-control.js';
import { plural } from '../render/plural.js';
import type { ControllerRow, RoundView } from './round-view.js';

// The words of the watch view, shared by the screen and the line stream (which must not load ink).

/** The most changed files a trigger names; more are counted (`5 files changed`). */
const MAX_FILES_NAMED = 3;

/**
 * What started the round, in words: the files changed and those removed (`vms.yaml changed,
 * old.yaml removed`). A restart that did not happen (the config stopped loading, the manifests
 * are invalid: the last good project keeps running) says only what changed.
 */
export function describeTrigger(
  round: Pick<RoundView, 'trigger' | 'changed' | 'removed'> & Partial<Pick<RoundView, 'status'>>,
): string {
  if (round.trigger === 'start') return 'started';
  if (round.trigger === 'rerun') return 're-run from a fresh state';
  const removed = new Set(round.removed ?? []);
  const kept = round.changed.filter((file) => !removed.has(file));
  const gone = round.changed.filter((file) => removed.has(file));
  const files =
    round.changed.length === 0
      ? 'files changed'
      : round.changed.length > MAX_FILES_NAMED
        ? `${plural(round.changed.length, 'file')} ${kept.length === 0 ? 'removed' : 'changed'}`
        : [
            ...(kept.length > 0 ? [`${kept.join(', ')} changed`] : []),
            ...(gone.length > 0 ? [`${gone.join(', ')} removed`] : []),
          ].join(', ');
  const restarted =
    round.trigger === 'restart' && round.status !== 'error' && round.status !== 'not-applied';
  return restarted ? `${files}: restarted on a fresh state` : files;
}

/** How the round ended, in words. */
export function describeStatus(round: Pick<RoundView, 'status' | 'reason'>): string {
  switch (round.status) {
    case 'converged':
      return 'converged';
    case 'not-converged':
      return `not converged (${round.reason ?? 'unknown'})`;
    case 'failing':
      return `failing${round.reason !== undefined ? ` (${round.reason})` : ''}`;
    case 'not-applied':
      return 'not applied';
    case 'error':
      return 'error';
  }
}

/** The counts and costs of a round, one line. */
export function roundFacts(round: RoundView): string {
  const { created, updated, destroyed } = round.counts;
  const parts = [
    `${created} created, ${updated} updated, ${destroyed} destroyed`,
    plural(round.resources, 'resource'),
    plural(round.files, 'file'),
  ];
  if (round.trigger !== 'start') parts.push(`read ${round.cost.read}, parsed ${round.cost.parsed}`);
  if (round.wallTime !== undefined) parts.push(formatDuration(round.wallTime));
  return parts.join(' | ');
}

/**
 * A controller's condition as the panel names it: `failed` is a controller given up; a backoff
 * says when the next attempt is due (`backoff, retry in 1.5s`).
 */
export function describeCondition(c: Pick<ControllerRow, 'condition' | 'retryIn'>): string {
  if (c.condition === 'failed') return 'given up';
  if (c.condition === 'backoff' && c.retryIn !== undefined)
    return `backoff, retry in ${formatDuration(c.retryIn)}`;
  return c.condition;
}

/** `1 item failing: VMs.example.org(default/boom)`, `3 items failing: A(x), B(y) and 1 more`. */
export function failingText(c: Pick<ControllerRow, 'failingItems' | 'failing'>): string {
  const named = (c.failing ?? []).slice(0, 2).map((item) => escapeControl(item.resource));
  const more = c.failingItems - named.length;
  const list =
    named.length === 0 ? '' : `: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}`;
  return `${plural(c.failingItems, 'item')} failing${list}`;
}
