/**
 * Control characters in values (a manifest's `"\e]0;title\a"`) must never reach a terminal raw:
 * they could clear the screen, set the window title or hide text. Every human-readable output
 * goes through here; JSON and YAML escape them themselves.
 */

/** C0 and C1 controls, DEL, and the bidirectional overrides that reorder what a line shows. */
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;
/** The same, with line feeds left alone: for output that is several lines already. */
const UNSAFE_BUT_NEWLINE = /(?!\n)[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeOne(char: string): string {
  const named = NAMED[char];
  if (named !== undefined) return named;
  const code = char.charCodeAt(0);
  return code <= 0xff
    ? `\\x${code.toString(16).padStart(2, '0')}`
    : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * A value safe to print on one line: control characters (line feeds included) as escapes.
 *
 * @example
 * escapeControl('a\u001b[2Jb') // 'a\\x1b[2Jb'
 */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** {@link escapeControl} for text of several lines: the line feeds stay. */
export function escapeControlLines(text: string): string {
  return text.replace(UNSAFE_BUT_NEWLINE, escapeOne);
}
