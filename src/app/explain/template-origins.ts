/**
 * Which template line made a field of a declarative controller's output: for `cosi explain`,
 * each field a kro RGD's controller or a `Transforms.cosi.dev` transform wrote is traced to the
 * template node (and the `${...}` expressions) it was rendered from, at `file:line:col`.
 */

import type { DefinitionRegistry } from '../../engine/resource/definition-registry.js';
import type { Resource } from '../../engine/resource/resource.js';
import { isKroChildLabel, NODE_LABEL } from '../../controllers/kro-labels.js';
import { resourceGraphControllerName } from '../../controllers/resource-graph.js';
import type { ResourceGraph } from '../../controllers/compiled-resource-graph.js';
import { templateOrigin, type TemplateOrigin } from '../../controllers/template-rendering.js';
import type { DeclaredTransform } from '../../controllers/declared-transform.js';
import { resourceGraphOf } from '../../loaders/kro/resource-graph-definition.js';
import { declaredTransformsOf } from '../../loaders/transforms/transform-document.js';

export type { TemplateOrigin } from '../../controllers/template-rendering.js';

/**
 * Where a field a declarative controller wrote came from: its template (the line, and the
 * expressions), or, for a field of a kro RGD's output its template does not write, the
 * defaults the API server gives its kind, or (its `status`) the observed status laid on it.
 */
export type FieldOrigin =
  | { readonly template: TemplateOrigin }
  | { readonly kindDefault: true }
  | { readonly observed: true };

/**
 * The origin of `field` (a JSON pointer into `{ metadata, spec }`) of `resource`, as written by
 * `controller`; `undefined` when the controller is not declarative or the field is none of its
 * template's (the labels and instance status kro's controller adds).
 */
export type TemplateOrigins = (
  controller: string,
  resource: Resource,
  field: string,
) => FieldOrigin | undefined;

/** The kro RGDs among the registry's definitions, by the name of the controller each runs. */
export function resourceGraphsOf(registry: DefinitionRegistry): Map<string, ResourceGraph> {
  const graphs = new Map<string, ResourceGraph>();
  for (const definition of registry.all()) {
    const graph = resourceGraphOf(definition);
    if (graph !== undefined) graphs.set(resourceGraphControllerName(graph), graph);
  }
  return graphs;
}

/** The template origins of the declarative controllers among the registry's definitions. */
export function templateOriginsOf(registry: DefinitionRegistry): TemplateOrigins {
  const graphs = resourceGraphsOf(registry);
  const transforms = new Map(declaredTransformsOf(registry).map((t) => [t.name, t]));
  return (controller, resource, field) => {
    const path = decodePointer(field);
    const graph = graphs.get(controller);
    if (graph !== undefined) return graphOrigin(graph, resource, path);
    const transform = transforms.get(controller);
    const template = transform === undefined ? undefined : transformOrigin(transform, path);
    return template === undefined ? undefined : { template };
  };
}

/** An RGD's output (by its `kro.run/node-id` label), or the status of one of its instances. */
function graphOrigin(
  graph: ResourceGraph,
  resource: Resource,
  path: readonly string[],
): FieldOrigin | undefined {
  if (resource.metadata.type === graph.instanceType) {
    if (path[0] !== 'spec' || path[1] !== 'status' || graph.locateStatus === undefined) {
      return undefined;
    }
    const statusPath = path.slice(2);
    if (statusPath[0] === 'conditions' && graph.conditions !== undefined) {
      // kro's custom conditions: the entries of `status.conditions` made them all.
      const [first] = graph.conditions;
      return first === undefined
        ? undefined
        : {
            template: {
              location: first.location,
              expressions: graph.conditions.map((entry) => entry.source),
            },
          };
    }
    // `state` and `conditions` are the controller's own, not the RGD's expressions.
    if (!graph.status.some((f) => String(f.path[0]) === statusPath[0])) return undefined;
    return { template: templateOrigin(graph.status, graph.locateStatus, statusPath) };
  }
  const node = graph.nodes.find((n) => n.id === resource.metadata.labels[NODE_LABEL]);
  if (node?.locate === undefined) return undefined;
  if (path[0] === 'spec') {
    const documentPath = path.slice(1);
    if (!templateWrites(node.template, node.fields, documentPath)) {
      // The cluster's: what it reports (an observed status), or what it defaults.
      return documentPath[0] === 'status' ? { observed: true } : { kindDefault: true };
    }
    return { template: templateOrigin(node.fields, node.locate, documentPath) };
  }
  const [, key, name] = path;
  if (path[0] !== 'metadata' || (key !== 'labels' && key !== 'annotations') || name === undefined) {
    return undefined;
  }
  if (isKroChildLabel(name)) return undefined;
  const written = (node.template.metadata as Record<string, unknown> | undefined)?.[key];
  if (typeof written !== 'object' || written === null || !(name in written)) {
    if (!node.fields.some((f) => f.path[0] === 'metadata' && f.path[1] === key)) return undefined;
  }
  return { template: templateOrigin(node.fields, node.locate, path) };
}

/**
 * Whether a template writes the field at `path` of its document: a literal there, or an
 * expression at it, above it (a list or map it renders whole) or below it.
 */
function templateWrites(
  template: Readonly<Record<string, unknown>>,
  fields: readonly { readonly path: readonly (string | number)[] }[],
  path: readonly string[],
): boolean {
  const rendered = fields.some((field) => {
    const length = Math.min(field.path.length, path.length);
    for (let i = 0; i < length; i++) if (String(field.path[i]) !== path[i]) return false;
    return true;
  });
  if (rendered) return true;
  let value: unknown = template;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return false;
    if (!Object.prototype.hasOwnProperty.call(value, key)) return false;
    value = (value as Record<string, unknown>)[key];
  }
  return true;
}

/** A transform's output: its spec and labels come from `output.spec` and `output.labels`. */
function transformOrigin(
  transform: DeclaredTransform,
  path: readonly string[],
): TemplateOrigin | undefined {
  if (transform.locate === undefined) return undefined;
  if (path[0] === 'spec' && path.length > 1) {
    return templateOrigin(transform.fields, transform.locate, path);
  }
  if (path[0] === 'metadata' && path[1] === 'labels' && path.length > 2) {
    return templateOrigin(transform.fields, transform.locate, ['labels', ...path.slice(2)]);
  }
  return undefined;
}

/** `/spec/a~1b/0` as `['spec', 'a/b', '0']`. */
function decodePointer(pointer: string): string[] {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
