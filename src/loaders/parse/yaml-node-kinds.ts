/** What a node of yaml's syntax tree is, for the document reader and the data builder. */

import { isMap, isScalar, type Node as YamlNode } from 'yaml';

/**
 * Whether a node is a Go template expression as YAML reads one: `{{ .x }}` is a flow mapping
 * whose one key is a flow mapping, with no value (data never needs such a key).
 */
export function isTemplateExpression(node: YamlNode): boolean {
  if (!isMap(node) || !node.flow || node.items.length !== 1) return false;
  const [pair] = node.items;
  return pair !== undefined && isMap(pair.key) && pair.key.flow === true && pair.value === null;
}

/**
 * Whether a document's root has an `apiVersion` and a `kind`, as a Kubernetes object has: its
 * plain scalars are then read as kubectl reads them (see `DataBuilder`'s `kubectlScalars`).
 */
export function isKubernetesRoot(root: YamlNode): boolean {
  if (!isMap(root)) return false;
  let apiVersion = false;
  let kind = false;
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? pair.key.value : undefined;
    const isString = isScalar(pair.value) && typeof pair.value.value === 'string';
    if (key === 'apiVersion') apiVersion = isString;
    else if (key === 'kind') kind = isString;
  }
  return apiVersion && kind;
}

/** A document with nothing in it (`---` alone, or only comments). */
export function isEmptyScalar(node: YamlNode): boolean {
  return (
    isScalar(node) &&
    node.value === null &&
    node.source === '' &&
    node.tag === undefined &&
    node.anchor === undefined
  );
}
