/**
 * The controllers a project declares in its manifests rather than in its config: one per kro
 * ResourceGraphDefinition whose graph compiled, one per `Transforms.cosi.dev` document. They are
 * registered beside the config's, and `watch` starts the project again when they change.
 */

import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import type { AnyController } from '../engine/runtime/controller.js';
import { createDeclaredTransformController } from '../controllers/declared-transform.js';
import {
  createResourceGraphController,
  resourceGraphControllerName,
} from '../controllers/resource-graph.js';
import { hasExpressionNamespace } from '../controllers/compiled-resource-graph.js';
import { resourceGraphOf } from '../loaders/kro/resource-graph-definition.js';
import { declaredTransformsOf } from '../loaders/transforms/transform-document.js';
import type { ManifestResource } from '../loaders/manifest-resource.js';
import { OBSERVED_STATUS_TYPE } from '../engine/resource/observed-status.js';

/**
 * A controller for each RGD among the registry's definitions (watching its instances'
 * namespaces), then one for each transform the load declared.
 */
export function declaredControllers(
  registry: DefinitionRegistry,
  resources: readonly ManifestResource[],
  options: DeclaredControllerOptions = {},
): AnyController[] {
  const controllers: AnyController[] = [];
  // Observed statuses are read where they are, beside the instances' namespaces.
  const observedIn = resources
    .filter(({ resource }) => resource.metadata.type === OBSERVED_STATUS_TYPE)
    .map(({ resource }) => resource.metadata.namespace);
  const observe = options.observe === true || observedIn.length > 0;
  for (const definition of registry.all()) {
    const graph = resourceGraphOf(definition);
    if (graph === undefined) continue;
    const namespaces = new Set(['default']);
    // An external collection without a namespace lists every namespace the manifests use; an
    // externalRef whose namespace is an expression (`${schema.spec.targetNamespace}`, as kro's
    // docs write for a cluster-scoped RGD) may read any of them.
    const everywhere = graph.nodes.some(
      (n) =>
        n.external === true &&
        n.namespaced &&
        ((n.externalCollection === true && !hasLiteralNamespace(n.template)) ||
          hasExpressionNamespace(n)),
    );
    for (const { resource } of resources) {
      if (everywhere || resource.metadata.type === definition.type) {
        namespaces.add(resource.metadata.namespace);
      }
    }
    // An externalRef that names its namespace reads there.
    for (const node of graph.nodes) {
      const namespace = literalNamespace(node.template);
      if (node.external === true && node.namespaced && namespace !== undefined) {
        namespaces.add(namespace);
      }
    }
    for (const namespace of observedIn) namespaces.add(namespace);
    controllers.push(
      createResourceGraphController(graph, { namespaces: [...namespaces], observe }),
    );
  }
  for (const transform of declaredTransformsOf(registry)) {
    controllers.push(createDeclaredTransformController(transform));
  }
  return controllers;
}

/** Options of {@link declaredControllers}. */
export interface DeclaredControllerOptions {
  /**
   * RGD controllers read observed statuses (`cosi.dev/observed`) even when the manifests have
   * none yet: a test may apply one in a later step. Otherwise they read them only when the
   * manifests have one, so that a project without them is drawn without them.
   */
  readonly observe?: boolean;
}

/** A template's `metadata.namespace` when it is written out (no `${...}`). */
function literalNamespace(template: Readonly<Record<string, unknown>>): string | undefined {
  const metadata = template.metadata;
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const namespace = (metadata as Record<string, unknown>).namespace;
  return typeof namespace === 'string' && namespace !== '' && !namespace.includes('${')
    ? namespace
    : undefined;
}

function hasLiteralNamespace(template: Readonly<Record<string, unknown>>): boolean {
  const metadata = template.metadata;
  return (
    typeof metadata === 'object' &&
    metadata !== null &&
    typeof (metadata as Record<string, unknown>).namespace === 'string'
  );
}

/**
 * What the declared controllers were compiled from (each RGD's and transform's document as
 * written): a load with another key declares other controllers, so `watch` opens the project
 * again (a controller cannot be swapped on a running runtime).
 */
export function declaredControllersKey(registry: DefinitionRegistry): string {
  const sources: unknown[] = [];
  for (const definition of registry.all()) {
    const graph = resourceGraphOf(definition);
    if (graph !== undefined) sources.push(graph.source);
  }
  for (const transform of declaredTransformsOf(registry)) sources.push(transform.source);
  return JSON.stringify(sources);
}

/** One resource of an RGD, for `cosi graph`. */
export interface ResourceGraphDagNode {
  readonly id: string;
  /** The cosi type it produces (or reads, with `externalRef`). */
  readonly type: string;
  /** The ids it references: it is rendered after them. */
  readonly dependsOn: readonly string[];
  /** `includeWhen`, `readyWhen`, `forEach`, `externalRef`: what is special about it. */
  readonly notes: readonly string[];
}

/** An RGD's resources in the order its controller renders them (Kahn's order). */
export interface ResourceGraphDag {
  /** The RGD's controller. */
  readonly controller: string;
  readonly instanceType: string;
  readonly resources: readonly ResourceGraphDagNode[];
}

/** The resource DAG of each RGD among the registry's definitions, by controller name. */
export function resourceGraphDags(registry: DefinitionRegistry): ResourceGraphDag[] {
  const dags: ResourceGraphDag[] = [];
  for (const definition of registry.all()) {
    const graph = resourceGraphOf(definition);
    if (graph === undefined) continue;
    dags.push({
      controller: resourceGraphControllerName(graph),
      instanceType: graph.instanceType,
      resources: graph.nodes.map((node) => ({
        id: node.id,
        type: node.type,
        dependsOn: node.dependencies,
        notes: [
          ...(node.includeWhen.length > 0 ? ['includeWhen'] : []),
          ...(node.readyWhen.length > 0 ? ['readyWhen'] : []),
          ...(node.forEach === undefined ? [] : ['forEach']),
          ...(node.external === true ? ['externalRef'] : []),
          ...(node.externalCollection === true ? ['selector'] : []),
        ],
      })),
    });
  }
  return dags.sort((a, b) =>
    a.controller < b.controller ? -1 : a.controller > b.controller ? 1 : 0,
  );
}
