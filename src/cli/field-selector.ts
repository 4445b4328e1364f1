import { CliError } from './exit-codes.js';

/** One term of a field selector: the field's path, and the value it must (or must not) have. */
interface Term {
  readonly path: readonly string[];
  readonly negated: boolean;
  readonly value: string;
}

/** A parsed `--field-selector`: whether a printed document (as `-o json` prints it) matches. */
export type FieldSelector = (document: unknown) => boolean;

/**
 * Parses a kubectl field selector: comma-separated terms, all of which must hold, each
 * `field=value`, `field==value` or `field!=value`, a field a dotted path into the document as
 * `-o json` prints it (`metadata.name`, `metadata.namespace`, `status.phase`, a Secret's `type`).
 * As kubectl's, `\,` `\=` `\!` and `\\` escape in a value. A field the document lacks reads as
 * the empty string, so `status.phase!=Running` matches a resource with no phase. A cosi
 * document's `metadata.id` answers for `metadata.name`.
 *
 * @throws CliError (usage) naming the selector and what is wrong with it.
 */
export function parseFieldSelector(text: string): FieldSelector {
  const terms = splitTerms(text).map((part) => parseTerm(part, text));
  return (document) =>
    terms.every((term) => (fieldValue(document, term.path) === term.value) !== term.negated);
}

/** Splits on the commas that no backslash escapes, keeping the escapes for the terms. */
function splitTerms(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === ',') {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

function parseTerm(part: string, whole: string): Term {
  const at = /!=|==|=/.exec(part);
  const field = at === null ? '' : part.slice(0, at.index).trim();
  if (at === null || !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(field)) {
    throw new CliError(
      `--field-selector: invalid selector ${JSON.stringify(whole)}: expected field=value, field==value or field!=value (comma-separated), such as metadata.name=web`,
    );
  }
  const value = unescape(part.slice(at.index + at[0].length), whole);
  return { path: field.split('.'), negated: at[0] === '!=', value };
}

function unescape(value: string, whole: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const ch = value.charAt(i);
    if (ch !== '\\') {
      if (ch === '=' || ch === '!') {
        throw new CliError(
          `--field-selector: invalid selector ${JSON.stringify(whole)}: an = or ! in a value is written \\= or \\!`,
        );
      }
      out += ch;
      continue;
    }
    const next = value[++i];
    if (next === undefined || !',=!\\'.includes(next)) {
      throw new CliError(
        `--field-selector: invalid selector ${JSON.stringify(whole)}: a backslash escapes only , = ! and \\`,
      );
    }
    out += next;
  }
  return out;
}

/** The value at `path`, as a string (a number or boolean as JSON writes it); `''` when absent. */
function fieldValue(document: unknown, path: readonly string[]): string {
  // A cosi document names itself metadata.id: kubectl's metadata.name is that.
  const cosiName = path.length === 2 && path[0] === 'metadata' && path[1] === 'name';
  let at: unknown = document;
  for (const key of path) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return '';
    const object = at as Record<string, unknown>;
    at = cosiName && key === 'name' && !('name' in object) ? object.id : object[key];
  }
  if (typeof at === 'string') return at;
  if (typeof at === 'number' || typeof at === 'boolean') return String(at);
  return '';
}
