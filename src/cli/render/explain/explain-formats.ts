/** The formats of `cosi explain -o` (apart from the renderers: help lists them without loading those). */
export const EXPLAIN_FORMATS = ['tree', 'json', 'yaml', 'dot'] as const;
export type ExplainFormat = (typeof EXPLAIN_FORMATS)[number];
