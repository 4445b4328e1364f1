/**
 * The controllers of the kro ResourceGraphDefinitions in a project's manifests: one per RGD
 * whose graph compiled, registered beside the config's.
 */

import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import type { AnyController } from '../engine/runtime/controller.js';
import { createResourceGraphController } from '../controllers/resource-graph.js';
import { resourceGraphOf } from '../loaders/kro/resource-graph-definition.js';
import type { ManifestResource } from '../loaders/manifest-resource.js';

/** A controller for each RGD among the registry's definitions, watching its instances' namespaces. */
export function resourceGraphControllers(
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
  return controllers;
}
