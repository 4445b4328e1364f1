import { plural } from '../render/plural.js';
import type { RoundView } from './round-view.js';
import { describeStatus, describeTrigger } from './round-text.js';

/** A piece of the header's first line, with how it is styled. */
export interface HeaderPart {
  readonly text: string;
  readonly style?: 'name' | 'status' | 'paused' | 'running';
}

/** What the header says beside the round: reloading paused, and the files changed meanwhile. */
export interface HeaderState {
  readonly paused: boolean;
  /** Files changed while paused (display paths), run as one round on resume. */
  readonly pending?: readonly string[];
  /**
   * The round under way, and for how many whole seconds it has run: what the screen shows is the
   * round before it, which otherwise looks settled while a slow round (or a controller stuck in a
   * loop) runs.
   */
  readonly running?: RunningRound;
}

/** A round that has started and not ended yet. */
export interface RunningRound {
  readonly number: number;
  readonly seconds: number;
}

/** The fewest characters of the trigger worth showing, cut; below that it goes whole. */
const MIN_TRIGGER = 8;

/**
 * The header's first line, fitted to `width`: `cosi watch  round 2  vms.yaml changed  converged`.
 * What a narrow terminal cuts first is the trigger (the files that changed), then the name; the
 * round, how it ended and whether reloading is paused stay, as k9s keeps its status.
 */
export function headerLine(
  round: Pick<RoundView, 'number' | 'trigger' | 'changed' | 'status' | 'reason'>,
  state: HeaderState,
  width: number,
): HeaderPart[] {
  const name: HeaderPart = { text: 'cosi watch', style: 'name' };
  const number: HeaderPart = { text: `  round ${round.number}` };
  const status: HeaderPart = { text: describeStatus(round), style: 'status' };
  const paused: HeaderPart[] = state.paused
    ? [{ text: ` [${describePaused(state.pending ?? [])}]`, style: 'paused' }]
    : [];
  const running: HeaderPart[] = state.running
    ? [{ text: ` [${describeRunning(state.running)}]`, style: 'running' }]
    : [];
  const trigger = describeTrigger(round);
  const fixed = [name, number, { text: '  ' }, status, ...paused, ...running];
  const room = width - lengthOf(fixed) - 2;
  if (room >= graphemes(trigger).length) {
    return [name, number, { text: `  ${trigger}  ` }, status, ...paused, ...running];
  }
  if (room >= MIN_TRIGGER) {
    return [name, number, { text: `  ${cut(trigger, room)}  ` }, status, ...paused, ...running];
  }
  if (lengthOf(fixed) <= width) return fixed;
  return [{ text: `round ${round.number}  ` }, status, ...paused, ...running];
}

/** `round 5 running 3s`: the round under way, and for how long. */
export function describeRunning(running: RunningRound): string {
  return `round ${running.number} running ${running.seconds}s`;
}

/** `paused`, or `paused: 2 files changed` when changes wait for the resume. */
export function describePaused(pending: readonly string[]): string {
  return pending.length === 0 ? 'paused' : `paused: ${plural(pending.length, 'file')} changed`;
}

function lengthOf(parts: readonly HeaderPart[]): number {
  return parts.reduce((n, part) => n + graphemes(part.text).length, 0);
}

function cut(text: string, width: number): string {
  const chars = graphemes(text);
  return chars.length <= width ? text : `${chars.slice(0, width - 1).join('')}…`;
}

const SEGMENTER = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The characters of a text as a reader counts them (an emoji with its modifiers is one). */
function graphemes(text: string): string[] {
  return Array.from(SEGMENTER.segment(text), (s) => s.segment);
}
