/**
 * The loaders' finding codes and the severity of each: the vocabulary every finding uses, on
 * the ground floor of the loaders so that what reports a finding need not import how one is
 * made (`finding.ts`).
 */

/**
 * Every finding code, grouped by the stage that reports it. The list only grows; a code, once
 * published, keeps its meaning.
 */
export const FINDING_CODES = [
  // Files and directories.
  'path-not-found',
  'unreadable-file',
  'symlink-loop',
  'invalid-encoding',
  // YAML.
  'yaml-syntax',
  'yaml-warning',
  'unknown-tag',
  'unknown-anchor',
  'alias-bomb',
  'recursive-alias',
  'nesting-too-deep',
  'duplicate-key',
  'complex-key',
  'forbidden-key',
  'yaml11-boolean',
  'control-character',
  'number-out-of-range',
  'yaml-version',
  'yaml11-octal',
  'yaml11-number',
  'merge-key',
  'template-expression',
  'document-separator',
  // Document shape: `{ metadata: { namespace?, type, id, labels?, annotations? }, spec }`.
  'not-a-mapping',
  'missing-field',
  'wrong-type',
  'unknown-key',
  'read-only-metadata',
  'controller-output',
  'invalid-id',
  'invalid-namespace',
  'ignored-namespace',
  'ignored-status',
  'duplicate-list-item',
  'api-warning',
  // Resource definitions.
  'invalid-definition',
  'definition-too-large',
  'large-definition',
  'invalid-schema',
  'duplicate-definition',
  'ignored-print-column',
  // Resources.
  'unknown-type',
  'ambiguous-type',
  'schema-violation',
  'duplicate-resource',
  'rejected-kind',
  'unknown-kind-filter',
  // An owner reference the garbage collector could not resolve (a kind nothing defines).
  'unresolved-owner',
  // CEL rules (`x-kubernetes-validations`).
  'cel-violation',
  'cel-invalid-rule',
  'cel-evaluation-error',
  'cel-cost-exceeded',
  'cel-not-checked',
  // The previous revision (`--previous`).
  'previous-unresolved',
  // The input as a whole.
  'empty-input',
  'too-many-findings',
  // kro ResourceGraphDefinitions.
  'rgd-bad-schema',
  'rgd-bad-resource',
  'rgd-bad-expression',
  'rgd-unknown-ref',
  'rgd-cycle',
  'rgd-type-mismatch',
  'rgd-unknown-field',
  'rgd-unknown-kind',
  // A kro RGD that needs a feature gate kro has off by default (omit(): CELOmitFunction).
  'rgd-feature-gate',
  // A kro RGD instance that waits on what nothing here writes (the run).
  'rgd-waiting',
  // Observed status (`cosi.dev/observed`): a document that cannot be one; one laid on nothing.
  'observed-status',
  'observed-unused',
  // `Transforms.cosi.dev` declarative transforms.
  'transform-bad-spec',
  'transform-unknown-type',
  'transform-bad-expression',
  'transform-unknown-ref',
  'transform-unknown-field',
  'transform-type-mismatch',
  // The state: what it cannot store (a resource over etcd's request limit).
  'too-large-for-state',
  // The run: what the controllers wrote.
  'undefined-type',
  'output-collision',
] as const;

/** A stable finding code. */
export type FindingCode = (typeof FINDING_CODES)[number];

/** Errors fail a load; warnings fail only a strict check. */
export type Severity = 'error' | 'warning';

/** The codes that only warn: they fail a strict check, not a load. */
const WARNING_CODES: ReadonlySet<FindingCode> = new Set([
  'yaml11-boolean',
  'yaml11-octal',
  'yaml11-number',
  'yaml-warning',
  'too-many-findings',
  'read-only-metadata',
  'ignored-namespace',
  'ignored-status',
  'duplicate-list-item',
  'api-warning',
  'large-definition',
  'undefined-type',
  'ignored-print-column',
  'previous-unresolved',
  'rgd-feature-gate',
  'rgd-waiting',
  'observed-unused',
  'unknown-kind-filter',
  'unresolved-owner',
]);

/** The severity of each code: fixed, so that a code alone says whether it fails a load. */
export const FINDING_SEVERITY: Readonly<Record<FindingCode, Severity>> = Object.freeze(
  Object.fromEntries(
    FINDING_CODES.map((code) => [code, WARNING_CODES.has(code) ? 'warning' : 'error']),
  ) as Record<FindingCode, Severity>,
);
