/**
 * The names of the `Transforms.cosi.dev` type (a transform controller declared in YAML), known
 * to the first pass of a load, which takes such documents out before the resources pass and
 * leaves their compilation to `transforms/transform-document.ts`.
 */

import type { DocumentReport } from './document-report.js';
import type { ManifestHeader } from './manifest-header.js';

/** A transform document taken by the first pass, compiled once every type is known. */
export interface TakenTransform {
  readonly header: ManifestHeader;
  readonly report: DocumentReport;
}

/** The type of transform documents. */
export const TRANSFORM_TYPE = 'Transforms.cosi.dev';

const TRANSFORM_NAMES = new Set(['transforms.cosi.dev', 'transform', 'transforms']);

/** Whether a cosi document's `metadata.type` names transforms (any case, any alias). */
export function isTransformType(type: string): boolean {
  return TRANSFORM_NAMES.has(type.toLowerCase());
}
