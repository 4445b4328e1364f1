import {
  caseFailed,
  summarize,
  summarizeResources,
  totals,
  type CheckCase,
  type CheckResult,
  type FailurePolicy,
} from '../../../app/check/check-result.js';

/**
 * JSON: the summary per class, every case with its findings, and the totals; with `resources`,
 * the counts of the manifests read (which a run of scenarios has none of).
 */
export function renderCheckJson(result: CheckResult, { resources = true } = {}): string {
  const summary = summarize(result);
  return `${JSON.stringify(
    {
      ...totals(summary),
      strict: result.strict,
      ...(result.allowedWarnings ? { allowedWarnings: result.allowedWarnings } : {}),
      checks: summary,
      ...(resources ? { resources: summarizeResources(result) } : {}),
      cases: result.cases.map((c) => jsonCase(c, result)),
      unrendered: result.unrendered ?? [],
    },
    null,
    2,
  )}\n`;
}

/**
 * A case with whether it failed, and its document's status as the summary counts it: the load
 * marks a document valid or invalid by its own findings, but a check found after it (a kro RGD's
 * CEL types) or a warning under --strict fails it too, and `resources.invalid` counts it invalid.
 * A skipped document stays skipped, as the summary keeps it.
 */
function jsonCase(c: CheckCase, policy: FailurePolicy): CheckCase & { failed: boolean } {
  const failed = caseFailed(c, policy);
  if (c.resource === undefined || c.resource.status === 'skipped') return { ...c, failed };
  const status = failed ? 'invalid' : 'valid';
  return { ...c, resource: { ...c.resource, status }, failed };
}
