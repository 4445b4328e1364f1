/**
 * `kind: List` documents, as `kubectl get TYPE -o yaml` prints several objects: each of `items` is
 * read as a document of its own (a resource, or a CRD), and findings about it point into the
 * list (`/items/2/spec/replicas`).
 */

import { DocumentReport } from '../document-report.js';
import type { Finding } from '../finding.js';
import { describe } from '../manifest-document.js';
import type { ParsedDocument } from '../parsed-document.js';
import type { Position } from '../position.js';

/** Whether a Kubernetes-shaped document is a list of objects (`kind: List`, `CertificateList`). */
export function isKubernetesList(value: Record<string, unknown>): boolean {
  return (
    typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)
  );
}

/** Findings about one item of a list: pointers are relative to the item. */
export class ListItemReport extends DocumentReport {
  readonly #prefix: string;

  constructor(
    document: ParsedDocument,
    findings: Finding[],
    readonly index: number,
  ) {
    super(document, findings);
    this.#prefix = `/items/${index}`;
  }

  override withFindings(findings: Finding[]): DocumentReport {
    return new ListItemReport(this.document, findings, this.index);
  }

  override pointer(pointer: string): string {
    return `${this.#prefix}${pointer}`;
  }

  override get position(): Position {
    return this.document.locate(this.#prefix, 'value');
  }
}

/**
 * The items of a list, each with its report. An item that is not an object is reported and
 * left out of `objects`; its report is in `notObjects`, so that it is a document of its own
 * (invalid) in the check, not a finding of the item before it.
 */
export function listItems(
  value: Record<string, unknown>,
  document: ParsedDocument,
  findings: Finding[],
): {
  readonly objects: { readonly item: Record<string, unknown>; readonly report: ListItemReport }[];
  readonly notObjects: ListItemReport[];
} {
  const items = value.items as unknown[];
  const objects: { item: Record<string, unknown>; report: ListItemReport }[] = [];
  const notObjects: ListItemReport[] = [];
  items.forEach((item, i) => {
    const report = new ListItemReport(document, findings, i);
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      report.add('not-a-mapping', '', `an item of a list must be an object, not ${describe(item)}`);
      notObjects.push(report);
      return;
    }
    objects.push({ item: item as Record<string, unknown>, report });
  });
  return { objects, notObjects };
}
