/**
 * The maps of labels the API server checks with `ValidateLabels` in Go (k8s.io/kubernetes
 * `pkg/apis/core/validation`): a Service's `selector` (`ValidateService`) and a pod spec's
 * `nodeSelector` (`ValidatePodSpec`). Each key is a qualified name and each value a label value
 * (`spec.selector: Invalid value: "my app": a valid label must be an empty string or ...`);
 * Go reports both at the map, cosi at the key or the value concerned. Each problem in the API
 * server's words.
 */

import { jsonPointer } from '../json-pointer.js';
import type { SchemaProblem } from '../schema-problem.js';
import { labelMapProblems } from './label-syntax.js';
import { podSpecPath, valueAtPath } from './pod-spec-paths.js';

/** The label map problems of a built-in document of `group`/`kind`. */
export function labelMapFieldProblems(
  document: Record<string, unknown>,
  group: string,
  kind: string,
): SchemaProblem[] {
  const specAt = podSpecPath(group, kind);
  const at =
    group === '' && kind === 'Service'
      ? ['spec', 'selector']
      : specAt === undefined
        ? undefined
        : [...specAt, 'nodeSelector'];
  if (at === undefined) return [];
  const problems: SchemaProblem[] = [];
  labelMapProblems(valueAtPath(document, at), at, (path, keyword, message) => {
    // A key's problem is the key's, where the source has it.
    const part = keyword === 'label-key' ? 'key' : 'value';
    problems.push({ path: jsonPointer(path), part, keyword, message });
  });
  return problems;
}
