import {
  RESOURCE_DEFINITION_TYPE,
  resourceDefinitionDefinition,
  type ResourceDefinition,
} from '../engine/resource/definition.js';
import { freezeCopy } from '../engine/resource/plain-data.js';
import { newResource, type Draft } from '../engine/resource/resource.js';
import { isUnreadDefinition } from '../loaders/kubernetes/unread-definitions.js';

/**
 * A definition as the state stores it: a resource of the `meta` namespace, as in COSI, so that
 * `cosi get rd` lists it; its id the type in lower case, its spec the definition (schema last).
 * A `--definitions` CRD that nothing used is stored without its schema and columns. The schema
 * is frozen once a definition: every world of `check --each` stores the same (a state shares
 * what is frozen), not a copy of a megabyte schema each.
 */
export function definitionResource(d: ResourceDefinition): Draft {
  const meta = {
    namespace: resourceDefinitionDefinition.defaultNamespace,
    type: RESOURCE_DEFINITION_TYPE,
    id: d.id,
  };
  if (isUnreadDefinition(d)) {
    // A `--definitions` CRD no document used: its names only, its file is never parsed.
    const {
      id: _id,
      schema: _schema,
      printColumns: _columns,
      ...names
    } = Object.getOwnPropertyDescriptors(d);
    const spec: Record<string, unknown> = {};
    for (const [key, descriptor] of Object.entries(names)) spec[key] = descriptor.value;
    return newResource(meta, spec);
  }
  const { id: _id, schema, ...spec } = d;
  return newResource(meta, schema ? { ...spec, schema: frozenSchema(schema) } : spec);
}

const frozenSchemas = new WeakMap<object, unknown>();

function frozenSchema(schema: object): unknown {
  let frozen = frozenSchemas.get(schema);
  if (frozen === undefined) {
    frozen = freezeCopy(schema);
    frozenSchemas.set(schema, frozen);
  }
  return frozen;
}
