/**
 * A document of a load as `cosi check` reports it, one by one as kubeconform reports each
 * resource: where it is, what it names, and whether it was loaded.
 */

import type { DocumentReport } from './document-report.js';
import type { ManifestHeader } from './manifest-header.js';

/** A resource document of a load, and whether it was loaded. */
export interface ResourceDocument {
  readonly file: string;
  /** Where the document (or the `List` item) starts. */
  readonly line: number;
  readonly col: number;
  /** The Kubernetes kind, or the cosi type as written; empty when it names none. */
  readonly kind: string;
  /** `apiVersion` of a Kubernetes-shaped document. */
  readonly apiVersion?: string;
  /** The id (`metadata.name`); empty when it has none. */
  readonly name: string;
  readonly namespace?: string;
  /** `valid`: loaded; `invalid`: it has an error; `skipped`: left out by the options. */
  readonly status: 'valid' | 'invalid' | 'skipped';
}

/** A document's identity as the check report names it; the caller adds its status. */
export function describeDocument(
  report: DocumentReport,
  header: ManifestHeader | undefined,
): Omit<ResourceDocument, 'status'> {
  const { line, col } = report.position;
  const k8s = header?.kubernetes;
  return {
    file: report.document.file,
    line,
    col,
    kind: k8s?.kind ?? header?.type ?? '',
    ...(k8s ? { apiVersion: k8s.apiVersion } : {}),
    name: header?.id ?? '',
    ...(header?.namespace === undefined ? {} : { namespace: header.namespace }),
  };
}

/** Orders documents as the files were loaded, then by position: one order for every load path. */
export function byPosition(a: ResourceDocument, b: ResourceDocument): number {
  return a.line - b.line || a.col - b.col;
}
