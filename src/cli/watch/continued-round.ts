import type { RoundStart } from '../../app/watch-session.js';

/**
 * `watch` started again in a new worker after a fault stopped the one before: the rounds shown
 * until then, and the files whose change started it again (display paths).
 */
export interface WatchContinuation {
  readonly roundsBefore: number;
  readonly changed: readonly string[];
}

/**
 * A worker's round as `watch` numbers it after a fault stopped the worker before it: after the
 * rounds shown until then (a new worker counts from 1 again). Its first round ran on a fresh
 * state after a change of the files: a restart by those files, not a start.
 */
export function continuedRound<R extends RoundStart>(
  round: R,
  continuation: WatchContinuation | undefined,
): R {
  if (continuation === undefined) return round;
  return {
    ...round,
    number: round.number + continuation.roundsBefore,
    ...(round.trigger === 'start' ? { trigger: 'restart', changed: continuation.changed } : {}),
  };
}
