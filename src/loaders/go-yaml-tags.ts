/**
 * The two YAML 1.1 tags kubectl's reader (go-yaml v2, through sigs.k8s.io/yaml) resolves and YAML
 * 1.2's core schema does not have: `!!binary` (base64, decoded to the string of its bytes) and
 * `!!timestamp` (kept as the text written, when it is a timestamp).
 */

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const lenient = new TextDecoder('utf-8');

/**
 * The value go-yaml gives `!!binary text`: Go's `base64.StdEncoding.DecodeString` of it (line
 * breaks skipped, padding required), as a string of those bytes (JSON then writes a byte that is
 * no UTF-8 as U+FFFD); `undefined` where it is no base64 (go-yaml refuses the file).
 */
export function goYamlBinary(text: string): string | undefined {
  const base64 = text.replace(/[\r\n]/g, '');
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) return undefined;
  return lenient.decode(Buffer.from(base64, 'base64'));
}

/**
 * go-yaml's timestamp forms (`parseTimestamp`, Go's `time.Parse` of `2006-1-2T15:4:5.999999999Z07:00`,
 * the same with `t`, `2006-1-2 15:4:5.999999999` and `2006-1-2`): a four-digit year, one or two
 * digits for each other field, any number of fraction digits, a zone (`Z` or `+hh:mm`) after
 * `T` or `t` and none after a space.
 */
const TIMESTAMP =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(?:Z|[+-]\d\d:\d\d))|(?: (\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?))?$/;

/** Whether `!!timestamp text` is a timestamp as go-yaml reads one, its fields in range. */
export function isGoYamlTimestamp(text: string): boolean {
  const match = TIMESTAMP.exec(text);
  if (match === null) return false;
  const [year, month, day] = [match[1], match[2], match[3]].map(Number) as [number, number, number];
  const hour = Number(match[4] ?? match[7] ?? 0);
  const minute = Number(match[5] ?? match[8] ?? 0);
  const second = Number(match[6] ?? match[9] ?? 0);
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const daysInMonth = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return (
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth &&
    hour < 24 &&
    minute < 60 &&
    second < 60
  );
}
