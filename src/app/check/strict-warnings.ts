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
 * manifest resources of cosi types no controller reads (nothing will act on them).
 */
export function strictWarnings(
  resources: readonly ManifestResource[],
  graph: DependencyGraph | undefined,
): Finding<CheckCode>[] {
  const findings: Finding<CheckCode>[] = [];
  const read = new Set(graph?.edges.filter((e) => !isOutputKind(e.kind)).map((e) => e.type) ?? []);
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
    if (
      graph &&
      definition.kubernetes === undefined &&
      !read.has(definition.type) &&
      !reported.has(`${source.file}\0${definition.type}`)
    ) {
      reported.add(`${source.file}\0${definition.type}`);
      findings.push({
        code: 'unread-type',
        severity: 'warning',
        message: `no controller reads ${definition.type}: resources of this type have no effect`,
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
