import { formatDuration } from '../app/format-duration.js';
import { parseDurationText } from '../app/parse-duration.js';
import { CliError } from './exit-codes.js';

/**
 * The longest a flag that is a wait on the real clock may ask for (`--request-timeout`,
 * `--connect-timeout`, `--lease-ttl`): a day. Node's timers hold at most 2^31-1 ms (24.8 days);
 * past that one fires after 1 ms, with a `TimeoutOverflowWarning` each time: a lease renewed
 * every millisecond, a request that times out at once.
 */
export const MAX_WAIT_MS = 24 * 60 * 60 * 1000;

/**
 * Parses a duration such as `500ms`, `30s`, `10m`, `1h30m` (a bare number is seconds) into
 * milliseconds, more than 0 (and at most `max` when it is given).
 * @throws CliError (usage) naming the flag.
 */
export function parseDuration(text: string, flag: string, max?: number): number {
  const ms = parseDurationText(text);
  if (ms === undefined) {
    throw new CliError(
      `${flag}: invalid duration ${JSON.stringify(text)} (expected e.g. 30s, 10m, 1h)`,
    );
  }
  // Every duration flag is a bound or a period: none of nothing.
  if (ms === 0) throw new CliError(`${flag}: must be more than 0 (e.g. 30s, 10m, 1h)`);
  if (max !== undefined && ms > max) {
    throw new CliError(`${flag}: at most ${formatDuration(max)}, got ${JSON.stringify(text)}`);
  }
  return ms;
}

export { formatDuration };
