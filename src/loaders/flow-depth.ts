/**
 * A bound on how deeply a YAML text's flow collections nest, read off the characters in one
 * pass, before yaml's parser builds its syntax tree: that tree costs about a kilobyte per `[`
 * (4 MB of `[` took 20 s and 3.7 GB before the depth check after the parse could refuse it; 30
 * MB ran out of memory). Brackets in quoted scalars and comments are not counted, nor one
 * where no collection can start; one in a block scalar may be, so the count is an upper bound,
 * and only a depth far past what yaml may compose is taken as too deep.
 */

const OPEN_SQUARE = 0x5b;
const OPEN_CURLY = 0x7b;
const CLOSE_SQUARE = 0x5d;
const CLOSE_CURLY = 0x7d;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const NEWLINE = 0x0a;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * When flow collections nest deeper than `limit`: the offset of the collection that first went
 * past `reported` levels on the way there (where a parse would place it), else `undefined`.
 */
export function flowDepthPast(text: string, limit: number, reported = limit): number | undefined {
  let depth = 0;
  let past = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === OPEN_SQUARE || c === OPEN_CURLY) {
      // Only where a collection may start: a bracket inside a plain scalar (`^\[a-z]`, `a[0]`)
      // opens nothing, and would add up over a large file of CRD patterns.
      if (!opensCollection(text, i)) continue;
      if (++depth === reported + 1) past = i;
      if (depth > limit) return past;
    } else if (c === CLOSE_SQUARE || c === CLOSE_CURLY) {
      if (depth > 0) depth--;
    } else if (c === DOUBLE_QUOTE) {
      for (i++; i < length; i++) {
        const d = text.charCodeAt(i);
        if (d === BACKSLASH) i++;
        else if (d === DOUBLE_QUOTE) break;
      }
    } else if (c === SINGLE_QUOTE) {
      // A quote in a plain scalar (`it's`) opens nothing: only one after a space, a line start
      // or an indicator starts a quoted scalar. Its end is the next lone quote.
      const before = i === 0 ? NEWLINE : text.charCodeAt(i - 1);
      if (
        before !== SPACE &&
        before !== TAB &&
        before !== NEWLINE &&
        before !== OPEN_SQUARE &&
        before !== OPEN_CURLY &&
        before !== 0x2c &&
        before !== 0x3a &&
        before !== 0x2d
      )
        continue;
      for (i++; i < length; i++) {
        if (text.charCodeAt(i) !== SINGLE_QUOTE) continue;
        if (text.charCodeAt(i + 1) === SINGLE_QUOTE) i++;
        else break;
      }
    } else if (c === HASH) {
      const before = i === 0 ? NEWLINE : text.charCodeAt(i - 1);
      if (before !== SPACE && before !== TAB && before !== NEWLINE) continue;
      const end = text.indexOf('\n', i);
      i = end === -1 ? length : end;
    }
  }
  return undefined;
}

/**
 * Whether the bracket at `at` may start a flow collection: after a line's indentation, or after
 * `:`, `-`, `?`, `,` or another opening bracket (spaces between).
 */
function opensCollection(text: string, at: number): boolean {
  for (let i = at - 1; i >= 0; i--) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === TAB) continue;
    return (
      c === NEWLINE ||
      c === 0x0d ||
      c === 0x3a ||
      c === 0x2d ||
      c === 0x3f ||
      c === 0x2c ||
      c === OPEN_SQUARE ||
      c === OPEN_CURLY
    );
  }
  return true;
}
