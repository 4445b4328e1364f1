import type { DefinitionRegistry } from '../../engine/resource/definition-registry.js';
import type { DocumentHeader } from './finding-excerpt.js';

/**
 * Whether a document is of a type declared `sensitivity: sensitive`, by its `metadata.type` (the
 * type or any alias, any case: an ambiguous alias counts when one of its types is sensitive) or
 * its Kubernetes `apiVersion` and `kind`. None when no type is sensitive.
 */
export function sensitiveDocuments(
  registry: DefinitionRegistry,
): ((header: DocumentHeader) => boolean) | undefined {
  const sensitive = registry.all().filter((d) => d.sensitivity === 'sensitive');
  if (sensitive.length === 0) return undefined;
  return ({ type, apiVersion, kind }) =>
    sensitive.some(
      (d) =>
        (type !== undefined &&
          (type.toLowerCase() === d.type.toLowerCase() ||
            d.allAliases.includes(type.toLowerCase()))) ||
        (d.kubernetes !== undefined &&
          d.kubernetes.apiVersion === apiVersion &&
          d.kubernetes.kind === kind),
    );
}
