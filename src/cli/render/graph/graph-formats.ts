/** The formats of `cosi graph -o` (apart from the renderers: help lists them without loading those). */
export const GRAPH_FORMATS = ['text', 'tree', 'dot', 'svg', 'mermaid', 'json'] as const;
export type GraphFormat = (typeof GRAPH_FORMATS)[number];
