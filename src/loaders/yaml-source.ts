import { flowDepthPast } from './flow-depth.js';
import {
  Composer,
  Parser,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type CST,
  type Document,
  type DocumentOptions,
  type EmptyStream,
  type Pair,
  type YAMLMap,
  type Node as YamlNode,
  type ParsedNode,
  type ParseOptions,
  type SchemaOptions,
} from 'yaml';
import { kubectlKey } from './go-yaml-keys.js';
import { itemStart } from './list-item-starts.js';
import { keyString, nodeStart } from './yaml-node-starts.js';
import { parseJsonPointer } from './json-pointer.js';
import type { LineIndex } from './line-index.js';
import type { Position, StreamPositions } from './position.js';

export type { Position, StreamPositions } from './position.js';

/** Options handed to yaml: YAML 1.2 core only, no YAML 1.1 extras, no custom tags. */
const YAML_OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  version: '1.2',
  schema: 'core',
  resolveKnownTags: false,
  merge: false,
  prettyErrors: false,
  // Duplicates are found while building the data, on the keys as JavaScript sees them
  // (`1` and `"1"` collide there), which also spares yaml a quadratic scan of each mapping.
  uniqueKeys: false,
};

/**
 * How deeply yaml may be asked to nest. yaml composes recursively and overflows the stack at
 * some 800 levels; past an overflow, Node can even abort on a later parse (V8 fails to compile a
 * regular expression near the stack limit), so deeper input is never handed to it.
 */
export const SAFE_PARSE_DEPTH = 400;

/**
 * Texts longer than this are scanned for their flow depth before they are parsed (see
 * `flow-depth.ts`); a shorter one's syntax tree is small whatever it holds.
 */
const PRESCAN_LENGTH = 64 * 1024;
/**
 * The scan counts brackets in plain and block scalars too: only a depth well past
 * {@link SAFE_PARSE_DEPTH} is taken as one yaml would be asked to compose.
 */
const PRESCAN_DEPTH = 2 * SAFE_PARSE_DEPTH;

/** Thrown by {@link parseYamlStream} for input nested deeper than {@link SAFE_PARSE_DEPTH}. */
export class NestingTooDeepError extends Error {
  constructor(readonly offset: number) {
    super(`nested more than ${SAFE_PARSE_DEPTH} levels`);
    this.name = 'NestingTooDeepError';
  }
}

/**
 * Parses a YAML stream the one way cosi does: as `parseAllDocuments`, with a depth check between
 * yaml's parser (iterative) and its composer (recursive). Documents are handed to `onDocument`
 * one at a time, as they are composed, so that a large stream is never held whole as syntax
 * trees. Returns the stream's info when it has no document at all.
 *
 * @throws NestingTooDeepError when the input nests too deeply to compose safely; documents
 * before the deep one may have been handed over already.
 */
export function parseYamlStream(
  text: string,
  lineCounter: LineCounter,
  onDocument: (doc: Document.Parsed) => void,
): EmptyStream | undefined {
  // A large text is bounded before it is parsed: its syntax tree would cost gigabytes first.
  if (text.length > PRESCAN_LENGTH) {
    const deep = flowDepthPast(text, PRESCAN_DEPTH, SAFE_PARSE_DEPTH);
    if (deep !== undefined) throw new NestingTooDeepError(deep);
  }
  const parser = new Parser(lineCounter.addNewLine);
  const composer = new Composer<ParsedNode, true>(YAML_OPTIONS);
  let count = 0;
  const emit = (doc: Document.Parsed): void => {
    count++;
    onDocument(doc);
  };
  for (const token of parser.parse(text)) {
    const deep = tooDeepAt(token, SAFE_PARSE_DEPTH);
    if (deep !== undefined) throw new NestingTooDeepError(deep);
    for (const doc of composer.next(token)) emit(doc);
  }
  for (const doc of composer.end()) emit(doc);
  if (count > 0) return undefined;
  return Object.assign([], { empty: true as const }, composer.streamInfo());
}

/** The offset of a node nested deeper than `limit`, found without recursion. */
function tooDeepAt(token: CST.Token, limit: number): number | undefined {
  // Two parallel stacks rather than one of pairs: this runs on every node of every file.
  const pending: CST.Token[] = [];
  const depths: number[] = [];
  if (token.type === 'document' && token.value) {
    pending.push(token.value);
    depths.push(1);
  }
  for (let token = pending.pop(); token !== undefined; token = pending.pop()) {
    const depth = depths.pop() as number;
    if (depth > limit) return token.offset;
    if (
      token.type === 'block-map' ||
      token.type === 'block-seq' ||
      token.type === 'flow-collection'
    ) {
      for (const item of token.items) {
        if (item.key) {
          pending.push(item.key);
          depths.push(depth + 1);
        }
        if (item.value) {
          pending.push(item.value);
          depths.push(depth + 1);
        }
      }
    }
  }
  return undefined;
}

/** Where one document of a stream is: its text, and where its root node starts. */
export interface DocumentRange {
  readonly start: number;
  readonly end: number;
  readonly contentsStart: number;
  /**
   * Where the values of `kind` and `metadata.name` start, when the first parse saw them: the
   * places duplicates and unknown kinds are reported at, found without parsing the document
   * again (a CRD's copies are large).
   */
  readonly kindStart?: number;
  readonly nameStart?: number;
}

/** The numbers {@link YamlSource} keeps per document: start, end, contentsStart, kind, name. */
const STRIDE = 5;

/**
 * The text of a YAML stream, able to tell where a JSON pointer is in one of its documents.
 *
 * It parses a document again on its first lookup instead of keeping the syntax trees of the
 * first parse: positions are needed only for findings, and holding every tree of a large
 * manifest tree until the end of a load costs more (in memory and garbage collection) than the
 * parse itself. Only that document's text is parsed again, never the whole stream; and lookups
 * go through an index of each mapping's keys and each document's anchors, built once, so that
 * any number of findings in one document costs one pass over it.
 */
export class YamlSource implements StreamPositions {
  /**
   * Each document's range, flat (start, end, contentsStart per index), in a typed array grown by
   * doubling: 100,000 documents are common, and the resources loaded keep this for positions.
   */
  #ranges: Uint32Array = new Uint32Array(3 * 16);
  #documents = 0;
  /** The starts of each list document's items, by document index (`list-item-starts.ts`). */
  #items = new Map<number, Uint32Array>();
  readonly #roots = new Map<number, { root: YamlNode | null; offset: number }>();
  #whole: (YamlNode | null)[] | undefined;

  constructor(
    readonly text: string,
    readonly lineCounter: LineIndex,
  ) {}

  /** Remembers where the document with this index is, to parse it alone later. */
  addDocument(index: number, range: DocumentRange): void {
    const at = index * STRIDE;
    if (at + STRIDE > this.#ranges.length) {
      const grown = new Uint32Array(Math.max(this.#ranges.length * 2, at + STRIDE));
      grown.set(this.#ranges);
      this.#ranges = grown;
    }
    this.#ranges[at] = range.start;
    this.#ranges[at + 1] = range.end;
    this.#ranges[at + 2] = range.contentsStart;
    // 0 for not seen: a value never starts at a document's first character.
    this.#ranges[at + 3] = range.kindStart ?? 0;
    this.#ranges[at + 4] = range.nameStart ?? 0;
    this.#documents = Math.max(this.#documents, index + 1);
  }

  /** Remembers where the items of the list document with this index start (`listItemStarts`). */
  addListItems(index: number, starts: Uint32Array): void {
    this.#items.set(index, starts);
  }

  /** The starts of each list document's items, by document index: see {@link restored}. */
  listItems(): ReadonlyMap<number, Uint32Array> {
    return this.#items;
  }

  /**
   * Every document's range, flat (start, end, contentsStart, and where its kind and name are,
   * per index): see {@link restored}.
   */
  documentRanges(): Uint32Array {
    return this.#ranges.slice(0, this.#documents * STRIDE);
  }

  /**
   * A source with the documents' ranges another one had (its {@link documentRanges}): the same
   * positions, from the same text, without parsing it (a parse made on another thread).
   */
  static restored(
    text: string,
    lineCounter: LineIndex,
    ranges: Uint32Array,
    items: ReadonlyMap<number, Uint32Array> = new Map(),
  ): YamlSource {
    const source = new YamlSource(text, lineCounter);
    source.#ranges = ranges;
    source.#items = new Map(items);
    source.#documents = Math.floor(ranges.length / STRIDE);
    return source;
  }

  /**
   * The position of the node at a pointer in the document with this index, or of its nearest
   * existing parent; with `part: 'key'`, of the last segment's key.
   */
  locate(index: number, pointer: string, part: 'key' | 'value' = 'value'): Position {
    const known = part === 'value' ? this.#headerStart(index, pointer) : 0;
    if (known > 0) return this.lineCounter.linePos(known);
    const { node, offset } = this.#nodeAt(index, pointer, part);
    return this.lineCounter.linePos(node === null ? 0 : offset + nodeStart(node));
  }

  /**
   * The position of the `occurrence`-th (from 0) `text` in the source of the scalar at a pointer
   * (an expression inside a quoted or block string: the column of its `$`, not of the quote);
   * the node's own position when its source does not hold it.
   */
  locateText(index: number, pointer: string, text: string, occurrence: number): Position {
    const { node, offset } = this.#nodeAt(index, pointer, 'value');
    if (node === null) return this.lineCounter.linePos(0);
    let at = -1;
    if (isScalar(node) && node.range !== undefined && node.range !== null) {
      const [start, end] = node.range;
      const source = this.text.slice(offset + start, offset + end);
      at = -text.length;
      for (let k = 0; k <= occurrence && at !== -1; k++)
        at = source.indexOf(text, at + text.length);
    }
    return this.lineCounter.linePos(offset + nodeStart(node) + Math.max(at, 0));
  }

  /**
   * Where the first parse saw the value of `/kind` or `/metadata/name` start, or a list's item
   * (`/items/N`, its kind or its name); 0 when it did not.
   */
  #headerStart(index: number, pointer: string): number {
    if (index >= this.#documents) return 0;
    if (pointer === '/kind') return this.#ranges[index * STRIDE + 3] ?? 0;
    if (pointer === '/metadata/name') return this.#ranges[index * STRIDE + 4] ?? 0;
    const items = this.#items.get(index);
    return items === undefined ? 0 : itemStart(items, pointer);
  }

  /** The node at a pointer in a document (or its nearest existing parent), and its offset. */
  #nodeAt(
    index: number,
    pointer: string,
    part: 'key' | 'value',
  ): { node: YamlNode | null; offset: number } {
    const { root, offset } = this.#root(index);
    if (root === null) return { node: null, offset };
    const anchors = anchorIndex(root);
    let node = root;
    const segments = parseJsonPointer(pointer);
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i] as string;
      node = derefAlias(anchors, node);
      let next: YamlNode | null | undefined;
      if (isMap(node)) {
        const pair = keyIndex(node).get(segment);
        if (pair === undefined) break;
        const isLast = i === segments.length - 1;
        next = isLast && part === 'key' ? (pair.key as YamlNode) : (pair.value as YamlNode | null);
        // `key:` with nothing after it has no value node: the key is the best place.
        next ??= pair.key as YamlNode | null;
      } else if (isSeq(node)) {
        next = node.items[Number(segment)] as YamlNode | null | undefined;
      }
      if (next === null || next === undefined) break;
      node = next;
    }
    return { node, offset };
  }

  /** The root of a document, from a parse of its text alone (or of the whole text, if need be). */
  #root(index: number): { root: YamlNode | null; offset: number } {
    let found = this.#roots.get(index);
    if (found !== undefined) return found;
    const start = index < this.#documents ? this.#ranges[index * STRIDE] : undefined;
    if (start !== undefined) {
      const range = {
        start,
        end: this.#ranges[index * STRIDE + 1] as number,
        contentsStart: this.#ranges[index * STRIDE + 2] as number,
      };
      const roots: (YamlNode | null)[] = [];
      // The same text parsed the same way: this cannot throw where the first parse did not.
      parseYamlStream(this.text.slice(range.start, range.end), new LineCounter(), (doc) =>
        roots.push(doc.contents),
      );
      const root = roots.find(
        (r) => r !== null && nodeStart(r) + range.start === range.contentsStart,
      );
      if (root !== undefined) found = { root, offset: range.start };
    }
    // A document that does not parse the same alone (a directive before it mattered).
    found ??= { root: this.#parseWhole()[index] ?? null, offset: 0 };
    this.#roots.set(index, found);
    return found;
  }

  #parseWhole(): (YamlNode | null)[] {
    if (this.#whole === undefined) {
      const roots: (YamlNode | null)[] = [];
      parseYamlStream(this.text, new LineCounter(), (doc) => roots.push(doc.contents));
      this.#whole = roots;
    }
    return this.#whole;
  }
}

/**
 * The first pair of each key of a mapping, by the key as JavaScript sees it, then by the key
 * kubectl sends where that differs (`on:` is also found as `true`: a Kubernetes object's keys are
 * read as kubectl reads them, see `go-yaml-keys.ts`).
 */
const keyIndexes = new WeakMap<YamlNode, Map<string, Pair>>();

function keyIndex(map: YAMLMap): Map<string, Pair> {
  let index = keyIndexes.get(map);
  if (index === undefined) {
    index = new Map();
    for (const pair of map.items) {
      const key = keyString(pair.key as YamlNode | null);
      if (key !== undefined && !index.has(key)) index.set(key, pair);
    }
    for (const pair of map.items) {
      const key = pair.key as YamlNode | null;
      if (!isScalar(key) || key.type !== 'PLAIN' || key.tag !== undefined) continue;
      const kubectl = kubectlKey(String(key.source), key.value);
      if (kubectl !== undefined && kubectl.kind !== 'null' && !index.has(kubectl.key)) {
        index.set(kubectl.key, pair);
      }
    }
    keyIndexes.set(map, index);
  }
  return index;
}

/** Every anchor of a document by name, in document order. */
const anchorIndexes = new WeakMap<YamlNode, Map<string, YamlNode[]>>();

function anchorIndex(root: YamlNode): Map<string, YamlNode[]> {
  let index = anchorIndexes.get(root);
  if (index !== undefined) return index;
  index = new Map();
  // Iterative, in document order: a document may nest deeply.
  const pending: unknown[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node === null || typeof node !== 'object') continue;
    const yamlNode = node as YamlNode;
    if (yamlNode.anchor !== undefined) {
      const list = index.get(yamlNode.anchor) ?? [];
      list.push(yamlNode);
      index.set(yamlNode.anchor, list);
    }
    if (isMap(yamlNode)) {
      for (let i = yamlNode.items.length - 1; i >= 0; i--) {
        const pair = yamlNode.items[i] as Pair;
        pending.push(pair.value, pair.key);
      }
    } else if (isSeq(yamlNode)) {
      for (let i = yamlNode.items.length - 1; i >= 0; i--) pending.push(yamlNode.items[i]);
    }
  }
  for (const list of index.values()) list.sort((a, b) => nodeStart(a) - nodeStart(b));
  anchorIndexes.set(root, index);
  return index;
}

/** Follows aliases to the nodes they stand for: the last anchor of that name before each. */
function derefAlias(anchors: Map<string, YamlNode[]>, node: YamlNode): YamlNode {
  let current = node;
  // Each hop goes to an earlier node, so a chain ends; the bound is only a guard.
  for (let hops = 0; isAlias(current) && hops < 1000; hops++) {
    const target = lastBefore(anchors.get(current.source) ?? [], nodeStart(current));
    if (target === undefined) break;
    current = target;
  }
  return current;
}

/** The last node of a list in document order that starts before an offset (binary search). */
function lastBefore(nodes: readonly YamlNode[], offset: number): YamlNode | undefined {
  let lo = 0;
  let hi = nodes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (nodeStart(nodes[mid] as YamlNode) < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? undefined : nodes[lo - 1];
}
