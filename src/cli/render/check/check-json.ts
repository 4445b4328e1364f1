import {
  caseFailed,
  summarize,
  summarizeResources,
  totals,
  type CheckResult,
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
      cases: result.cases.map((c) => ({ ...c, failed: caseFailed(c, result) })),
      unrendered: result.unrendered ?? [],
    },
    null,
    2,
  )}\n`;
}
