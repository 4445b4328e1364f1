import {
  RESOURCE_DEFINITION_TYPE,
  resourceDefinitionDefinition,
  type ResourceDefinition,
} from '../engine/resource/definition.js';
import { freezeCopy } from '../engine/resource/plain-data.js';
import { newResource, type Draft } from '../engine/resource/resource.js';
import { isUnreadDefinition } from '../loaders/kubernetes/unread-definitions.js';
import { resourceGraphOf } from '../loaders/kro/resource-graph-definition.js';

/**
 * A definition as the state stores it: a resource of the `meta` namespace, as in COSI, so that
 * `cosi get rd` lists it; its id the type in lower case, its spec the definition (schema last).
 * A `--definitions` CRD that nothing used is stored without its schema and columns. The kind of
 * a kro RGD holds its graph too (`resourceGraph`: the RGD's name, `spec.resources` and
 * `spec.schema.status` as written), as kro keeps the RGD in the cluster: what its controller
 * renders is then part of what `cosi diff` compares. The schema
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
  const { id: _id, schema, ...fields } = d;
  const graph = storedGraph(d);
  const spec = graph === undefined ? fields : { ...fields, resourceGraph: graph };
  return newResource(meta, schema ? { ...spec, schema: frozenSchema(schema) } : spec);
}

/**
 * What an RGD's kind stores of its graph: the RGD's name and the parts of its document the
 * definition's other fields do not hold (the templates, the status expressions); none for a kind
 * no RGD defines.
 */
export function storedGraph(d: ResourceDefinition): Record<string, unknown> | undefined {
  const graph = resourceGraphOf(d);
  if (graph === undefined) return undefined;
  const spec = field(graph.source, 'spec');
  const resources = field(spec, 'resources');
  const status = field(field(spec, 'schema'), 'status');
  return {
    name: graph.name,
    ...(resources === undefined ? {} : { resources }),
    ...(status === undefined ? {} : { status }),
  };
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)[key]
    : undefined;
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
