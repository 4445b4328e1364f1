/**
 * Kyverno's wildcards (`*` any run, `?` any one character), matched against a whole text without
 * backtracking: a policy's patterns and the names they are matched against are both untrusted,
 * and as a regular expression (`^.*a.*a.*a.*b$`) a pattern of a few stars took time exponential in
 * their count (5 stars against 200 characters: over a minute).
 */

import { segmentSearch, type SegmentSearch } from './wildcard-segment-search.js';

/** A compiled wildcard pattern. */
export interface WildcardPattern {
  /** Whether the whole of `text` matches. */
  test(text: string): boolean;
}

/** A pattern of Kyverno's wildcards, matched whole. */
export function wildcard(pattern: string): WildcardPattern {
  const segments = pattern.split('*');
  const searches = segments.map((segment, i) =>
    i > 0 && i < segments.length - 1 && segment.includes('?') ? segmentSearch(segment) : undefined,
  );
  return { test: (text) => matchSegments(segments, searches, text) };
}

/**
 * The text split by the stars: the first segment must start it, the last end it, and each one
 * between is found leftmost after the one before (the leftmost place leaves the most text for
 * the rest, so no other place needs trying). Each segment is looked for once: by `indexOf`, or
 * by its compiled search (`searches`) when it holds a `?`.
 */
function matchSegments(
  segments: readonly string[],
  searches: readonly (SegmentSearch | undefined)[],
  text: string,
): boolean {
  const first = segments[0] ?? '';
  if (segments.length === 1) return text.length === first.length && matchesAt(first, text, 0);
  const last = segments[segments.length - 1] ?? '';
  if (text.length < first.length + last.length) return false;
  if (!matchesAt(first, text, 0) || !matchesAt(last, text, text.length - last.length)) {
    return false;
  }
  let from = first.length;
  const end = text.length - last.length;
  for (let i = 1; i < segments.length - 1; i++) {
    const segment = segments[i] ?? '';
    const search = searches[i];
    const at = search === undefined ? find(segment, text, from, end) : search.find(text, from, end);
    if (at === -1) return false;
    from = at + segment.length;
  }
  return true;
}

/** Where `segment` (no `?`) first is in `text` at or after `from`, ending by `end`; -1 when nowhere. */
function find(segment: string, text: string, from: number, end: number): number {
  const at = text.indexOf(segment, from);
  return at === -1 || at + segment.length > end ? -1 : at;
}

/** Whether `segment` (no star; `?` any one character) matches `text` at `at`. */
function matchesAt(segment: string, text: string, at: number): boolean {
  for (let i = 0; i < segment.length; i++) {
    const char = segment.charCodeAt(i);
    if (char !== 0x3f && char !== text.charCodeAt(at + i)) return false;
  }
  return true;
}
