import { outputYaml } from '../../../app/output-yaml.js';
import type { Explanation } from '../../../app/explain/explain-resource.js';
import { explanationData, type ExplainDataOptions } from './explain-json.js';

/** `cosi explain -o yaml`: the same data as `-o json`, as YAML (as `kubectl ... -o yaml`). */
export function renderExplainYaml(
  explanation: Explanation,
  options: ExplainDataOptions = {},
): string {
  // Through JSON, so that what JSON leaves out (an undefined) YAML leaves out too.
  const data = JSON.parse(JSON.stringify(explanationData(explanation, options))) as unknown;
  // As `cosi get -o yaml` writes it: a string a YAML 1.1 reader would take for a date is quoted.
  return outputYaml(data);
}
