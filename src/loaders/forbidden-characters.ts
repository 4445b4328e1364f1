/**
 * Characters YAML does not allow in a stream (YAML 1.2, 5.1 "Character Set"): C0 controls but
 * tab, line feed and carriage return; DEL; C1 controls but NEL; unpaired surrogates; U+FFFE and
 * U+FFFF. yaml reads most of them into values without a word, so cosi looks for them itself.
 * Written escaped in a double-quoted string (`"\0"`), they are data, and allowed. A carriage
 * return without a line feed (old Mac line endings) is refused too: YAML would take it as a line
 * break, but positions count lines by line feeds, and the file would read as one long line.
 * NEL, U+2028 and U+2029 are refused as well: line breaks to kubectl's YAML 1.1 reader
 * (go-yaml, after libyaml) and not to YAML 1.2, so a comment holding one hides from cosi the rest
 * of its line, which kubectl applies as a field.
 */
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** The characters that are line breaks to YAML 1.1 (kubectl) and not to YAML 1.2. */
const YAML_11_BREAKS: ReadonlyMap<number, string> = new Map([
  [0x85, 'next line'],
  [0x2028, 'line separator'],
  [0x2029, 'paragraph separator'],
]);

/** At most this many are reported per file: one is enough to refuse it. */
const MAX_REPORTED = 20;

/** One forbidden character: where it is (a UTF-16 offset) and its code unit. */
export interface ForbiddenCharacter {
  readonly offset: number;
  readonly code: number;
}

/** The first forbidden characters of a text, in order. */
export function findForbiddenCharacters(text: string): ForbiddenCharacter[] {
  const found: ForbiddenCharacter[] = [];
  FORBIDDEN.lastIndex = 0;
  for (let match = FORBIDDEN.exec(text); match !== null; match = FORBIDDEN.exec(text)) {
    found.push({ offset: match.index, code: text.charCodeAt(match.index) });
    if (found.length === MAX_REPORTED) break;
  }
  return found;
}

/** The sentence of a finding about a forbidden character. */
export function forbiddenCharacterMessage(code: number): string {
  if (code === 0x0d) {
    return 'a carriage return without a line feed (old Mac line endings): save the file with LF or CRLF line endings';
  }
  const name = YAML_11_BREAKS.get(code);
  if (name !== undefined) {
    return `the character ${codePointName(code)} (${name}) is a line break to kubectl's YAML reader and not to YAML 1.2, so the two read this file differently: write it escaped in a double-quoted string, or remove it`;
  }
  return `the character ${codePointName(code)} is not allowed in YAML (write it escaped in a double-quoted string)`;
}

/** `U+0007`: how messages name a character. */
export function codePointName(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
