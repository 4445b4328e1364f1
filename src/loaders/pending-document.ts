import type { DocumentReport } from './document-report.js';
import type { ManifestHeader } from './manifest-header.js';

/**
 * A document that is not a definition, its header read by the first pass of a load
 * (`collect-definitions.ts`), waiting for the resources pass (`load-resources.ts`).
 */
export interface PendingDocument {
  /** The document's findings so far; `report.document` is the document. */
  readonly report: DocumentReport;
  /** `undefined` when the document is not a mapping. */
  readonly header: ManifestHeader | undefined;
}
