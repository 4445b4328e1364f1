/**
 * A stored resource as the Kubernetes object CEL reads in an RGD's expressions: its document,
 * with the metadata an API server would have generated, made deterministic.
 */

import type { Resource } from '../engine/resource/resource.js';
import { isRecord } from '../engine/resource/plain-data.js';
import { objectUid } from '../engine/resource/object-uid.js';

type Spec = Record<string, unknown>;

/**
 * A resource as CEL sees it: the Kubernetes document, with the metadata the API server would
 * have generated, deterministic so that renders are reproducible: `uid` (from the type,
 * namespace and name), `generation` (the state's) and `resourceVersion` (the resource's version).
 */
export function documentOf(
  resource: Resource<Spec>,
  namespaced: boolean,
  rendered?: Record<string, unknown>,
): Record<string, unknown> {
  // Built key by key: spreading the frozen objects of the state is many times slower in V8.
  const { metadata } = resource;
  const documentMetadata: Record<string, unknown> = {};
  if (rendered && isRecord(rendered.metadata)) copyInto(documentMetadata, rendered.metadata);
  documentMetadata.name = metadata.id;
  // A cluster-scoped object has no namespace (cosi keeps it in `default`).
  if (namespaced) documentMetadata.namespace = metadata.namespace;
  else delete documentMetadata.namespace;
  // As cosi prints it (`metadata.uid`): a cluster-scoped object's is of no namespace.
  documentMetadata.uid = objectUid(
    metadata.type,
    namespaced ? metadata.namespace : undefined,
    metadata.id,
  );
  documentMetadata.generation = metadata.generation;
  documentMetadata.resourceVersion = String(metadata.version);
  // As the API server sets it, a metav1.Time: RFC 3339 to the second (the run's clock).
  documentMetadata.creationTimestamp = new Date(metadata.created)
    .toISOString()
    .replace(/\.\d+Z$/, 'Z');
  if (hasKeys(metadata.labels)) documentMetadata.labels = metadata.labels;
  if (hasKeys(metadata.annotations)) documentMetadata.annotations = metadata.annotations;
  const document: Record<string, unknown> = {};
  if (rendered) {
    document.apiVersion = rendered.apiVersion;
    document.kind = rendered.kind;
  }
  document.metadata = documentMetadata;
  copyInto(document, resource.spec);
  return document;
}

function copyInto(
  target: Record<string, unknown>,
  source: Readonly<Record<string, unknown>>,
): void {
  for (const key in source) {
    if (Object.prototype.hasOwnProperty.call(source, key)) target[key] = source[key];
  }
}

function hasKeys(record: Readonly<Record<string, unknown>>): boolean {
  for (const key in record) if (Object.prototype.hasOwnProperty.call(record, key)) return true;
  return false;
}
