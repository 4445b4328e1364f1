const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Milliseconds of a duration such as `500ms`, `30s`, `10m`, `1h30m` (a bare number is seconds);
 * `undefined` when the text is not one. What `--timeout` and a test scenario's `advance` read.
 */
export function parseDurationText(text: string): number | undefined {
  const trimmed = text.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const parts = [...trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  const consumed = parts.map((p) => p[0]).join('');
  if (parts.length === 0 || consumed !== trimmed) return undefined;
  return Math.round(
    parts.reduce((total, p) => total + Number(p[1]) * (UNITS[p[2] as string] as number), 0),
  );
}
