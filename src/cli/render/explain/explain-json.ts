import type { Explanation } from '../../../app/explain/explain-resource.js';
import { toDocument } from '../../../app/output-document.js';

/**
 * `cosi explain -o json`: the explanation as data, the resource as `cosi get -o json` has it (a
 * sensitive type's without its spec).
 */
export function renderExplainJson(
  explanation: Explanation,
  options: { readonly stable?: boolean } = {},
): string {
  return `${JSON.stringify(explanationData(explanation, options), undefined, 2)}\n`;
}

/** The explanation as `-o json` and `-o yaml` print it. */
export function explanationData(
  explanation: Explanation,
  options: { readonly stable?: boolean } = {},
): Record<string, unknown> {
  const { resource, sensitive, ...rest } = explanation;
  const document = resource && toDocument(resource, undefined, options);
  if (document && sensitive === true) delete document.spec;
  return { ...(document ? { resource: document } : {}), ...rest };
}
