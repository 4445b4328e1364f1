import { stringify } from 'yaml';
import type { Explanation } from '../../../app/explain/explain-resource.js';
import { explanationData } from './explain-json.js';

/** `cosi explain -o yaml`: the same data as `-o json`, as YAML (as `kubectl ... -o yaml`). */
export function renderExplainYaml(
  explanation: Explanation,
  options: { readonly stable?: boolean } = {},
): string {
  // Through JSON, so that what JSON leaves out (an undefined) YAML leaves out too.
  const data = JSON.parse(JSON.stringify(explanationData(explanation, options))) as unknown;
  return stringify(data);
}
