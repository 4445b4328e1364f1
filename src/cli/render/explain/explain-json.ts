import type { Explanation } from '../../../app/explain/explain-resource.js';
import { toDocument, type DocumentOptions } from '../../../app/output-document.js';
import type { ResourceDefinition } from '../../../engine/resource/definition.js';

/**
 * How `-o json` and `-o yaml` print the resource: `stable` timestamps; its type's `definition`
 * and the `ownerKinds` of its references, so that a Kubernetes object prints as `cosi get -o yaml`
 * prints it (apiVersion, kind, metadata.uid, owner references as kubectl's).
 */
export interface ExplainDataOptions extends Pick<DocumentOptions, 'stable' | 'ownerKinds'> {
  readonly definition?: ResourceDefinition;
}

/**
 * `cosi explain -o json`: the explanation as data, the resource as `cosi get -o json` has it (a
 * sensitive type's without its spec).
 */
export function renderExplainJson(
  explanation: Explanation,
  options: ExplainDataOptions = {},
): string {
  return `${JSON.stringify(explanationData(explanation, options), undefined, 2)}\n`;
}

/** The explanation as `-o json` and `-o yaml` print it. */
export function explanationData(
  explanation: Explanation,
  options: ExplainDataOptions = {},
): Record<string, unknown> {
  const { resource, sensitive, ...rest } = explanation;
  const { definition, ...documentOptions } = options;
  const document = resource && toDocument(resource, definition, documentOptions);
  if (document && sensitive === true) delete document.spec;
  return { ...(document ? { resource: document } : {}), ...rest };
}
