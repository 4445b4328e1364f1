/**
 * The `strings` extension as Kubernetes enables it: `charAt`, `indexOf`, `lastIndexOf`,
 * `lowerAscii`, `upperAscii`, `replace`, `split`, `substring` and `trim` since the start
 * (cel-go's version 0), `join`, `strings.quote` and `format` since 1.29 (version 2). Each call
 * is charged for the size of the strings it reads and writes.
 *
 * Indexes count Unicode code points, as cel-go's do (`'😀bc'.charAt(1) == 'b'`).
 * `@bufbuild/cel`'s implementation counts UTF-16 units, splits with a limit by dropping the
 * rest (`'a,b,c'.split(',', 2)` is `['a', 'b,c']` in cel-go) and replaces in quadratic time, so
 * those functions are cosi's own, after cel-go's `ext/strings.go`; the others are Buf's, `format`
 * with the API server's `%e` (`scientific-format.ts`).
 */

import {
  celList,
  celMethod,
  CelScalar,
  isCelError,
  listType,
  type CelFunc,
  type CelList,
} from '@bufbuild/cel';
import { strings } from '@bufbuild/cel/ext';
import { chargedCopy } from '../charged-standard.js';
import { withScientificClauses } from './scientific-format.js';

const { INT, STRING } = CelScalar;

// Lone or paired surrogates: without them, code point and UTF-16 indexes are the same.
const SURROGATE = /[\uD800-\uDFFF]/;

/** A string's indexes in code points, mapped to and from UTF-16 units. */
class CodePoints {
  readonly length: number;
  /** UTF-16 offset of each code point and of the end; undefined when they are the same. */
  readonly #offsets: number[] | undefined;

  constructor(readonly text: string) {
    if (!SURROGATE.test(text)) {
      this.length = text.length;
      return;
    }
    const offsets: number[] = [];
    for (let i = 0; i < text.length; i++) {
      offsets.push(i);
      const code = text.charCodeAt(i);
      if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
        const next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) i++;
      }
    }
    offsets.push(text.length);
    this.length = offsets.length - 1;
    this.#offsets = offsets;
  }

  /** The UTF-16 offset of code point `index` (0 to `length`). */
  unit(index: number): number {
    return this.#offsets === undefined ? index : (this.#offsets[index] as number);
  }

  /** The code point index of UTF-16 offset `unit` (a code point's start). */
  index(unit: number): number {
    if (this.#offsets === undefined) return unit;
    let [low, high] = [0, this.#offsets.length - 1];
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.#offsets[middle] as number) < unit) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  /** Code points `start` to `end`. */
  slice(start: number, end = this.length): string {
    return this.text.slice(this.unit(start), this.unit(end));
  }
}

function outOfRange(index: bigint | number): Error {
  return new Error(`index out of range: ${index}`);
}

function charAt(text: string, index: bigint): string {
  const points = new CodePoints(text);
  if (index < 0n || index > BigInt(points.length)) throw outOfRange(index);
  return points.slice(Number(index), Math.min(points.length, Number(index) + 1));
}

function indexOf(text: string, search: string, offset: bigint): bigint {
  if (offset < 0n) throw outOfRange(offset);
  const points = new CodePoints(text);
  const length = BigInt(points.length);
  if (search === '') return offset > length ? length : offset;
  if (offset >= length) return -1n;
  const found = text.indexOf(search, points.unit(Number(offset)));
  return found === -1 ? -1n : BigInt(points.index(found));
}

function lastIndexOf(text: string, search: string, offset?: bigint): bigint {
  const points = new CodePoints(text);
  const length = BigInt(points.length);
  if (offset === undefined) {
    if (search === '') return length;
    if (text.length < search.length) return -1n;
    return lastIndexOf(text, search, length - 1n);
  }
  if (offset < 0n) throw outOfRange(offset);
  if (search === '') return offset > length ? length : offset;
  if (offset >= length) return -1n;
  const last = points.length - new CodePoints(search).length;
  if (last < 0) return -1n;
  const from = Math.min(Number(offset), last);
  const found = text.lastIndexOf(search, points.unit(from));
  return found === -1 ? -1n : BigInt(points.index(found));
}

function substring(text: string, start: bigint, end?: bigint): string {
  const points = new CodePoints(text);
  const length = BigInt(points.length);
  if (end !== undefined && start > end) {
    throw new Error(`invalid substring range. start: ${start}, end: ${end}`);
  }
  if (start < 0n || start > length) throw outOfRange(start);
  if (end !== undefined && (end < 0n || end > length)) throw outOfRange(end);
  return points.slice(Number(start), end === undefined ? points.length : Number(end));
}

/**
 * Go's `strings.Replace`: the first `count` matches (all when negative); an empty pattern
 * matches before each code point and at the end. Linear in the input.
 */
function replace(text: string, pattern: string, replacement: string, count: bigint): string {
  if (count === 0n || pattern === replacement) return text;
  const limit = count < 0n ? Infinity : Number(count);
  const parts: string[] = [];
  let replaced = 0;
  if (pattern === '') {
    for (const point of text) {
      if (replaced < limit) {
        parts.push(replacement);
        replaced++;
      }
      parts.push(point);
    }
    if (replaced < limit) parts.push(replacement);
    return parts.join('');
  }
  let from = 0;
  while (replaced < limit) {
    const at = text.indexOf(pattern, from);
    if (at === -1) break;
    parts.push(text.slice(from, at), replacement);
    from = at + pattern.length;
    replaced++;
  }
  parts.push(text.slice(from));
  return parts.join('');
}

/** Go's `strings.SplitN`: at most `count` parts (all when negative), the last the remainder. */
function split(text: string, separator: string, count: bigint): string[] {
  if (count === 0n) return [];
  const limit = count < 0n ? Infinity : Number(count);
  if (separator === '') {
    // Go splits into code points (runes), not grapheme clusters.
    // eslint-disable-next-line @typescript-eslint/no-misused-spread
    const points = [...text];
    if (points.length <= limit) return points;
    return [...points.slice(0, limit - 1), points.slice(limit - 1).join('')];
  }
  const parts: string[] = [];
  let from = 0;
  while (parts.length < limit - 1) {
    const at = text.indexOf(separator, from);
    if (at === -1) break;
    parts.push(text.slice(from, at));
    from = at + separator.length;
  }
  parts.push(text.slice(from));
  return parts;
}

const STRINGS_BY_CODE_POINT: readonly CelFunc[] = [
  celMethod('charAt', STRING, [INT], STRING, function (index) {
    return charAt(this, index);
  }),
  celMethod('indexOf', STRING, [STRING], INT, function (search) {
    return indexOf(this, search, 0n);
  }),
  celMethod('indexOf', STRING, [STRING, INT], INT, function (search, offset) {
    return indexOf(this, search, offset);
  }),
  celMethod('lastIndexOf', STRING, [STRING], INT, function (search) {
    return lastIndexOf(this, search);
  }),
  celMethod('lastIndexOf', STRING, [STRING, INT], INT, function (search, offset) {
    return lastIndexOf(this, search, offset);
  }),
  celMethod('substring', STRING, [INT], STRING, function (start) {
    return substring(this, start);
  }),
  celMethod('substring', STRING, [INT, INT], STRING, function (start, end) {
    return substring(this, start, end);
  }),
  celMethod('replace', STRING, [STRING, STRING], STRING, function (pattern, replacement) {
    return replace(this, pattern, replacement, -1n);
  }),
  celMethod('replace', STRING, [STRING, STRING, INT], STRING, function (pattern, by, count) {
    return replace(this, pattern, by, count);
  }),
  celMethod('split', STRING, [STRING], listType(STRING), function (separator) {
    return celList(split(this, separator, -1n));
  }),
  celMethod('split', STRING, [STRING, INT], listType(STRING), function (separator, count) {
    return celList(split(this, separator, count));
  }),
];

const OWN = new Set(STRINGS_BY_CODE_POINT.map((func) => func.name));
const VERSION_2 = new Set(['join', 'strings.quote', 'format']);

/** The functions of the extension's version 0 (Kubernetes before 1.29). */
export const stringsLibrary: readonly CelFunc[] = [
  ...strings.filter((func) => !OWN.has(func.name) && !VERSION_2.has(func.name)),
  ...STRINGS_BY_CODE_POINT,
].map((func) => chargedCopy(func));

const bufFormat = strings.find((func) => func.name === 'format');

/** `format`, its `%e` clauses rendered as the API server renders them. */
const format = celMethod(
  'format',
  STRING,
  [listType(CelScalar.DYN)],
  STRING,
  function (args: CelList) {
    const clauses = withScientificClauses(this, args);
    const result = bufFormat?.call(0, clauses.text, [clauses.args]);
    if (result === undefined) throw new Error("found no matching overload for 'format'");
    if (isCelError(result)) throw result;
    return result as string;
  },
);

/** What version 2 adds (Kubernetes 1.29): `join`, `strings.quote`, `format`. */
export const stringsLibraryVersion2: readonly CelFunc[] = [
  ...strings.filter((func) => VERSION_2.has(func.name) && func.name !== 'format'),
  format,
].map((func) => chargedCopy(func));
