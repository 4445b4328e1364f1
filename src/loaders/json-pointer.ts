/** JSON pointers (RFC 6901), the way findings name a place inside a document. */

/**
 * The pointer of a path of keys and indexes.
 *
 * @example
 * jsonPointer(['spec', 'a/b', 0]) // '/spec/a~1b/0'
 */
export function jsonPointer(segments: readonly (string | number)[]): string {
  let out = '';
  for (const segment of segments) {
    out += `/${typeof segment === 'number' ? String(segment) : escapeSegment(segment)}`;
  }
  return out;
}

/** The keys and indexes of a pointer, unescaped (indexes stay strings). */
export function parseJsonPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function escapeSegment(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
