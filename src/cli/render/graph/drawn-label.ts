/**
 * The most characters (code points) a resource's label shows in a drawing (DOT, SVG, Mermaid,
 * the report's graph). A Kubernetes name may be 253 characters: drawn whole, one such node is
 * as wide as a screen and Graphviz shrinks every other node to fit it, unreadable.
 */
export const MAX_DRAWN_LABEL = 64;

/** What the cut keeps of the end: the part that tells generated names apart (`-7f9c8`, `-2`). */
const KEPT_END = 23;

/**
 * A resource's `namespace/id` as drawn: whole up to {@link MAX_DRAWN_LABEL} characters, else cut
 * in the middle with `…`, keeping its start and its end. The node's name (Graphviz's `<title>`,
 * the tooltip a browser shows) and every text format keep the whole id.
 */
export function drawnLabel(text: string): string {
  const chars = Array.from(text);
  if (chars.length <= MAX_DRAWN_LABEL) return text;
  const head = MAX_DRAWN_LABEL - KEPT_END - 1;
  return `${chars.slice(0, head).join('')}…${chars.slice(chars.length - KEPT_END).join('')}`;
}
