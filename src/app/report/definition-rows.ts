import type { CheckResult } from '../check/check-result.js';
import type { DefinitionRegistry } from '../../engine/resource/definition-registry.js';
import { isCrdDocument } from '../../loaders/kubernetes/crd-definitions.js';
import { isXrdDocument } from '../../loaders/kubernetes/crossplane-xrd.js';
import { isConstraintTemplateDocument } from '../../loaders/kubernetes/gatekeeper-constraint-template.js';
import { isRgdDocument, resourceGraphOf } from '../../loaders/kro/resource-graph-definition.js';
import type { ReportResource } from './report-data.js';

/** Whether a document's kind defines types: a CRD, a kro RGD, a Crossplane XRD, a Gatekeeper ConstraintTemplate. */
function definesTypes(document: { readonly apiVersion?: string; readonly kind: string }): boolean {
  const value = { apiVersion: document.apiVersion, kind: document.kind };
  return (
    isCrdDocument(value) ||
    isRgdDocument(value) ||
    isXrdDocument(value) ||
    isConstraintTemplateDocument(value)
  );
}

/**
 * The table's rows of the definition documents that loaded (CRDs, kro RGDs, XRDs,
 * ConstraintTemplates), which `check`'s summary counts as valid resources as kubeconform does
 * but which are types of the world, not resources of it: without them the table listed 7
 * resources where the summary said 13 valid (cert-manager's 6 CRDs), and a finding about a CRD
 * (large-definition, a duplicate-definition's first copy) had nothing to link to. Each is
 * cluster-scoped, written by its manifest, with the type it defines when the project has it;
 * one already a row (`rows`' sources) is left out, as is a second document of the same name.
 * After the resources, whose `from` indexes stay as they are.
 */
export function definitionRows(
  result: CheckResult,
  rows: readonly ReportResource[],
  registry: DefinitionRegistry | undefined,
): ReportResource[] {
  const sources = new Set(rows.flatMap((r) => (r.source === undefined ? [] : [r.source])));
  const keys = new Set(rows.map((r) => r.key));
  const defined = registry ? definedTypes(registry) : new Map<string, string>();
  const out: ReportResource[] = [];
  for (const c of result.cases) {
    const document = c.resource;
    if (c.check !== 'manifests' || document?.status !== 'valid' || !definesTypes(document))
      continue;
    const source = `${document.file}:${document.line}`;
    const group = (document.apiVersion ?? '').split('/')[0] ?? '';
    const type = `${document.kind}s.${group}`;
    const key = `default/${type}/${document.name}`;
    if (sources.has(source) || keys.has(key)) continue;
    keys.add(key);
    const defines = defined.get(`${document.kind}/${document.name}`);
    out.push({
      key,
      namespace: 'default',
      type,
      id: document.name,
      version: 1,
      clusterScoped: true,
      owner: '',
      phase: '',
      source,
      from: [],
      definition: defines === undefined ? {} : { defines },
    });
  }
  return out;
}

/**
 * The type each definition document of the registry defines, by `KIND/NAME`: a CRD's
 * definition id is its name (`certificates.cert-manager.io`), an RGD's graph carries its name.
 */
function definedTypes(registry: DefinitionRegistry): Map<string, string> {
  const types = new Map<string, string>();
  for (const definition of registry.all()) {
    const graph = resourceGraphOf(definition);
    if (graph !== undefined) types.set(`ResourceGraphDefinition/${graph.name}`, definition.type);
    else if (definition.kubernetes !== undefined)
      types.set(`CustomResourceDefinition/${definition.id}`, definition.type);
  }
  return types;
}
