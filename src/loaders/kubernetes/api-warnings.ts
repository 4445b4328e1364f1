/**
 * The API server's warnings (kubectl prints each as `Warning: <field>: <message>`), the pieces
 * the kinds that give them share: a warning as a finding (`api-warning`, which fails only
 * `--strict`), a field path as Go prints one, deprecated node labels, fractional byte values,
 * a claim's storage. The kinds' own warnings are `pod-warnings.ts` and `storage-warnings.ts`
 * (and a Service's, an Ingress's and a RuntimeClass's beside their checks).
 */

import { jsonPointer } from '../json-pointer.js';
import { isPlainObject } from '../manifest-document.js';
import type { SchemaProblem } from '../schema-problem.js';
import { canonicalQuantity, writtenQuantity } from './resource-quantity.js';

export type Path = readonly (string | number)[];
export type Warn = (path: Path, message: string) => void;

/** A warning at `path` of the document, in the API server's words (its field path left out). */
export function apiWarning(path: Path, message: string): SchemaProblem {
  return {
    path: jsonPointer([...path]),
    part: 'value',
    keyword: 'api-warning',
    message,
    apiWarning: true,
  };
}

/** `nodeapi.GetNodeLabelDeprecatedMessage`'s table. */
export const DEPRECATED_NODE_LABELS: Readonly<Record<string, string>> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region':
    'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone':
    'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type':
    'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

/** `GetWarningsForNodeSelectorTerm`: deprecated labels as expression keys. */
export function nodeSelectorTermWarnings(term: unknown, at: Path, warn: Warn): void {
  const expressions = isPlainObject(term) ? term.matchExpressions : undefined;
  if (!Array.isArray(expressions)) return;
  expressions.forEach((expression: unknown, i) => {
    const key = isPlainObject(expression) ? expression.key : undefined;
    const message = typeof key === 'string' ? DEPRECATED_NODE_LABELS[key] : undefined;
    if (message !== undefined)
      warn([...at, 'matchExpressions', i, 'key'], `${key as string} is ${message}`);
  });
}

/**
 * A memory or ephemeral storage quantity with a fraction of a byte: Go's
 * `value.MilliValue()%1000 != 0`, the milli value rounded up (so `0.9999` is a whole byte).
 */
export function fractionalByteWarnings(
  quantities: Record<string, unknown>,
  at: Path,
  warn: Warn,
  names: readonly string[] = ['memory', 'ephemeral-storage'],
): void {
  for (const name of names) {
    const value = quantities[name];
    const quantity = writtenQuantity(value);
    if (quantity === undefined) continue;
    const divisor = 10n ** BigInt(quantity.scale);
    const scaled = quantity.units * 1000n;
    const milli = scaled / divisor + (scaled % divisor > 0n ? 1n : 0n);
    if (milli % 1000n === 0n) continue;
    const text = String(value);
    warn(
      [...at, name],
      `fractional byte value ${JSON.stringify(canonicalQuantity(text) ?? text)} is invalid, must be an integer`,
    );
  }
}

/**
 * `GetWarningsForPersistentVolumeClaimSpec`: a claim's storage request and limit in whole bytes
 * (a claim's, an ephemeral volume's claim template's).
 */
export function claimSpecWarnings(spec: unknown, at: Path, warn: Warn): void {
  const resources = isPlainObject(spec) ? spec.resources : undefined;
  if (!isPlainObject(resources)) return;
  for (const list of ['requests', 'limits']) {
    const quantities = resources[list];
    if (isPlainObject(quantities)) {
      fractionalByteWarnings(quantities, [...at, 'resources', list], warn, ['storage']);
    }
  }
}
