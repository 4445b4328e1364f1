/**
 * A file that is one JSON object (`kubectl get all -A -o json`: a `kind: List` of 76,000 items in
 * 8 MB) read with `JSON.parse` instead of yaml's reader, which builds a syntax tree of the whole
 * document first: 15 to 20 times the CPU and some 200 bytes of memory per byte of the file.
 *
 * Taken only when the yaml reader could find nothing to say about the object: strict JSON (which
 * kubectl also reads as JSON), no key twice in an object (`duplicate-key`), no escape in a key,
 * every number a plain decimal that is safe as a JavaScript number (`number-out-of-range`, and
 * `-0`, are the reader's), no `\uD800`-`\uDFFF` escape, no object or array nested deeper than
 * {@link MAX_PLAIN_DEPTH}. Anything else gives `undefined`, and the file is read by yaml as ever:
 * the values, findings and positions are the same either way. `JSON.parse` makes a `__proto__`
 * key an own property, never the object's prototype, as the yaml reader does.
 *
 * Positions are still found later by a parse of the text when a finding needs one; the places
 * every check reports (the object, its `kind` and `metadata.name`, a list's items and theirs)
 * are recorded here, as the yaml reader's first parse records them.
 */
import { ITEM_STRIDE } from '../list-item-starts.js';

/** What {@link readPlainJsonObject} found. */
export interface PlainJsonObject {
  readonly value: Record<string, unknown>;
  /** Where the object's `{` is. */
  readonly start: number;
  readonly kindStart?: number;
  readonly nameStart?: number;
  /** A list's item starts (see `list-item-starts.ts`), when it is one. */
  readonly items?: Uint32Array;
}

/** Deeper than this, the object is left to the yaml reader and its depth limits. */
export const MAX_PLAIN_DEPTH = 64;

/** A decimal number that is the same double in every reader, and no integer past 2^53. */
const PLAIN_NUMBER = /^(?:0|-?[1-9]\d{0,14})(?:\.\d{1,15})?$/;

/** What an open object or array is, for the places recorded. */
const Role = {
  Other: 0,
  Root: 1,
  RootMetadata: 2,
  Items: 3,
  Item: 4,
  ItemMetadata: 5,
} as const;
type Role = (typeof Role)[keyof typeof Role];

interface Open {
  readonly array: boolean;
  readonly role: Role;
  /** The item this is (or is in), for `Item` and `ItemMetadata`. */
  readonly item: number;
  /** An object's keys so far. */
  readonly keys: Set<string> | undefined;
  /** An object's key whose value comes next, or an array's next index. */
  key: string;
  index: number;
}

/** `text`, when it is one JSON object the yaml reader would read without a word (see above). */
export function readPlainJsonObject(text: string): PlainJsonObject | undefined {
  const scan = scanPlainJson(text);
  if (scan === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const object = value as Record<string, unknown>;
  const isList =
    typeof object.kind === 'string' && object.kind.endsWith('List') && Array.isArray(object.items);
  return {
    value: object,
    start: scan.start,
    ...(scan.kindStart === undefined ? {} : { kindStart: scan.kindStart }),
    ...(scan.nameStart === undefined ? {} : { nameStart: scan.nameStart }),
    ...(isList ? { items: Uint32Array.from(scan.items) } : {}),
  };
}

interface Scan {
  start: number;
  kindStart?: number;
  nameStart?: number;
  /** Per item: start, kind start, name start (0: none). */
  items: number[];
}

/**
 * One pass over `text`: whether it holds one object and nothing the yaml reader would report,
 * and the places recorded. Not a full JSON check: `JSON.parse` refuses what is no JSON.
 */
function scanPlainJson(text: string): Scan | undefined {
  let at = skipSpace(text, 0);
  if (text.charCodeAt(at) !== OPEN_BRACE) return undefined;
  const scan: Scan = { start: at, items: [] };
  const stack: Open[] = [];
  while (at < text.length) {
    const code = text.charCodeAt(at);
    const top = stack[stack.length - 1];
    if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      stack.pop();
      at = skipSpace(text, at + 1);
      if (stack.length === 0) return at === text.length ? scan : undefined;
      continue;
    }
    if (code === COMMA) {
      at = skipSpace(text, at + 1);
      continue;
    }
    if (top !== undefined && !top.array) {
      // A key, then its colon.
      if (code !== QUOTE) return undefined;
      const end = stringEnd(text, at);
      if (end === undefined) return undefined;
      const key = text.slice(at + 1, end - 1);
      if (key.includes('\\') || top.keys?.has(key)) return undefined;
      top.keys?.add(key);
      top.key = key;
      at = skipSpace(text, end);
      if (text.charCodeAt(at) !== COLON) return undefined;
      at = skipSpace(text, at + 1);
    }
    // A value.
    const valueStart = at;
    const container = text.charCodeAt(at);
    const isContainer = container === OPEN_BRACE || container === OPEN_BRACKET;
    const role = record(scan, top, valueStart, isContainer);
    if (isContainer) {
      if (stack.length >= MAX_PLAIN_DEPTH) return undefined;
      const array = container === OPEN_BRACKET;
      stack.push({
        array,
        role: top === undefined ? Role.Root : role,
        item: top?.role === Role.Items ? top.index : (top?.item ?? -1),
        keys: array ? undefined : new Set(),
        key: '',
        index: 0,
      });
      at = skipSpace(text, at + 1);
    } else {
      if (top === undefined) return undefined;
      const end = scalarEnd(text, at);
      if (end === undefined) return undefined;
      at = skipSpace(text, end);
    }
    if (top?.array === true) top.index++;
  }
  return undefined;
}

/**
 * Records the place of a value that starts at `start` in `parent`, when it is one kept; returns
 * the role of the object or array it opens.
 */
function record(scan: Scan, parent: Open | undefined, start: number, opens: boolean): Role {
  if (parent === undefined) return Role.Root;
  switch (parent.role) {
    case Role.Root:
      if (parent.key === 'kind' && !opens) scan.kindStart = start;
      if (parent.key === 'metadata') return Role.RootMetadata;
      if (parent.key === 'items') return Role.Items;
      return Role.Other;
    case Role.RootMetadata:
      if (parent.key === 'name' && !opens) scan.nameStart = start;
      return Role.Other;
    case Role.Items:
      scan.items.push(start, 0, 0);
      return Role.Item;
    case Role.Item:
      if (parent.key === 'kind' && !opens) scan.items[parent.item * ITEM_STRIDE + 1] = start;
      if (parent.key === 'metadata') return Role.ItemMetadata;
      return Role.Other;
    case Role.ItemMetadata:
      if (parent.key === 'name' && !opens) scan.items[parent.item * ITEM_STRIDE + 2] = start;
      return Role.Other;
    default:
      return Role.Other;
  }
}

/** Where a string, a number or a literal that starts at `at` ends; `undefined` if not plain. */
function scalarEnd(text: string, at: number): number | undefined {
  if (text.charCodeAt(at) === QUOTE) return stringEnd(text, at, true);
  let end = at;
  while (end < text.length && !ENDS_SCALAR.has(text.charCodeAt(end))) end++;
  const written = text.slice(at, end);
  if (written === 'true' || written === 'false' || written === 'null') return end;
  return PLAIN_NUMBER.test(written) ? end : undefined;
}

/**
 * Where the string that starts at `at` ends (after its quote); with `values`, `undefined` for
 * an escape of half a surrogate pair.
 */
function stringEnd(text: string, at: number, values = false): number | undefined {
  for (let i = at + 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) return i + 1;
    if (code !== BACKSLASH) continue;
    if (
      values &&
      text.charCodeAt(i + 1) === LOWER_U &&
      /^[dD][89a-fA-F]/.test(text.slice(i + 2, i + 4))
    ) {
      return undefined;
    }
    i++;
  }
  return undefined;
}

function skipSpace(text: string, from: number): number {
  let at = from;
  while (at < text.length && SPACE.has(text.charCodeAt(at))) at++;
  return at;
}

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LOWER_U = 0x75;
/** JSON's white space. */
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const ENDS_SCALAR = new Set([...SPACE, COMMA, CLOSE_BRACE, CLOSE_BRACKET, COLON]);
