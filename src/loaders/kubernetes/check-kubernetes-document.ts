/**
 * How a resource of a Kubernetes-shaped type is checked, as the API server admits a custom
 * resource: defaults applied first (`defaulting.ts`), then the whole document checked against the
 * schema (`apiVersion`, `kind`, `metadata` and the rest, as `openAPIV3Schema` describes it), then
 * the fields the schema does not declare reported (`unknown-fields.ts`). The resource keeps the
 * defaulted fields.
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { DocumentReport } from '../document-report.js';
import { isPlainObject, type ManifestHeader } from '../manifest-document.js';
import type { SpecValidator } from '../schema-compiler.js';
import { applyDefaults } from './defaulting.js';
import { findUnknownFields } from './unknown-fields.js';

/**
 * Checks a document of a Kubernetes-shaped type, reporting each problem at its node, and returns
 * the resource's spec: the document's top-level fields but `apiVersion`, `kind` and `metadata`,
 * with defaults. A cosi-shaped document of such a type (`{ metadata: { type, id }, spec }`) is
 * checked as the Kubernetes document it stands for.
 */
export function checkKubernetesDocument(
  definition: ResourceDefinition,
  header: ManifestHeader,
  validate: SpecValidator | undefined,
  report: DocumentReport,
): unknown {
  const schema = definition.schema;
  const kind = definition.kubernetes;
  if (schema === undefined || kind === undefined) return header.spec;
  let document: Record<string, unknown>;
  let at: string;
  if (header.kubernetes !== undefined) {
    document = structuredClone(header.kubernetes.document);
    at = '';
  } else if (isPlainObject(header.spec)) {
    const metadata = {
      name: header.id,
      namespace: header.namespace ?? definition.defaultNamespace,
    };
    document = {
      ...structuredClone(header.spec),
      apiVersion: kind.apiVersion,
      kind: kind.kind,
      metadata,
    };
    at = '/spec';
  } else {
    report.add(
      'wrong-type',
      '/spec',
      `the spec of a ${kind.kind} holds its top-level fields (spec, status, ...): it must be a mapping`,
    );
    return header.spec;
  }
  applyDefaults(document, schema);
  report.addSpecViolations(
    [...(validate?.(document) ?? []), ...findUnknownFields(document, schema)],
    at,
  );
  const spec: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (key !== 'apiVersion' && key !== 'kind' && key !== 'metadata') spec[key] = value;
  }
  return spec;
}
