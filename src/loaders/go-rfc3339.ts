/**
 * Go's `time.Parse(time.RFC3339, text)`, as the API server decodes a time (`metav1.Time`) and
 * cel-go parses `timestamp(s)`: `T` and `Z` upper case, seconds required, and a day the month does
 * not have, an hour past 23 or a second past 59 an error (JavaScript's dates would roll over).
 */

const RFC3339 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

/** Days in `month` (1-12) of `year`, by the Gregorian calendar. */
function daysIn(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Why `time.Parse(time.RFC3339, text)` refuses `text`, in Go's words; undefined when it takes it. */
export function rfc3339Error(text: string): string | undefined {
  const quoted = JSON.stringify(text);
  const match = RFC3339.exec(text);
  if (match === null) return `parsing time ${quoted}: cannot parse as RFC 3339`;
  const [, year, month, day, hour, minute, second, , , zoneHour, zoneMinute] = match.map(Number);
  if ((month as number) < 1 || (month as number) > 12)
    return `parsing time ${quoted}: month out of range`;
  if ((day as number) < 1 || (day as number) > daysIn(year as number, month as number)) {
    return `parsing time ${quoted}: day out of range`;
  }
  if ((hour as number) > 23) return `parsing time ${quoted}: hour out of range`;
  if ((minute as number) > 59) return `parsing time ${quoted}: minute out of range`;
  if ((second as number) > 59) return `parsing time ${quoted}: second out of range`;
  if (match[8] !== undefined && ((zoneHour as number) > 23 || (zoneMinute as number) > 59)) {
    return `parsing time ${quoted}: time zone offset out of range`;
  }
  return undefined;
}
