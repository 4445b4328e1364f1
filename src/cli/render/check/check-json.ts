import {
  caseFailed,
  checkTotals,
  SET_ASIDE_CHECK,
  summarize,
  summarizeResources,
  type CheckCase,
  type CheckResult,
  type FailurePolicy,
} from '../../../app/check/check-result.js';

/**
 * JSON: the summary per class, every case with its findings, and the totals; with `resources`,
 * the counts of the manifests read (which a run of scenarios has none of). What the walk set
 * aside is counted skipped, in the totals and as a `set aside` entry of `checks`, as JUnit and
 * TAP count it: `passed + failed + skipped` is JUnit's `tests` and TAP's plan.
 */
export function renderCheckJson(result: CheckResult, { resources = true } = {}): string {
  const setAside = result.unrendered?.length ?? 0;
  return `${JSON.stringify(
    {
      ...checkTotals(result),
      strict: result.strict,
      ...(result.allowedWarnings ? { allowedWarnings: result.allowedWarnings } : {}),
      checks: [
        ...summarize(result),
        ...(setAside > 0
          ? [{ check: SET_ASIDE_CHECK, passed: 0, failed: 0, skipped: setAside }]
          : []),
      ],
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
