/**
 * One note under a check's findings when documents are of kinds no definition defines: which
 * kinds, and the three ways to check them (or not), as kubeconform users know them. A repository
 * of manifests is most often checked first without its CRDs, and each finding alone says only
 * how to write a CRD.
 */

import type { CheckResult } from '../../../app/check/check-result.js';
import { groupDigits } from './group-digits.js';

/** How many kinds the note names; the rest are counted. */
const NAMED_KINDS = 3;

/** The kind and apiVersion a `missing-crd` finding is about, from its own words. */
const MISSING_KIND = /^no CustomResourceDefinition defines kind (\S+) in (\S+?):/;

/**
 * `note[missing-crd]: 40 documents are of 12 kinds no CRD here defines (...)`, or `undefined`
 * when there are none.
 */
export function missingDefinitionsNote(result: CheckResult): string | undefined {
  const kinds = new Map<string, number>();
  let documents = 0;
  for (const item of result.cases) {
    for (const finding of item.findings) {
      if (finding.code !== 'unknown-type' || finding.rule !== 'missing-crd') continue;
      const match = MISSING_KIND.exec(finding.message);
      if (match === null) continue;
      documents++;
      const kind = `${match[1] ?? ''} of ${match[2] ?? ''}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    }
  }
  if (documents === 0) return undefined;
  const most = [...kinds].sort(([a, m], [b, n]) => n - m || (a < b ? -1 : a > b ? 1 : 0));
  const named = most.slice(0, NAMED_KINDS).map(([kind, n]) => `${kind}: ${groupDigits(n)}`);
  const rest = most.length - named.length;
  const which = rest > 0 ? `${named.join(', ')} and ${groupDigits(rest)} more` : named.join(', ');
  const are = documents === 1 ? 'document is' : 'documents are';
  const ofKinds = kinds.size === 1 ? 'a kind' : `${groupDigits(kinds.size)} kinds`;
  return (
    `note[missing-crd]: ${groupDigits(documents)} ${are} of ${ofKinds} no CRD here defines (${which}): ` +
    `give their CRDs with --definitions DIR, JSON Schemas with --schema-location, or skip them with --ignore-unknown-kinds`
  );
}
