import type { DocumentReport } from './document-report.js';
import type { Finding } from './finding.js';
import type { ManifestHeader } from './manifest-header.js';
import type { AppliedBy } from './applied-by.js';

/**
 * A document that is not a definition, its header read by the first pass of a load
 * (`collect-definitions.ts`), waiting for the resources pass (`load-resources.ts`).
 */
export interface PendingDocument {
  /** The document's findings so far; `report.document` is the document. */
  readonly report: DocumentReport;
  /** `undefined` when the document is not a mapping. */
  readonly header: ManifestHeader | undefined;
  /**
   * What reading a Kubernetes document's `metadata` found, reported by the resources
   * pass once the document is checked: a document skipped (`--skip-kinds`,
   * `--ignore-unknown-kinds`) or of a kind nothing defines has none of them, as kubeconform
   * skips such a document whole and the API server refuses the kind before reading the rest.
   */
  readonly headerFindings?: readonly Finding[];
  /**
   * The end-to-end test that applies its file (`ParsedManifest.appliedBy`): its namespace is a
   * namespaced object's that names none, and another document of the test that defines the
   * same object is a revision of it, not a duplicate.
   */
  readonly appliedBy?: AppliedBy;
}
