import type { Key } from 'ink';

/** A line being typed, and where the cursor stands in it (a UTF-16 offset, on a grapheme's edge). */
export interface EditedLine {
  readonly text: string;
  readonly cursor: number;
}

/** A line with the cursor at its end: how a kept filter reopens. */
export const lineAtEnd = (text: string): EditedLine => ({ text, cursor: text.length });

/**
 * The rest of the first of `names` that the text begins (case aside): what Tab or → at the end
 * of the line would add. Nothing for an empty line or a name typed whole.
 *
 * @example
 * completionOf('net', ['vm', 'networkconfig']) // 'workconfig'
 */
export function completionOf(text: string, names: readonly string[]): string {
  if (text === '') return '';
  const typed = text.toLowerCase();
  const name = names.find((n) => n.length > typed.length && n.toLowerCase().startsWith(typed));
  return name === undefined ? '' : name.slice(typed.length);
}

/**
 * The line after one key, as readline and a shell's prompt take it: text is inserted at the
 * cursor; ←→ (Ctrl-B / Ctrl-F) move by a character and Alt-B / Alt-F by a word; Home / End
 * (Ctrl-A / Ctrl-E) go to an end; Backspace deletes back, Ctrl-D forward; Ctrl-U and Ctrl-K
 * delete to the start and to the end; Ctrl-W deletes back to the last space, Alt-Backspace and
 * Alt-D a word; Tab (or → at the end) takes the `completion`. Other control keys change nothing:
 * they are never typed as their letter.
 */
export function editLine(line: EditedLine, input: string, key: Key, completion = ''): EditedLine {
  const { text, cursor } = line;
  const before = text.slice(0, cursor);
  const after = text.slice(cursor);
  const splice = (from: number, to: number, cursorAt = from): EditedLine => ({
    text: text.slice(0, from) + text.slice(to),
    cursor: cursorAt,
  });
  const complete = (): EditedLine => (completion === '' ? line : lineAtEnd(text + completion));

  // Ink names the Backspace key `delete` on most terminals (it sends DEL): both delete back.
  if (key.backspace || key.delete) {
    return key.meta
      ? splice(wordStartBefore(text, cursor), cursor)
      : splice(previousEdge(text, cursor), cursor);
  }
  if (key.tab) return cursor === text.length ? complete() : line;
  if (key.leftArrow) return { text, cursor: previousEdge(text, cursor) };
  if (key.rightArrow) {
    return cursor === text.length ? complete() : { text, cursor: nextEdge(text, cursor) };
  }
  if (key.home) return { text, cursor: 0 };
  if (key.end) return lineAtEnd(text);
  if (key.ctrl) {
    switch (input) {
      case 'a':
        return { text, cursor: 0 };
      case 'e':
        return lineAtEnd(text);
      case 'b':
        return { text, cursor: previousEdge(text, cursor) };
      case 'f':
        return { text, cursor: nextEdge(text, cursor) };
      case 'd':
        return splice(cursor, nextEdge(text, cursor));
      case 'u':
        return { text: after, cursor: 0 };
      case 'k':
        return { text: before, cursor };
      case 'w':
        return splice(before.trimEnd().lastIndexOf(' ') + 1, cursor);
      default:
        return line;
    }
  }
  if (key.meta) {
    switch (input) {
      case 'b':
        return { text, cursor: wordStartBefore(text, cursor) };
      case 'f':
        return { text, cursor: wordEndAfter(text, cursor) };
      case 'd':
        return splice(cursor, wordEndAfter(text, cursor));
      default:
        return line;
    }
  }
  if (key.upArrow || key.downArrow || key.pageUp || key.pageDown || key.escape || key.return) {
    return line;
  }
  // Text, without the control characters a paste may carry.
  // eslint-disable-next-line no-control-regex
  const typed = input.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  return { text: before + typed + after, cursor: cursor + typed.length };
}

const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** The grapheme edges of `text`, from 0 to its length. */
function edges(text: string): number[] {
  return [...Array.from(graphemes.segment(text), (s) => s.index), text.length];
}

function previousEdge(text: string, cursor: number): number {
  return edges(text).findLast((edge) => edge < cursor) ?? 0;
}

function nextEdge(text: string, cursor: number): number {
  return edges(text).find((edge) => edge > cursor) ?? text.length;
}

/** Letters, digits and `_`, as readline's words are made of. */
const WORD = /[\p{L}\p{N}_]/u;

/** Where the word before the cursor starts, skipping what separates it from the cursor. */
function wordStartBefore(text: string, cursor: number): number {
  let at = cursor;
  while (at > 0 && !WORD.test(text[at - 1] ?? '')) at--;
  while (at > 0 && WORD.test(text[at - 1] ?? '')) at--;
  return at;
}

/** Where the word after the cursor ends, skipping what separates it from the cursor. */
function wordEndAfter(text: string, cursor: number): number {
  let at = cursor;
  while (at < text.length && !WORD.test(text[at] ?? '')) at++;
  while (at < text.length && WORD.test(text[at] ?? '')) at++;
  return at;
}
