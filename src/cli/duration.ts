import { parseDurationText } from '../app/parse-duration.js';
import { CliError } from './exit-codes.js';

/**
 * Parses a duration such as `500ms`, `30s`, `10m`, `1h30m` (a bare number is seconds) into
 * milliseconds, more than 0.
 * @throws CliError (usage) naming the flag.
 */
export function parseDuration(text: string, flag: string): number {
  const ms = parseDurationText(text);
  if (ms === undefined) {
    throw new CliError(
      `${flag}: invalid duration ${JSON.stringify(text)} (expected e.g. 30s, 10m, 1h)`,
    );
  }
  // Every duration flag is a bound or a period: none of nothing.
  if (ms === 0) throw new CliError(`${flag}: must be more than 0 (e.g. 30s, 10m, 1h)`);
  return ms;
}

export { formatDuration } from '../app/format-duration.js';
