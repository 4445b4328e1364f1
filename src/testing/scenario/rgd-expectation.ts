/**
 * A scenario's `expect` and `expect-absent` of a kro ResourceGraphDefinition itself, and of the
 * CustomResourceDefinition kro generates for its kind, as kro's e2e suites assert them
 * (rgd-assert.yaml: `status.state: Active`, the Ready condition, `topologicalOrder`, kro's
 * finalizer; instancecrd-assert.yaml: the kind's names, schema, printer columns). cosi loads an
 * RGD as the kind it defines and that kind's controller, not as resources, so what is matched is
 * each RGD the project serves as kro's controller leaves it (`rgdAsWritten`), and its CRD as the
 * API server holds it (`rgdCrd`).
 */
import { SIMULATED_EPOCH } from '../../engine/runtime/clock.js';
import { RGD_API_VERSION } from '../../loaders/kro/resource-graph-definition.js';
import { rgdAsWritten } from '../../loaders/kro/rgd-as-written.js';
import { rgdCrd } from '../../loaders/kro/rgd-crd.js';
import { rgdTypeNote } from '../../loaders/kro/rgd-type-name.js';
import { resourceGraphsOf } from '../../app/explain/template-origins.js';
import type { CheckCode } from '../../app/check/check-result.js';
import type { Finding } from '../../loaders/finding.js';
import { absentFields } from '../absent-fields.js';
import { matchesPartially, partialDiff } from '../partial-match.js';
import type { TestProject } from '../test-project.js';
import { failureAt, type ExpectedDocument, type ResourceRef } from './scenario.js';

/** What an RGD makes that a scenario may name: the RGD itself, and its kind's CRD. */
interface RgdObjects {
  /** The type as findings name it. */
  readonly type: string;
  /** What the project serves, by name. */
  readonly served: (project: TestProject) => Map<string, Record<string, unknown>>;
  /** What the project serves is named in a missing one's finding as. */
  readonly what: string;
}

const RGD: RgdObjects = {
  type: 'ResourceGraphDefinitions.kro.run',
  served: servedRgds,
  what: 'RGD',
};

const CRD: RgdObjects = {
  type: 'CustomResourceDefinitions.apiextensions.k8s.io',
  served: servedCrds,
  what: 'CRD of an RGD',
};

/**
 * What a reference names among an RGD's objects: the RGD (`kro.run/v1alpha1`
 * `ResourceGraphDefinition`, `rgd/NAME`) or a CRD (`apiextensions.k8s.io/v1`
 * `CustomResourceDefinition`, which cosi has no resources of), or `undefined`.
 */
export function rgdObjectsNamed(project: TestProject, ref: ResourceRef): RgdObjects | undefined {
  if (
    rgdTypeNote(ref.type) !== undefined &&
    (ref.apiVersion === undefined || ref.apiVersion === RGD_API_VERSION)
  ) {
    return RGD;
  }
  if (
    ref.apiVersion === 'apiextensions.k8s.io/v1' &&
    ref.type === 'CustomResourceDefinition' &&
    project.project.registry.get(CRD.type) === undefined
  ) {
    return CRD;
  }
  return undefined;
}

/** The RGDs the project serves, by name, each as kro's controller leaves it. */
function servedRgds(project: TestProject): Map<string, Record<string, unknown>> {
  // The RGDs are loaded when the project starts, on the simulated clock's first instant.
  const loadedAt = new Date(SIMULATED_EPOCH).toISOString();
  const served = new Map<string, Record<string, unknown>>();
  for (const graph of resourceGraphsOf(project.project.registry).values()) {
    served.set(graph.name, rgdAsWritten(graph, loadedAt));
  }
  return served;
}

/** The CRDs kro generates for the kinds of the RGDs the project serves, by name. */
function servedCrds(project: TestProject): Map<string, Record<string, unknown>> {
  const { registry } = project.project;
  const served = new Map<string, Record<string, unknown>>();
  for (const graph of resourceGraphsOf(registry).values()) {
    const schema = registry.get(graph.instanceType)?.schema;
    const properties = schema?.properties as Record<string, Record<string, unknown>> | undefined;
    const crd = rgdCrd(graph, properties?.spec, properties?.status);
    const metadata = crd?.metadata as { name?: string } | undefined;
    if (crd !== undefined && metadata?.name !== undefined) served.set(metadata.name, crd);
  }
  return served;
}

/**
 * An `expect` document naming an RGD or its CRD: its failures (none when it matches). An
 * expression key outside the subset cosi evaluates throws an `ExpressionKeyError`.
 */
export function expectRgdObject(
  project: TestProject,
  objects: RgdObjects,
  expected: ExpectedDocument,
): Finding<CheckCode>[] {
  const { at, ref, document } = expected;
  const served = objects.served(project);
  const actual = served.get(ref.id);
  if (actual === undefined) {
    const names = [...served.keys()];
    return [
      failureAt(
        'missing-resource',
        at,
        `expected ${objects.type}(${ref.id}), but the project serves no such ${objects.what} (${names.length === 0 ? 'it serves none' : `it serves: ${names.join(', ')}`})`,
      ),
    ];
  }
  if (matchesPartially(actual, document)) return [];
  return [
    {
      ...failureAt(
        'unexpected-state',
        at,
        `${objects.type}(${ref.id}) differs from the expected document${absentFields(actual, document)}`,
      ),
      diff: partialDiff(actual, document, `${at.file}:${at.line}`),
    },
  ];
}

/** An `expect-absent` reference naming an RGD or its CRD: a failure when the project serves it. */
export function expectRgdObjectAbsent(
  project: TestProject,
  objects: RgdObjects,
  ref: ResourceRef,
): Finding<CheckCode> | undefined {
  if (!objects.served(project).has(ref.id)) return undefined;
  return failureAt(
    'unexpected-resource',
    ref.at,
    `${objects.type}(${ref.id}) exists: the project serves this ${objects.what} (its manifests hold the RGD)`,
  );
}
