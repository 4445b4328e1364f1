/**
 * The printer columns of an RGD's instance kind, as kro gives its generated CRD
 * (`pkg/graph/crd/crd.go` `newCRDAdditionalPrinterColumns`): the RGD's
 * `spec.schema.additionalPrinterColumns` when it has some, else kro's defaults, State and Ready.
 */

import type { PrintColumn } from '../../engine/resource/definition.js';
import { isPlainObject } from '../manifest-document.js';
import type { DocumentReport } from '../document-report.js';
import { jsonPointer } from '../json-pointer.js';
import { shownPrinterColumn } from '../print-column-path.js';

/**
 * kro's `defaultAdditionalPrinterColumns` (`pkg/graph/crd/defaults.go`), without its Age
 * (`.metadata.creationTimestamp`): cosi's table prints no metadata column, as for a CRD's.
 */
export const KRO_DEFAULT_PRINT_COLUMNS: readonly PrintColumn[] = [
  { name: 'State', jsonPath: '{.status.state}' },
  { name: 'Ready', jsonPath: '{.status.conditions[?(@.type=="Ready")].status}' },
];

const AT = ['spec', 'schema', 'additionalPrinterColumns'];

/**
 * The instance kind's print columns. A column that is not an object with a `name` and a
 * `jsonPath` starting with "." is an `rgd-bad-schema` error (the API server refuses the CRD, so
 * kro never makes it: `undefined`); one whose jsonPath does not parse is left out with an
 * `ignored-print-column` warning, as the API server falls back; `.metadata` ones are left out.
 */
export function instancePrintColumns(
  value: unknown,
  report: DocumentReport,
): readonly PrintColumn[] | undefined {
  if (value === undefined || value === null) return KRO_DEFAULT_PRINT_COLUMNS;
  if (!Array.isArray(value)) {
    report.add(
      'rgd-bad-schema',
      jsonPointer(AT),
      'spec.schema.additionalPrinterColumns must be a list',
    );
    return undefined;
  }
  if (value.length === 0) return KRO_DEFAULT_PRINT_COLUMNS;
  const columns: PrintColumn[] = [];
  let refused = false;
  for (const [i, column] of value.entries()) {
    const name: unknown = isPlainObject(column) ? column.name : undefined;
    const path: unknown = isPlainObject(column) ? column.jsonPath : undefined;
    if (typeof name !== 'string' || name === '' || typeof path !== 'string') {
      report.add(
        'rgd-bad-schema',
        jsonPointer([...AT, i]),
        'a printer column needs a name and a jsonPath (.spec.image)',
      );
      refused = true;
      continue;
    }
    if (!path.startsWith('.')) {
      report.add(
        'rgd-bad-schema',
        jsonPointer([...AT, i, 'jsonPath']),
        `the jsonPath ${JSON.stringify(path)} must be a JSONPath starting with "." (.spec.image)`,
      );
      refused = true;
      continue;
    }
    const pointer = jsonPointer([...AT, i, 'jsonPath']);
    const shown = shownPrinterColumn(
      name,
      path,
      (message) => report.add('ignored-print-column', pointer, message),
      isPlainObject(column) ? column.priority : undefined,
    );
    if (shown !== undefined) columns.push(shown);
  }
  return refused ? undefined : columns;
}
