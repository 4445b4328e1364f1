/**
 * An RGD's `externalRef`s: the existing resources a render reads and never writes, found by
 * name or, for an external collection, by a label selector.
 */

import type { Resource } from '../engine/resource/resource.js';
import { deepClone, isRecord } from '../engine/resource/plain-data.js';
import type { QRuntime } from '../engine/runtime/controller.js';
import type { GraphNode } from './compiled-resource-graph.js';
import { documentOf } from './api-object-document.js';
import { labelSelectorQuery } from './label-selector-query.js';

type Spec = Record<string, unknown>;

export async function findExternal(
  rt: QRuntime,
  node: GraphNode,
  ref: Record<string, unknown>,
  instance: Resource<Spec>,
): Promise<Resource<Spec> | undefined> {
  const metadata = isRecord(ref.metadata) ? ref.metadata : {};
  if (typeof metadata.name !== 'string') return undefined;
  const namespace = !node.namespaced
    ? 'default'
    : (givenNamespace(metadata) ?? instance.metadata.namespace);
  return rt.find<Spec>({ namespace, type: node.type, id: metadata.name });
}

/**
 * The namespace a rendered template or externalRef names; `undefined` when it names none or
 * `""`, which kro's `normalizeNamespaces` fills with the instance's, as for one left out.
 */
export function givenNamespace(metadata: Readonly<Record<string, unknown>>): string | undefined {
  return typeof metadata.namespace === 'string' && metadata.namespace !== ''
    ? metadata.namespace
    : undefined;
}

/**
 * The resources an external collection selects (see {@link GraphNode.externalCollection}), as
 * CEL sees them, or why its rendered selector selects nothing (kro's `invalid label selector`).
 */
export async function findExternalCollection(
  rt: QRuntime,
  node: GraphNode,
  ref: unknown,
  namespaces: readonly string[],
): Promise<Record<string, unknown>[] | { error: string }> {
  const r = isRecord(ref) ? ref : {};
  const metadata = isRecord(r.metadata) ? r.metadata : {};
  const query = labelSelectorQuery(metadata.selector);
  if ('error' in query) return { error: `invalid label selector: ${query.error}` };
  const namespace = givenNamespace(metadata);
  const searched = !node.namespaced
    ? ['default']
    : namespace !== undefined
      ? [namespace]
      : namespaces;
  const kind = { apiVersion: r.apiVersion, kind: r.kind };
  const found: Resource<Spec>[] = [];
  for (const ns of searched) {
    found.push(
      ...(await rt.list<Spec>({ namespace: ns, type: node.type }, { labelQueries: [query] })),
    );
  }
  found.sort(
    (a, b) =>
      compare(a.metadata.namespace, b.metadata.namespace) || compare(a.metadata.id, b.metadata.id),
  );
  return found.map((resource) => readExternal(node, documentOf(resource, node.namespaced, kind)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function describeRef(ref: unknown): string {
  const r = isRecord(ref) ? ref : {};
  const metadata = isRecord(r.metadata) ? r.metadata : {};
  const namespace = givenNamespace(metadata);
  return `${String(r.kind)} ${namespace !== undefined ? `${namespace}/` : ''}${String(metadata.name)}`;
}

/** What an externalRef reads of a document, as the API server stores the object. */
export function readExternal(
  node: GraphNode,
  document: Record<string, unknown>,
): Record<string, unknown> {
  return node.read === undefined ? document : node.read(deepClone(document));
}
