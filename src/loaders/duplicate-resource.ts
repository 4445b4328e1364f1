/**
 * A resource defined twice in one load: the message that names the first document, and whether
 * a later document is a revision (a test's later step) rather than a duplicate.
 */

import type { ResourceDefinition } from '../engine/resource/definition.js';
import { formatPointer, type Pointer } from '../engine/resource/pointer.js';
import type { AppliedBy } from './applied-by.js';
import type { DocumentReport } from './document-report.js';
import { formatLocation } from './finding.js';

/**
 * A resource as a duplicate's message names it: `type(namespace/id)`, or `type(id)` for a
 * cluster-scoped Kubernetes kind (its namespace is only cosi's placeholder).
 */
export function resourceName(pointer: Pointer, definition: ResourceDefinition): string {
  return definition.kubernetes?.namespaced === false
    ? `${pointer.type}(${pointer.id})`
    : formatPointer(pointer);
}

/**
 * Whether a document is a revision of an earlier one of the same object rather than a duplicate:
 * both are applied by one end-to-end test, whose later step updates what an earlier created.
 */
export function isRevision(earlier: AppliedBy | undefined, later: AppliedBy | undefined): boolean {
  return earlier !== undefined && later !== undefined && earlier.test === later.test;
}

/**
 * Reports `report`'s document, of `definition`, as defining again the resource `first` defined,
 * maybe in another API version of its kind, at each one's id.
 */
export function reportDuplicate(
  name: string,
  first: { readonly report: DocumentReport; readonly definition: ResourceDefinition },
  definition: ResourceDefinition,
  report: DocumentReport,
  /** Where a document names its id (passed in: knowing it takes the Kubernetes shape). */
  idPointer: (report: DocumentReport) => string,
): void {
  const related = first.report.location(idPointer(first.report));
  const written = first.definition.kubernetes?.apiVersion;
  const otherVersion =
    written !== undefined && written !== definition.kubernetes?.apiVersion
      ? ` as ${written} (one object, whichever API version writes it)`
      : '';
  report.add(
    'duplicate-resource',
    idPointer(report),
    `${name} is already defined at ${formatLocation(related)}${otherVersion}${separateApplications(related.file, report.document.file)}`,
    { related },
  );
}

/** The directory part of a path as shown (`.` for none): this module reads no files, nor `node:path`. */
function directoryOf(file: string): string {
  const cut = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return cut <= 0 ? (cut === 0 ? file.slice(0, 1) : '.') : file.slice(0, cut);
}

/** Whether directory `inner` is `outer` or below it (`.` holds every relative path). */
function isInside(inner: string, outer: string): boolean {
  return outer === '.'
    ? !inner.startsWith('..') && !inner.startsWith('/')
    : inner.startsWith(`${outer}/`);
}

/**
 * The hint of a duplicate in another directory: a repository of separate applications (an Argo
 * CD or Flux repository, one directory each) defines the same names in each, where one run of
 * cosi is one world.
 */
function separateApplications(first: string, second: string): string {
  const a = directoryOf(first);
  const b = directoryOf(second);
  // (`<stdin>` and the like name no directory.)
  if (a === b || /^<.*>$/.test(first) || /^<.*>$/.test(second)) return '';
  // One directory inside the other: --each of the two would hold both files in one world again.
  if (isInside(a, b) || isInside(b, a)) {
    return ` (one run is one world: if ${first} and ${second} belong to separate applications, check each on its own: cosi check --each ${first} ${second})`;
  }
  return ` (one run is one world: if ${a}/ and ${b}/ hold separate applications, check each on its own: cosi check --each ${a} ${b})`;
}
