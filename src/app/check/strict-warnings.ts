import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { DependencyGraph } from '../../engine/runtime/dependency-graph.js';
import { isOutputKind } from '../../engine/runtime/controller.js';
import { jsonPointer } from '../../loaders/json-pointer.js';
import type { ManifestResource } from '../../loaders/manifest-resource.js';
import { isPlainObject } from '../../loaders/manifest-document.js';
import type { Finding } from '../../loaders/finding.js';
import type { CheckCode } from './check-result.js';

/**
 * Warnings that `--strict` turns into failures: spec fields a type's schema does not declare, and
 * manifest resources of cosi types no controller reads, in their namespace (nothing will act on
 * them: a controller's input names the namespace it reads).
 */
export function strictWarnings(
  resources: readonly ManifestResource[],
  graph: DependencyGraph | undefined,
): Finding<CheckCode>[] {
  const findings: Finding<CheckCode>[] = [];
  // The namespaces each type is read in (`undefined`: every one).
  const read = new Map<string, Set<string | undefined>>();
  for (const edge of graph?.edges ?? []) {
    if (isOutputKind(edge.kind)) continue;
    let namespaces = read.get(edge.type);
    if (namespaces === undefined) read.set(edge.type, (namespaces = new Set()));
    namespaces.add(edge.namespace);
  }
  const reported = new Set<string>();
  for (const item of resources) {
    const { source, definition, resource } = item;
    for (const pointer of unknownFields(definition, resource.spec)) {
      // At the field itself when the resource can say where it is.
      const at = item.locate?.(pointer, 'key') ?? source;
      findings.push({
        code: 'unknown-field',
        severity: 'warning',
        message: `field ${pointer} is not declared in the schema of ${definition.type}`,
        file: source.file,
        line: at.line,
        col: at.col,
        pointer,
      });
    }
    // A Kubernetes kind is read by the cluster's controllers, not only by the project's: a
    // plain Deployment with no cosi controller is the usual case, not a mistake.
    const namespace = resource.metadata.namespace;
    const readIn = read.get(definition.type);
    const unread = readIn === undefined || !(readIn.has(undefined) || readIn.has(namespace));
    const key = `${source.file}\0${definition.type}\0${readIn === undefined ? '' : namespace}`;
    if (graph && definition.kubernetes === undefined && unread && !reported.has(key)) {
      reported.add(key);
      // Read in other namespaces only: a controller's input names one (`App.namespace`).
      const elsewhere =
        readIn === undefined
          ? ''
          : ` in namespace ${namespace} (they read it in ${[...readIn].sort().join(', ')})`;
      findings.push({
        code: 'unread-type',
        severity: 'warning',
        message: `no controller reads ${definition.type}${elsewhere}: resources of this type${elsewhere === '' ? '' : ' there'} have no effect`,
        file: source.file,
        line: source.line,
        col: source.col,
        pointer: '/metadata/type',
      });
    }
  }
  return findings;
}

/** JSON pointers of object keys that the schema's `properties` do not name, recursively. */
function unknownFields(definition: ResourceDefinition, spec: unknown): string[] {
  const out: string[] = [];
  // A Kubernetes-shaped type's undeclared fields are errors of the load already (as the API
  // server prunes them), and its schema describes the whole document, not the spec.
  if (definition.kubernetes) return out;
  if (definition.schema) walk(definition.schema, spec, '/spec', out);
  return out;
}

function walk(schema: unknown, value: unknown, pointer: string, out: string[]): void {
  if (!isPlainObject(schema)) return;
  if (isPlainObject(value) && isPlainObject(schema.properties)) {
    const properties = schema.properties;
    for (const key of Object.keys(value)) {
      const child = pointer + jsonPointer([key]);
      if (Object.prototype.hasOwnProperty.call(properties, key))
        walk(properties[key], value[key], child, out);
      else if (schema.additionalProperties === undefined) out.push(child);
    }
  }
  if (Array.isArray(value) && isPlainObject(schema.items)) {
    value.forEach((item, i) => walk(schema.items, item, `${pointer}/${i}`, out));
  }
}
