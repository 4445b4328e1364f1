/**
 * A document's type resolved against the load's definitions: the definition it names, or the
 * finding that says why none (unknown, ambiguous, its definition invalid), and which unknown
 * kinds `--ignore-unknown-kinds` skips.
 */

import type { ResourceDefinition } from '../engine/resource/definition.js';
import {
  TypeResolutionError,
  type DefinitionRegistry,
} from '../engine/resource/definition-registry.js';
import { didYouMeanType } from './did-you-mean.js';
import type { DocumentReport } from './document-report.js';
import { formatLocation, type Finding, type SourceLocation } from './finding.js';
import type { ManifestHeader } from './manifest-document.js';
import type { KubernetesHeader } from './manifest-header.js';
import { shorten } from './shorten.js';

/**
 * The unknown kinds `--ignore-unknown-kinds` skips, as kubeconform skips a kind it has no schema
 * for: one a CRD not given here would define, a tool's own file, a component's configuration
 * (`KubeletConfiguration`). A kind Kubernetes answers for (`apps/v1` `Deploymnet`, `v1`
 * `Configmap`, a removed API, a version the load's CRD does not serve) stays an error: no CRD
 * anywhere makes it valid.
 */
const IGNORABLE_UNKNOWN_KINDS: ReadonlySet<string | undefined> = new Set([
  'missing-crd',
  'tool-kind',
  'component-config',
]);

/** Whether `--ignore-unknown-kinds` skips a Kubernetes-shaped document of a kind nothing defines. */
export function isIgnorableUnknownKind(
  /** The load's Kubernetes kinds (`KubernetesKinds`, whose module stands floors higher). */
  kinds: {
    resolve(header: KubernetesHeader, report: DocumentReport): ResourceDefinition | undefined;
  },
  header: KubernetesHeader,
  report: DocumentReport,
): boolean {
  const findings: Finding[] = [];
  const definition = kinds.resolve(header, report.withFindings(findings));
  return (
    definition === undefined &&
    findings.every((finding) => IGNORABLE_UNKNOWN_KINDS.has(finding.rule))
  );
}

/** Where a document names its type. */
export function typeAt(header: ManifestHeader): string {
  return header.kubernetes === undefined ? '/metadata/type' : '/kind';
}

/** The definition a document's type names, or `undefined` (reported) when there is none. */
export function resolveType(
  type: string | undefined,
  registry: DefinitionRegistry,
  report: DocumentReport,
  /** Definitions left out for their findings: where a type name's is. */
  invalid: { find(name: string): SourceLocation | undefined },
): ResourceDefinition | undefined {
  if (type === undefined) return undefined;
  try {
    return registry.resolve(type);
  } catch (error) {
    if (!(error instanceof TypeResolutionError)) throw error;
    if (error.code === 'ambiguous-type') {
      report.add(
        'ambiguous-type',
        '/metadata/type',
        `the type ${JSON.stringify(shorten(type))} is ambiguous: it matches ${error.candidates.join(', ')}; use the full type`,
      );
      return undefined;
    }
    const definedAt = invalid.find(type);
    const guess = definedAt === undefined ? didYouMeanType(type, registry.all()) : undefined;
    report.add(
      'unknown-type',
      '/metadata/type',
      definedAt === undefined
        ? `the type ${JSON.stringify(shorten(type))} is not defined${guess === undefined ? '' : ` (did you mean ${JSON.stringify(guess)}?)`}`
        : `the type ${JSON.stringify(shorten(type))} is not defined: its definition at ${formatLocation(definedAt)} is invalid`,
      definedAt === undefined ? {} : { related: definedAt },
    );
    return undefined;
  }
}
