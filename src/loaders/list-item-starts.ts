/**
 * Where each item of a `kind: List` document starts (`kubectl get -A -o json` writes one of
 * 76,000 items), and where its `kind` and `metadata.name` values start: the places a check reports
 * each item at, taken from the first parse so that a clean list is never parsed a second time for
 * them (that parse, of the whole list, cost as much again and its syntax tree was kept, hundreds of
 * megabytes, for as long as the resources were).
 */
import { isMap, isScalar, isSeq, type Node as YamlNode } from 'yaml';
import { firstValue, headerStarts, nodeStart } from './yaml-node-starts.js';

/** The numbers kept per item: its start, then its kind's and its name's (0 when not seen). */
export const ITEM_STRIDE = 3;

/**
 * The starts of a list document's items (see {@link ITEM_STRIDE}), when its root is a mapping
 * whose scalar `kind` ends in `List` and whose `items` is a sequence written out (not an alias).
 */
export function listItemStarts(root: YamlNode | null): Uint32Array | undefined {
  if (!isMap(root)) return undefined;
  const kind = firstValue(root, 'kind');
  if (!isScalar(kind) || typeof kind.value !== 'string' || !kind.value.endsWith('List')) {
    return undefined;
  }
  const items = firstValue(root, 'items');
  if (!isSeq(items)) return undefined;
  const starts = new Uint32Array(items.items.length * ITEM_STRIDE);
  items.items.forEach((item, i) => {
    const node = item as YamlNode | null;
    if (node === null) return;
    const { kindStart, nameStart } = headerStarts(node);
    starts[i * ITEM_STRIDE] = nodeStart(node);
    starts[i * ITEM_STRIDE + 1] = kindStart ?? 0;
    starts[i * ITEM_STRIDE + 2] = nameStart ?? 0;
  });
  return starts;
}

/** `/items/N`, `/items/N/kind` or `/items/N/metadata/name`: the item, and which start (0-2). */
const ITEM_POINTER = /^\/items\/(0|[1-9]\d*)(\/kind|\/metadata\/name)?$/;

/**
 * The offset a list's item starts give for a pointer, or 0 when they do not hold it (another
 * pointer, an item past the list, a value that was not a scalar).
 */
export function itemStart(starts: Uint32Array, pointer: string): number {
  const match = ITEM_POINTER.exec(pointer);
  if (match === null) return 0;
  const at = Number(match[1]) * ITEM_STRIDE;
  if (at >= starts.length) return 0;
  const field = match[2] === undefined ? 0 : match[2] === '/kind' ? 1 : 2;
  return starts[at + field] ?? 0;
}
