/**
 * Whether a name is a time zone, as Go's `time.LoadLocation` reads it from the IANA database the
 * API server embeds: `UTC`, `Local`, or a zone name with its exact case (`Europe/London`, the
 * legacy `US/Pacific`). Node's ICU holds the same database; it also takes a name in another case,
 * which Go refuses, so a name ICU resolves to the same letters in other cases is refused.
 */

/** `time.LoadLocation`'s error for `name`, or undefined when it loads. */
export function timeZoneError(name: string): string | undefined {
  if (name === '' || name === 'UTC' || name === 'Local') return undefined;
  let resolved: string | undefined;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    resolved = undefined;
  }
  const wrongCase =
    resolved !== undefined && resolved !== name && resolved.toLowerCase() === name.toLowerCase();
  return resolved === undefined || wrongCase ? `unknown time zone ${name}` : undefined;
}
