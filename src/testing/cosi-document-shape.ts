import { isRecord } from '../engine/resource/plain-data.js';
import type { Pointer } from '../engine/resource/pointer.js';

/**
 * Said of an expectation written Kubernetes-shaped (`apiVersion`, `kind`, `metadata.name`, as
 * chainsaw's and kuttl's assert files are) of a resource of a cosi type, which has neither an
 * apiVersion nor a kind: it prints as `cosi get -o yaml` prints it (`metadata: { type, id }`), so
 * such an expectation can never match, and the diff alone does not say why. A clause for an
 * assertion message, or `''`.
 */
export function cosiDocumentShapeNote(
  actual: unknown,
  expected: unknown,
  pointer: Pointer,
): string {
  if (!isRecord(actual) || Object.hasOwn(actual, 'apiVersion') || !isRecord(expected)) return '';
  const metadata = isRecord(expected.metadata) ? expected.metadata : {};
  const kubernetesKeys = [
    ...['apiVersion', 'kind'].filter((key) => Object.hasOwn(expected, key)),
    ...['name'].filter((key) => Object.hasOwn(metadata, key)).map((key) => `metadata.${key}`),
  ];
  if (kubernetesKeys.length === 0) return '';
  return `; ${pointer.type} is a cosi type, with no apiVersion or kind: its document is matched as cosi get -o yaml prints it, so write metadata: { type: ${pointer.type}, id: ${pointer.id} } instead of ${kubernetesKeys.join(', ')}`;
}
