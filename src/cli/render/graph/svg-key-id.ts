/** What starts the SVG id of a node or cluster that carries its key. */
export const KEY_ID_PREFIX = 'cosi-';

/**
 * The SVG id of a node or cluster, carrying its key (`resource:default/VMs.example.org/a\b`) as
 * the hex of its UTF-8 bytes. The `<title>` Graphviz writes is not the key for every key: it
 * keeps a DOT name's `\\` doubled and reads `&amp;` as an entity. Hex passes through DOT,
 * Graphviz and XML unchanged, so a page finds the key of a clicked node exactly.
 */
export function svgKeyId(key: string): string {
  return KEY_ID_PREFIX + Buffer.from(key, 'utf8').toString('hex');
}
