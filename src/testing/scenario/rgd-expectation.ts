/**
 * A scenario's `expect` and `expect-absent` of a kro ResourceGraphDefinition itself, as kro's e2e
 * suites assert it (rgd-assert.yaml: `status.state: Active`, the Ready condition,
 * `topologicalOrder`, kro's finalizer): cosi loads an RGD as the kind it defines and that kind's
 * controller, not as a resource, so what is matched is the RGD as kro's controller leaves it
 * (`rgdAsWritten`) for each RGD the project serves.
 */
import { SIMULATED_EPOCH } from '../../engine/runtime/clock.js';
import { RGD_API_VERSION } from '../../loaders/kro/resource-graph-definition.js';
import { rgdAsWritten } from '../../loaders/kro/rgd-as-written.js';
import { rgdTypeNote } from '../../loaders/kro/rgd-type-name.js';
import { resourceGraphsOf } from '../../app/explain/template-origins.js';
import type { CheckCode } from '../../app/check/check-result.js';
import type { Finding } from '../../loaders/finding.js';
import { absentFields } from '../absent-fields.js';
import { matchesPartially, partialDiff } from '../partial-match.js';
import type { TestProject } from '../test-project.js';
import { failureAt, type ExpectedDocument, type ResourceRef } from './scenario.js';

/** Whether a reference names an RGD (`kro.run/v1alpha1` `ResourceGraphDefinition`, `rgd/NAME`). */
export function namesRgd(ref: ResourceRef): boolean {
  return (
    rgdTypeNote(ref.type) !== undefined &&
    (ref.apiVersion === undefined || ref.apiVersion === RGD_API_VERSION)
  );
}

/** The RGDs the project serves, by name, each as kro's controller leaves it. */
export function servedRgds(project: TestProject): Map<string, Record<string, unknown>> {
  // The RGDs are loaded when the project starts, on the simulated clock's first instant.
  const loadedAt = new Date(SIMULATED_EPOCH).toISOString();
  const served = new Map<string, Record<string, unknown>>();
  for (const graph of resourceGraphsOf(project.project.registry).values()) {
    served.set(graph.name, rgdAsWritten(graph, loadedAt));
  }
  return served;
}

const RGD_TYPE = `ResourceGraphDefinitions.kro.run`;

/**
 * An `expect` document naming an RGD: its failures (none when it matches). An expression key
 * outside the subset cosi evaluates throws an `ExpressionKeyError`.
 */
export function expectRgd(project: TestProject, expected: ExpectedDocument): Finding<CheckCode>[] {
  const { at, ref, document } = expected;
  const served = servedRgds(project);
  const actual = served.get(ref.id);
  if (actual === undefined) {
    return [
      failureAt(
        'missing-resource',
        at,
        `expected ${RGD_TYPE}(${ref.id}), but the project serves no such RGD (${servedNames(served)})`,
      ),
    ];
  }
  if (matchesPartially(actual, document)) return [];
  return [
    {
      ...failureAt(
        'unexpected-state',
        at,
        `${RGD_TYPE}(${ref.id}) differs from the expected document${absentFields(actual, document)}`,
      ),
      diff: partialDiff(actual, document, `${at.file}:${at.line}`),
    },
  ];
}

/** An `expect-absent` reference naming an RGD: a failure when the project serves it. */
export function expectRgdAbsent(
  project: TestProject,
  ref: ResourceRef,
): Finding<CheckCode> | undefined {
  if (!servedRgds(project).has(ref.id)) return undefined;
  return failureAt(
    'unexpected-resource',
    ref.at,
    `${RGD_TYPE}(${ref.id}) exists: the project serves this RGD (its manifests hold it)`,
  );
}

function servedNames(served: Map<string, unknown>): string {
  return served.size === 0 ? 'it serves none' : `it serves: ${[...served.keys()].join(', ')}`;
}
