/**
 * Where nodes of yaml's syntax tree start, and the keys of its mappings as JSON pointers name
 * them: what the first parse records of a document (`yaml-source.ts`, `list-item-starts.ts`) so
 * that its positions are found later without a second parse.
 */
import { isMap, isScalar, type YAMLMap, type Node as YamlNode } from 'yaml';

/** Where a node starts. */
export function nodeStart(node: YamlNode): number {
  return node.range?.[0] ?? 0;
}

/**
 * Where the values of `kind` and `metadata.name` start in a document's root, when they are
 * scalars (not aliases, nor under one): the places `YamlSource.locate` then answers
 * without a parse, as a parse of the document would.
 */
export function headerStarts(root: YamlNode | null): { kindStart?: number; nameStart?: number } {
  if (!isMap(root)) return {};
  const kind = firstValue(root, 'kind');
  const metadata = firstValue(root, 'metadata');
  const name = isMap(metadata) ? firstValue(metadata, 'name') : undefined;
  return {
    ...(isScalar(kind) ? { kindStart: nodeStart(kind) } : {}),
    ...(isScalar(name) ? { nameStart: nodeStart(name) } : {}),
  };
}

/** The value of a mapping's first pair with this key, as `YamlSource`'s key index finds it. */
export function firstValue(map: YAMLMap, key: string): YamlNode | null | undefined {
  for (const pair of map.items) {
    const k = pair.key as YamlNode | null;
    if (keyString(k) === key) return pair.value as YamlNode | null;
  }
  return undefined;
}

/** A mapping key as a JSON pointer segment names it, if it is a scalar. */
export function keyString(key: YamlNode | null): string | undefined {
  if (key === null) return '';
  if (!isScalar(key)) return undefined;
  const value = key.value;
  if (value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}
