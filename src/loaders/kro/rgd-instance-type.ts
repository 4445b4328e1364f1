/**
 * An RGD's `spec.schema` read as the type of its instances: SimpleSchema (`simple-schema.ts`)
 * under `spec`, with the group (`spec.schema.group`, `kro.run` by default), version
 * (`spec.schema.apiVersion`), kind (`spec.schema.kind`) and scope kro gives the CRD it generates.
 * Its status is open until the graph is compiled (`instance-status.ts` types it then).
 */

import pluralize from 'pluralize';
import {
  createDefinition,
  DefinitionError,
  type JsonSchema,
  type ResourceDefinition,
} from '../../engine/resource/definition.js';
import type { CelRules } from '../cel/cel-rule-engine.js';
import { checkDefinitionSchema } from '../definition-schema.js';
import type { DocumentReport } from '../document-report.js';
import { jsonPointer, parseJsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import { instancePrintColumns } from './printer-columns.js';
import type { SchemaCompiler } from '../schema-compiler.js';
import { camelPlural } from '../kubernetes/crd-definitions.js';
import { findStructuralProblems } from '../kubernetes/structural-check.js';
import { findInvalidDefaults } from '../kubernetes/invalid-defaults.js';
import { SimpleSchemaReader } from './simple-schema.js';

/** The group of an RGD's kind unless `spec.schema.group` says. */
export const KRO_GROUP = 'kro.run';

/** An RGD whose type is read; its graph is compiled once every kind of the load is known. */
export interface ReadRgd {
  readonly definition: ResourceDefinition;
  readonly value: Record<string, unknown>;
  readonly report: DocumentReport;
  readonly name: string;
}

/** How RGDs are read. */
export interface RgdReadOptions {
  readonly celRules: () => CelRules;
  readonly kubernetesVersion?: string;
}

/** The kinds RGDs define: a template of one is a nested instance. */
const rgdKinds = new WeakSet<ResourceDefinition>();

/** Whether a definition is the instance type of an RGD: a template of one is a nested instance. */
export function isRgdKind(definition: ResourceDefinition): boolean {
  return rgdKinds.has(definition);
}

/**
 * Reads an RGD's type: `undefined` (with `rgd-bad-schema` findings) when its schema is refused.
 */
export function readRgd(
  value: Record<string, unknown>,
  name: string | undefined,
  report: DocumentReport,
  compiler: SchemaCompiler,
  options: RgdReadOptions,
): ReadRgd | undefined {
  const spec = isPlainObject(value.spec) ? value.spec : undefined;
  const schemaSpec = spec !== undefined && isPlainObject(spec.schema) ? spec.schema : undefined;
  if (schemaSpec === undefined) {
    report.add('rgd-bad-schema', '/spec', 'a ResourceGraphDefinition needs spec.schema');
    return undefined;
  }
  const bad = (path: (string | number)[], message: string): undefined => {
    report.add('rgd-bad-schema', jsonPointer(path), message);
    return undefined;
  };
  const kind = schemaSpec.kind;
  const version = schemaSpec.apiVersion;
  const group = schemaSpec.group ?? KRO_GROUP;
  if (typeof kind !== 'string' || !/^[A-Z][a-zA-Z0-9]*$/.test(kind)) {
    return bad(
      ['spec', 'schema', 'kind'],
      'spec.schema.kind must be an UpperCamelCase kind (WebApp)',
    );
  }
  if (typeof version !== 'string' || !/^v[0-9]+((alpha|beta)[0-9]+)?$/.test(version)) {
    return bad(
      ['spec', 'schema', 'apiVersion'],
      'spec.schema.apiVersion must be a Kubernetes version (v1alpha1, v1)',
    );
  }
  if (
    typeof group !== 'string' ||
    !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)+$/.test(group)
  ) {
    return bad(['spec', 'schema', 'group'], 'spec.schema.group must be a domain (kro.run)');
  }
  // kro's ResourceScope (api/v1alpha1): the instance CRD is Namespaced (default) or Cluster.
  const scope = schemaSpec.scope ?? 'Namespaced';
  if (scope !== 'Namespaced' && scope !== 'Cluster') {
    return bad(['spec', 'schema', 'scope'], 'spec.schema.scope must be Namespaced or Cluster');
  }
  const reader = new SimpleSchemaReader(report);
  reader.readTypes(schemaSpec.types, ['spec', 'schema', 'types']);
  const specSchema = reader.readObject(schemaSpec.spec ?? {}, ['spec', 'schema', 'spec']);
  if (reader.failed || specSchema === undefined) return undefined;
  const schema: JsonSchema = {
    type: 'object',
    properties: {
      apiVersion: { type: 'string' },
      kind: { type: 'string' },
      metadata: { type: 'object' },
      spec: specSchema,
      status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  };
  const printColumns = instancePrintColumns(schemaSpec.additionalPrinterColumns, report);
  if (printColumns === undefined) return undefined;
  const plural = pluralize.plural(kind).toLowerCase();
  let definition: ResourceDefinition;
  try {
    definition = createDefinition({
      type: `${camelPlural(plural, kind)}.${group}`,
      displayType: kind,
      aliases: [kind],
      schema,
      printColumns,
      // kro's generated CRD has the status subresource: an instance's status is kro's to write.
      kubernetes: {
        apiVersion: `${group}/${version}`,
        kind,
        namespaced: scope === 'Namespaced',
        statusSubresource: true,
      },
    });
  } catch (error) {
    if (!(error instanceof DefinitionError)) throw error;
    return bad(['spec', 'schema', 'kind'], error.message);
  }
  const ok = checkDefinitionSchema(
    schema,
    definition.type,
    '/spec/schema/spec',
    report,
    compiler,
    options.celRules,
    findStructuralProblems(schema, { resourceRoot: false }),
  );
  if (!ok) return undefined;
  // The API server refuses the instance CRD kro generates when a default breaks its own field's
  // schema (a pattern, an element's type), so the RGD never becomes active.
  const defaults = findInvalidDefaults(specSchema, compiler);
  for (const problem of defaults) {
    const field = simpleSchemaFieldOf(parseJsonPointer(problem.path));
    report.add(
      'rgd-bad-schema',
      jsonPointer(['spec', 'schema', 'spec', ...field]),
      `spec.${field.join('.')}: ${problem.message}, so the API server refuses the CRD kro generates`,
    );
  }
  if (defaults.length > 0) return undefined;
  rgdKinds.add(definition);
  return { definition, value, report, name: name ?? kind.toLowerCase() };
}

/**
 * The SimpleSchema field a path into the schema it generated is under: the names that follow
 * `properties`, up to the first node SimpleSchema writes on one line (an array's items, a map's
 * values, a default).
 */
function simpleSchemaFieldOf(path: readonly string[]): string[] {
  const field: string[] = [];
  for (let i = 0; i + 1 < path.length && path[i] === 'properties'; i += 2) {
    field.push(path[i + 1] as string);
  }
  return field;
}
