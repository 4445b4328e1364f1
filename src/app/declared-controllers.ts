/**
 * The controllers a project declares in its manifests rather than in its config: one per kro
 * ResourceGraphDefinition whose graph compiled, one per `Transforms.cosi.dev` document. They are
 * registered beside the config's, and `watch` starts the project again when they change.
 */

import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import type { AnyController } from '../engine/runtime/controller.js';
import { createDeclaredTransformController } from '../controllers/declared-transform.js';
import { createResourceGraphController } from '../controllers/resource-graph.js';
import { resourceGraphOf } from '../loaders/kro/resource-graph-definition.js';
import { declaredTransformsOf } from '../loaders/transforms/transform-document.js';
import type { ManifestResource } from '../loaders/manifest-resource.js';

/**
 * A controller for each RGD among the registry's definitions (watching its instances'
 * namespaces), then one for each transform the load declared.
 */
export function declaredControllers(
  registry: DefinitionRegistry,
  resources: readonly ManifestResource[],
): AnyController[] {
  const controllers: AnyController[] = [];
  for (const definition of registry.all()) {
    const graph = resourceGraphOf(definition);
    if (graph === undefined) continue;
    const namespaces = new Set(['default']);
    for (const { resource } of resources) {
      if (resource.metadata.type === definition.type) namespaces.add(resource.metadata.namespace);
    }
    controllers.push(createResourceGraphController(graph, { namespaces: [...namespaces] }));
  }
  for (const transform of declaredTransformsOf(registry)) {
    controllers.push(createDeclaredTransformController(transform));
  }
  return controllers;
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
