import {
  RESOURCE_DEFINITION_TYPE,
  resourceDefinitionDefinition,
  type ResourceDefinition,
} from '../engine/resource/definition.js';
import { newResource, type Draft } from '../engine/resource/resource.js';

/**
 * A definition as the state stores it: a resource of the `meta` namespace, as in COSI, so that
 * `cosi get rd` lists it; its id the type in lower case, its spec the definition (schema last).
 */
export function definitionResource(d: ResourceDefinition): Draft {
  const { id, schema, ...spec } = d;
  return newResource(
    {
      namespace: resourceDefinitionDefinition.defaultNamespace,
      type: RESOURCE_DEFINITION_TYPE,
      id,
    },
    schema ? { ...spec, schema } : spec,
  );
}
