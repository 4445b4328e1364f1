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
  type Node as YamlNode,
  type ParsedNode,
  type ParseOptions,
  type SchemaOptions,
} from 'yaml';
import { parseJsonPointer } from './json-pointer.js';

/** A 1-based line and column. */
export interface Position {
  readonly line: number;
  readonly col: number;
}

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

/** Thrown by {@link parseYamlStream} for input nested deeper than {@link SAFE_PARSE_DEPTH}. */
export class NestingTooDeepError extends Error {
  constructor(readonly offset: number) {
    super(`nested more than ${SAFE_PARSE_DEPTH} levels`);
    this.name = 'NestingTooDeepError';
  }
}

/**
 * Parses a YAML stream the one way cosi does: as `parseAllDocuments`, with a depth check between
 * yaml's parser (iterative) and its composer (recursive).
 *
 * @throws NestingTooDeepError when the input nests too deeply to compose safely.
 */
export function parseYamlStream(
  text: string,
  lineCounter: LineCounter,
): Document.Parsed[] | EmptyStream {
  const tokens = Array.from(new Parser(lineCounter.addNewLine).parse(text));
  const deep = tooDeepAt(tokens, SAFE_PARSE_DEPTH);
  if (deep !== undefined) throw new NestingTooDeepError(deep);
  const composer = new Composer<ParsedNode, true>(YAML_OPTIONS);
  const docs = Array.from(composer.compose(tokens));
  if (docs.length > 0) return docs;
  return Object.assign([], { empty: true as const }, composer.streamInfo());
}

/** The offset of a node nested deeper than `limit`, found without recursion. */
function tooDeepAt(tokens: readonly CST.Token[], limit: number): number | undefined {
  // Two parallel stacks rather than one of pairs: this runs on every node of every file.
  const pending: CST.Token[] = [];
  const depths: number[] = [];
  for (const token of tokens) {
    if (token.type === 'document' && token.value) {
      pending.push(token.value);
      depths.push(1);
    }
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

/** Where a node starts. */
export function nodeStart(node: YamlNode): number {
  return node.range?.[0] ?? 0;
}

/**
 * The text of a YAML stream, able to tell where a JSON pointer is in one of its documents.
 *
 * It parses the text again on the first lookup instead of keeping the syntax trees of the first
 * parse: positions are needed only for findings, and holding every tree of a large manifest
 * tree until the end of a load costs more (in garbage collection) than the parse itself.
 */
export class YamlSource {
  #trees: { roots: (YamlNode | null)[]; lineCounter: LineCounter } | undefined;

  constructor(readonly text: string) {}

  /**
   * The position of the node at a pointer in the document with this index, or of its nearest
   * existing parent; with `part: 'key'`, of the last segment's key.
   */
  locate(index: number, pointer: string, part: 'key' | 'value' = 'value'): Position {
    const trees = (this.#trees ??= this.#parse());
    const root = trees.roots[index];
    if (root === undefined || root === null) return { line: 1, col: 1 };
    let node = root;
    const segments = parseJsonPointer(pointer);
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i] as string;
      node = derefAlias(root, node);
      let next: YamlNode | null | undefined;
      if (isMap(node)) {
        const pair = node.items.find((p) => keyMatches(p.key as YamlNode | null, segment));
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
    return trees.lineCounter.linePos(nodeStart(node));
  }

  #parse(): { roots: (YamlNode | null)[]; lineCounter: LineCounter } {
    const lineCounter = new LineCounter();
    // The same text parsed the same way: this cannot throw where the first parse did not.
    const roots = parseYamlStream(this.text, lineCounter).map((doc) => doc.contents);
    return { roots, lineCounter };
  }
}

/** Follows aliases to the nodes they stand for: the last anchor of that name before each. */
function derefAlias(root: YamlNode, node: YamlNode): YamlNode {
  let current = node;
  // Each hop goes to an earlier node, so a chain ends; the bound is only a guard.
  for (let hops = 0; isAlias(current) && hops < 1000; hops++) {
    const target = anchorBefore(root, current.source, nodeStart(current));
    if (target === undefined) break;
    current = target;
  }
  return current;
}

function anchorBefore(root: YamlNode, name: string, offset: number): YamlNode | undefined {
  let found: YamlNode | undefined;
  const visit = (node: unknown): void => {
    if (node === null || typeof node !== 'object') return;
    const yamlNode = node as YamlNode;
    if (nodeStart(yamlNode) >= offset) return;
    if (
      yamlNode.anchor === name &&
      (found === undefined || nodeStart(found) < nodeStart(yamlNode))
    ) {
      found = yamlNode;
    }
    if (isMap(yamlNode)) {
      for (const pair of yamlNode.items) {
        visit(pair.key);
        visit(pair.value);
      }
    } else if (isSeq(yamlNode)) {
      for (const item of yamlNode.items) visit(item);
    }
  };
  visit(root);
  return found;
}

function keyMatches(key: YamlNode | null, segment: string): boolean {
  if (key === null) return segment === '';
  if (!isScalar(key)) return false;
  const value = key.value;
  if (value === null) return segment === '';
  if (typeof value === 'string') return value === segment;
  return (typeof value === 'number' || typeof value === 'boolean') && String(value) === segment;
}
