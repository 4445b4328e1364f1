/** The formats of `cosi explain -o` (apart from the renderers: help lists them without loading those). */
export const EXPLAIN_FORMATS = ['tree', 'json', 'yaml', 'dot'] as const;
export type ExplainFormat = (typeof EXPLAIN_FORMATS)[number];

/** The `-o` value with kubectl explain's name of its default format, `plaintext`, read as the tree. */
export function explainOutput(output: string): string {
  return output === 'plaintext' ? 'tree' : output;
}
