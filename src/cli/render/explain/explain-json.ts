import type { Explanation } from '../../../app/explain/explain-resource.js';
import { toDocument } from '../../../app/output-document.js';

/** `cosi explain -o json`: the explanation as data, the resource as `cosi get -o json` has it. */
export function renderExplainJson(
  explanation: Explanation,
  options: { readonly stable?: boolean } = {},
): string {
  const { resource, ...rest } = explanation;
  const data = {
    ...(resource ? { resource: toDocument(resource, undefined, options) } : {}),
    ...rest,
  };
  return `${JSON.stringify(data, undefined, 2)}\n`;
}
