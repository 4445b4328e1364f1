/**
 * `kind: List` documents, as `kubectl get TYPE -o yaml` prints several objects: each of `items` is
 * read as a document of its own (a resource, or a CRD), and findings about it point into the
 * list (`/items/2/spec/replicas`). A typed list (`ConfigMapList`, as the API server returns a
 * list) gives its items without `apiVersion` and `kind`, which kubectl fills in from the list.
 */

import { DocumentReport } from '../document-report.js';
import type { Finding } from '../finding.js';
import { describe, isPlainObject } from '../manifest-document.js';
import type { ParsedDocument } from '../parsed-document.js';
import type { Position } from '../position.js';

/** Whether a Kubernetes-shaped document is a list of objects (`kind: List`, `CertificateList`). */
export function isKubernetesList(value: Record<string, unknown>): boolean {
  return (
    typeof value.kind === 'string' && value.kind.endsWith('List') && Array.isArray(value.items)
  );
}

/**
 * The items of a list as kubectl reads them (apimachinery's `decodeToList`): in a typed list
 * (`PodList`, `ConfigMapList`: the API server writes no type into their items), an item with
 * neither `apiVersion` nor `kind` takes the list's `apiVersion` and its kind without `List`. An
 * item that says either is left as written, and so are the items of a `kind: List`, which name
 * no kind to take.
 */
export function listItemValues(list: Record<string, unknown>): unknown[] {
  const items = list.items as unknown[];
  const kind = typeof list.kind === 'string' ? list.kind.slice(0, -'List'.length) : '';
  if (kind === '') return items;
  const apiVersion = typeof list.apiVersion === 'string' ? list.apiVersion : '';
  return items.map((item) => {
    if (!isPlainObject(item) || isNonEmptyString(item.kind) || isNonEmptyString(item.apiVersion)) {
      return item;
    }
    return { ...item, ...(apiVersion === '' ? {} : { apiVersion }), kind };
  });
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
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
  const items = listItemValues(value);
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
