import type { Explanation } from '../../../app/explain/explain-resource.js';
import { renderExplainDot } from './explain-dot.js';
import { renderExplainJson, type ExplainDataOptions } from './explain-json.js';
import { renderExplainTree } from './explain-tree.js';
import { renderExplainYaml } from './explain-yaml.js';

import type { ExplainFormat } from './explain-formats.js';

export { EXPLAIN_FORMATS, type ExplainFormat } from './explain-formats.js';

/** An explanation in one of the `-o` formats. */
export function renderExplanation(
  explanation: Explanation,
  format: ExplainFormat,
  options: ExplainDataOptions = {},
): string {
  switch (format) {
    case 'tree':
      return renderExplainTree(explanation);
    case 'json':
      return renderExplainJson(explanation, options);
    case 'yaml':
      return renderExplainYaml(explanation, options);
    case 'dot':
      return renderExplainDot(explanation);
  }
}
