import type { Resource } from '../resource/resource.js';
import { isRecord } from '../resource/plain-data.js';

/**
 * The fields that differ between two versions of a resource, as JSON pointers into
 * `{ metadata, spec }`, down to the leaves: the spec, the labels and the annotations (what a
 * writer chooses; versions and timestamps change on every write and say nothing). From nothing
 * (a create), every leaf that is set.
 */
export function changedFields(before: Resource | undefined, after: Resource | undefined): string[] {
  return [
    ...leafChanges(before?.spec, after?.spec, '/spec'),
    ...leafChanges(before?.metadata.labels, after?.metadata.labels, '/metadata/labels'),
    ...leafChanges(
      before?.metadata.annotations,
      after?.metadata.annotations,
      '/metadata/annotations',
    ),
  ];
}

/** JSON pointers of the leaves that differ; arrays and scalars are leaves. */
function leafChanges(a: unknown, b: unknown, at: string): string[] {
  if (Object.is(a, b)) return [];
  if (isRecord(a) || isRecord(b)) {
    const ao = isRecord(a) ? a : {};
    const bo = isRecord(b) ? b : {};
    const keys = [...new Set([...Object.keys(ao), ...Object.keys(bo)])].sort();
    const out = keys.flatMap((key) => leafChanges(ao[key], bo[key], `${at}/${escape(key)}`));
    // An object replacing a scalar (or the reverse) with no leaves is a change of its own; two
    // objects with the same leaves (two empty ones, rendered anew on each write) are no change.
    return out.length === 0 && a !== undefined && b !== undefined && isRecord(a) !== isRecord(b)
      ? [at]
      : out;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? [] : [at];
}

function escape(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
