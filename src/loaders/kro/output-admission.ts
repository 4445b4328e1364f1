/**
 * What the API server makes of what an RGD renders: a resource's rendered document admitted as
 * a manifest of its kind is (schema, defaults, rules), and an `externalRef`'s object read as the
 * API server stores it.
 */

import type { ResourceDefinition } from '../../engine/resource/definition.js';
import type { Admission } from '../../controllers/compiled-resource-graph.js';
import type { CelRules } from '../cel/cel-rule-engine.js';
import { DocumentReport } from '../document-report.js';
import type { Finding } from '../finding.js';
import type { ManifestHeader } from '../manifest-header.js';
import type { ParsedDocument } from '../parsed-document.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaCompiler } from '../schema-compiler.js';
import { checkKubernetesDocument } from '../kubernetes/check-kubernetes-document.js';
import { withApiServerDefaults } from '../kubernetes/api-server-defaults.js';
import { builtinReleaseOf } from '../kubernetes/builtin-kinds.js';
import { splitApiVersion } from '../kubernetes/kubernetes-shape.js';

/**
 * Checks a rendered document against its kind as a manifest of that kind is checked
 * (`checkKubernetesDocument`: defaults, the schema, the fields it does not declare, a built-in
 * kind's own rules), then its CEL rules: each error as `pointer: message`; without any, the
 * object the API server stores (its kind's defaults applied: a CRD's schema's, a built-in kind's
 * Go defaults), as a manifest of the kind is.
 */
export function outputAdmission(
  definition: ResourceDefinition,
  compiler: SchemaCompiler,
  options: { readonly celRules: () => CelRules },
): ((document: Record<string, unknown>) => Admission) | undefined {
  const schema = definition.schema;
  if (schema === undefined) return undefined;
  return (document) => {
    const findings: Finding[] = [];
    const report = new DocumentReport(renderedDocument(document), findings);
    const { group, version } = splitApiVersion(String(document.apiVersion));
    const header: ManifestHeader = {
      labels: {},
      annotations: {},
      spec: {},
      kubernetes: {
        apiVersion: String(document.apiVersion),
        group,
        version,
        kind: String(document.kind),
        document,
      },
    };
    const compiled = compiler.compile(schema);
    const kept = checkKubernetesDocument(definition, header, compiled, report);
    const problems = findings
      .filter((f) => f.severity === 'error')
      .map((f) => `${f.pointer || '/'}: ${f.message}`);
    if (problems.length > 0 || !isPlainObject(kept)) return { problems };
    const { apiVersion, kind, metadata } = document;
    const stored = { apiVersion, kind, metadata, ...kept };
    // A built-in kind's Go defaults, which its OpenAPI schema does not carry.
    if (builtinReleaseOf(definition) !== undefined) {
      withApiServerDefaults(stored, group, String(kind));
    }
    for (const violation of options.celRules().evaluateRules(schema, stored)) {
      problems.push(`${violation.path || '/'}: ${violation.message}`);
    }
    return problems.length > 0 ? { problems } : { problems: [], stored };
  };
}

/**
 * How an `externalRef` reads an object of a built-in kind: as the API server stored it, with
 * the Go defaults a manifest of the kind is held without (a CRD kind's manifest has its schema's
 * defaults already).
 */
export function builtinRead(
  definition: ResourceDefinition,
): (document: Record<string, unknown>) => Record<string, unknown> {
  const kubernetes = definition.kubernetes;
  const { group } = splitApiVersion(kubernetes?.apiVersion ?? '');
  const kind = kubernetes?.kind ?? '';
  return (document) => withApiServerDefaults(document, group, kind);
}

/** A rendered document, which has no source: its findings are placed by pointer alone. */
function renderedDocument(value: Record<string, unknown>): ParsedDocument {
  const nowhere = { line: 0, col: 0 };
  return {
    file: '',
    index: 0,
    position: nowhere,
    value,
    hasErrors: false,
    source: { locate: () => nowhere, locateText: () => nowhere },
    locate: () => nowhere,
    locateText: () => nowhere,
  };
}
