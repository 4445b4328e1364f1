const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** One term, a number and its unit, read where the last one ended. */
const TERM = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;

/**
 * Milliseconds of a duration such as `500ms`, `30s`, `10m`, `1h30m` (a bare number is seconds);
 * `undefined` when the text is not one. What `--timeout` and a test scenario's `advance` read.
 */
export function parseDurationText(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  // Term after term, each where the one before ended (a search of the whole text for each term
  // took time quadratic in a long run of digits that ends in no unit).
  const parts: RegExpExecArray[] = [];
  let end = 0;
  TERM.lastIndex = 0;
  for (let part = TERM.exec(trimmed); part !== null; part = TERM.exec(trimmed)) {
    parts.push(part);
    end = TERM.lastIndex;
  }
  if (parts.length === 0 || end !== trimmed.length) return undefined;
  return Math.round(
    parts.reduce((total, p) => total + Number(p[1]) * (UNITS[p[2] as string] as number), 0),
  );
}
