/**
 * Bounds on what a message quotes of the input. A finding stays one readable line however long
 * the value written (a 1 MB string, a 10,000-character key, a 300-digit number): values are cut
 * where they are quoted, and once more where findings are made and shown ({@link shortenValues}),
 * for the quotes no one shortened (a thrown error's): the message's own words are never cut.
 */

/**
 * The longest text quoted whole from elsewhere (the `yaml` package's error message, a thrown
 * error's), in UTF-16 code units.
 */
export const MAX_MESSAGE_LENGTH = 240;

/**
 * The longest a finding's message gets, its values shortened: a bound for a message made of
 * many short words no one shortened, far above what any message of cosi's own says.
 */
export const MAX_FINDING_MESSAGE_LENGTH = 1000;

/** A value longer than this, quoted or written as one unbroken word, is cut by {@link shortenValues}. */
const MAX_VALUE_LENGTH = 80;

/** A JSON-style quoted string, or a word of more than {@link MAX_VALUE_LENGTH} characters. */
const VALUE = /"(?:[^"\\\n]|\\.)*"|[^\s"]{81,}/g;

/**
 * A file's path (and place: `a/b.yaml:3:9`) as a message names it: kept whole up to
 * {@link MAX_PATH_LENGTH}, since a cut path names no file (eight files of one directory can
 * share their first 80 characters) and a cut command cannot be pasted.
 */
const PATH_LIKE = /^[\w.\-@+~=,:]*[/\\][\w.\-@+~=,:/\\]*[),.;]*$/;
/**
 * A schema's or a validator's own text as a message quotes it, in single quotes (a CRD's
 * `pattern`: `should match '^(System|...)$'`; input is quoted in double quotes): kept whole as a
 * path is, since a cut pattern cannot be checked against.
 */
const SCHEMA_TEXT = /^'[^']*'[),.;]*$/;
/** A resource as a message names it, `Type(namespace/id)`: kept whole as a path is. */
const RESOURCE_NAME = /^[\w.-]+\([\w.\-/:]+\)[),.;]*$/;
const MAX_PATH_LENGTH = 1024;

/** How {@link shorten} ends a value it cut, quoted: such a value is not cut again. */
const SHORTENED = /\.\.\. \(\d+ characters\)"$/;

/**
 * The longest segment (key) inside a shown JSON pointer: a field name of a real schema is shown
 * whole (openshift/api's longest, `prometheusOperatorAdmissionWebhookConfig`, is 40), so that its
 * pointer still points into the document; a longer key is cut.
 */
const MAX_SEGMENT_LENGTH = 60;

/** How much of a bounded message's end is kept: it often says what to do. */
const KEPT_TAIL = 60;

/**
 * A value for a message: long ones are cut, so that a finding stays one readable line however
 * long the value written (a 1 MB string, a 300-digit number).
 *
 * @example
 * shorten('x'.repeat(100)) // 'xxx…x... (100 characters)'
 */
export function shorten(text: string, max = 60): string {
  return text.length <= max ? text : `${head(text, max)}... (${text.length} characters)`;
}

/**
 * A whole message, at most {@link MAX_MESSAGE_LENGTH} long: a longer one keeps its start and its
 * end (where the advice usually is) and says how much of the middle was cut.
 *
 * @example
 * shortenMessage(`Unresolved tag: !${'x'.repeat(10_000)}`) // 'Unresolved tag: !xxx… [9850 characters cut] …xxx'
 */
export function shortenMessage(message: string, max = MAX_MESSAGE_LENGTH): string {
  if (message.length <= max) return message;
  const tailLength = Math.min(KEPT_TAIL, Math.floor(max / 4));
  // The marker's own length depends on the count; 32 covers any count a string can have.
  const start = head(message, max - tailLength - 32);
  const end = tail(message, tailLength);
  return `${start} [${message.length - start.length - end.length} characters cut] ${end}`;
}

/**
 * A message with every long value in it cut as {@link shorten} cuts it, and nothing else: a
 * quoted string (`"..."`) or an unbroken word longer than 80 characters is a value, quoted from
 * the input or an error; the message's own words stay whole, and so do the paths it names and
 * the schema's text it quotes in single quotes.
 *
 * @example
 * shortenValues(`unknown field "${'k'.repeat(500)}" in spec`)
 * // 'unknown field "kkk…k... (500 characters)" in spec'
 */
export function shortenValues(message: string): string {
  if (message.length <= MAX_VALUE_LENGTH) return message;
  return message.replace(VALUE, (value) => {
    if (value.length <= MAX_VALUE_LENGTH) return value;
    if (
      value.length <= MAX_PATH_LENGTH &&
      (PATH_LIKE.test(value) || RESOURCE_NAME.test(value) || SCHEMA_TEXT.test(value))
    ) {
      return value;
    }
    if (!value.startsWith('"')) return shorten(value);
    if (SHORTENED.test(value)) return value;
    try {
      return JSON.stringify(shorten(JSON.parse(value) as string));
    } catch {
      return `"${shorten(value.slice(1, -1))}"`;
    }
  });
}

/** The most lines a bounded text keeps (a config error lists one problem a line). */
const MAX_LINES = 20;

/**
 * A text of one or more lines (a config error's problems, a thrown error's message), each line
 * bounded by {@link shortenMessage}, and at most 20 lines of it.
 */
export function shortenLines(text: string, max = MAX_MESSAGE_LENGTH): string {
  if (text.length <= max) return text;
  const lines = text.split('\n');
  const kept = lines.slice(0, MAX_LINES).map((line) => shortenMessage(line, max));
  if (lines.length > MAX_LINES) kept.push(`[${lines.length - MAX_LINES} more lines cut]`);
  return kept.join('\n');
}

/**
 * A JSON pointer as findings show it: a long key in it is cut to its start and `…`. It stays free
 * of spaces, so that a line still splits on them, and as deep as it was (the depth limit bounds
 * that); the line and column say exactly where the value is.
 *
 * @example
 * shortenPointer(`/spec/${'k'.repeat(10_000)}`) // `/spec/${'k'.repeat(59)}…`
 */
export function shortenPointer(pointer: string): string {
  if (pointer.length <= MAX_SEGMENT_LENGTH) return pointer;
  return pointer
    .split('/')
    .map((s) => (s.length <= MAX_SEGMENT_LENGTH ? s : `${head(s, MAX_SEGMENT_LENGTH - 1)}…`))
    .join('/');
}

/** The first `length` code units of `text`, not splitting a surrogate pair. */
function head(text: string, length: number): string {
  const code = text.charCodeAt(length - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? length - 1 : length);
}

/** The last `length` code units of `text`, not splitting a surrogate pair. */
function tail(text: string, length: number): string {
  const from = text.length - length;
  const code = text.charCodeAt(from);
  return text.slice(code >= 0xdc00 && code <= 0xdfff ? from + 1 : from);
}
