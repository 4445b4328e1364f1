import { isRecord } from '../engine/resource/plain-data.js';

/**
 * Said of an expectation of a Kubernetes object that names an owner the way cosi's own resources
 * print theirs (`{ type: Tenants.example.org, id: acme }`): the object prints its references as
 * kubectl does, so such an expectation can never match, and the diff alone does not say why.
 * A clause for an assertion message, or `''`.
 */
export function ownerReferenceShapeNote(actual: unknown, expected: unknown): string {
  if (!isRecord(actual) || typeof actual.apiVersion !== 'string') return '';
  const references =
    isRecord(expected) && isRecord(expected.metadata)
      ? expected.metadata.ownerReferences
      : undefined;
  if (!Array.isArray(references)) return '';
  const index = references.findIndex(
    (reference) =>
      isRecord(reference) &&
      (Object.hasOwn(reference, 'type') || Object.hasOwn(reference, 'id')) &&
      !Object.hasOwn(reference, 'kind'),
  );
  if (index < 0) return '';
  return `; metadata.ownerReferences.${index} names its owner by type and id, as cosi's own resources print theirs: a Kubernetes object's references are written as kubectl prints them (apiVersion, kind, name; the uid may be left out)`;
}
