/**
 * The CustomResourceDefinition kro generates for an RGD's kind, as the API server holds it once
 * it is established (see kro's `pkg/graph/crd`): the kind's names, scope, one served and stored
 * version with the status subresource, the instance schema, kro's printer columns (State, Ready,
 * Age) unless the RGD names its own, and the status the API server writes (NamesAccepted,
 * Established). kro's e2e suites assert it (instancecrd-assert.yaml); cosi registers the kind
 * itself and keeps no CRD object, so this is what a scenario's `expect` of it is matched against.
 *
 * The status schema is the instance type's: the fields of the RGD's `spec.schema.status`, typed
 * from their expressions (`status-schema.ts`), with kro's `state` and `conditions`.
 */
import pluralize from 'pluralize';
import type { ResourceGraph } from '../../controllers/compiled-resource-graph.js';
import type { JsonSchema } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';
import { instanceStatusSchema } from './status-schema.js';

const DEFAULT_PRINTER_COLUMNS = [
  {
    name: 'State',
    description: 'The state of a ResourceGraphDefinition instance',
    type: 'string',
    jsonPath: '.status.state',
  },
  {
    name: 'Ready',
    description: 'Whether a ResourceGraphDefinition instance is ready',
    type: 'string',
    jsonPath: '.status.conditions[?(@.type=="Ready")].status',
  },
  {
    name: 'Age',
    description: 'Age of the resource',
    type: 'date',
    jsonPath: '.metadata.creationTimestamp',
  },
];

/** The generated CRD's name (`webapps.kro.run`), or `undefined` when the graph has no kind. */
export function rgdCrdName(graph: ResourceGraph): string | undefined {
  const kind = graph.instanceKind;
  if (kind === undefined) return undefined;
  const group = kind.apiVersion.slice(0, kind.apiVersion.lastIndexOf('/'));
  return `${plural(kind.kind)}.${group}`;
}

/**
 * The CRD kro generates for the graph's kind; `spec` and `status` are the instance schema's
 * (kro's `state` and `conditions` alone when `status` is not given).
 */
export function rgdCrd(
  graph: ResourceGraph,
  spec: JsonSchema | undefined,
  status: JsonSchema = instanceStatusSchema([]),
): Record<string, unknown> | undefined {
  const instance = graph.instanceKind;
  const name = rgdCrdName(graph);
  if (instance === undefined || name === undefined) return undefined;
  const cut = instance.apiVersion.lastIndexOf('/');
  const group = instance.apiVersion.slice(0, cut);
  const version = instance.apiVersion.slice(cut + 1);
  const source = isPlainObject(graph.source) ? graph.source : {};
  const rgdSpec = isPlainObject(source.spec) ? source.spec : {};
  const schema = isPlainObject(rgdSpec.schema) ? rgdSpec.schema : {};
  const meta = isPlainObject(schema.metadata) ? schema.metadata : {};
  const names: Record<string, unknown> = {
    kind: instance.kind,
    listKind: `${instance.kind}List`,
    plural: plural(instance.kind),
    singular: instance.kind.toLowerCase(),
    ...(nonEmpty(schema.shortNames) ? { shortNames: schema.shortNames } : {}),
    ...(nonEmpty(schema.categories) ? { categories: schema.categories } : {}),
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: {
      name,
      generation: 1,
      ...(isPlainObject(meta.labels) && Object.keys(meta.labels).length > 0
        ? { labels: meta.labels }
        : {}),
      ...(isPlainObject(meta.annotations) && Object.keys(meta.annotations).length > 0
        ? { annotations: meta.annotations }
        : {}),
    },
    spec: {
      conversion: { strategy: 'None' },
      group,
      names,
      scope: instance.namespaced ? 'Namespaced' : 'Cluster',
      versions: [
        {
          additionalPrinterColumns: nonEmpty(schema.additionalPrinterColumns)
            ? schema.additionalPrinterColumns
            : DEFAULT_PRINTER_COLUMNS,
          name: version,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                apiVersion: { type: 'string' },
                kind: { type: 'string' },
                metadata: { type: 'object' },
                spec: spec ?? { type: 'object' },
                status,
              },
            },
          },
          served: true,
          storage: true,
          subresources: { status: {} },
        },
      ],
    },
    status: {
      acceptedNames: names,
      conditions: [
        {
          type: 'NamesAccepted',
          status: 'True',
          reason: 'NoConflicts',
          message: 'no conflicts found',
        },
        {
          type: 'Established',
          status: 'True',
          reason: 'InitialNamesAccepted',
          message: 'the initial names have been accepted',
        },
      ],
      storedVersions: [version],
    },
  };
}

function plural(kind: string): string {
  return pluralize.plural(kind).toLowerCase();
}

function nonEmpty(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.length > 0;
}
