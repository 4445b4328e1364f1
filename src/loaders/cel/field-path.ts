/**
 * A rule's `fieldPath`: where below the rule's node a violation is reported, as the API server
 * writes it: `.name`, `['key with.dots']`, `[0]`, chained (`.spec.ports[0].name`).
 */

const SEGMENT = /^(?:\.([A-Za-z_$][A-Za-z0-9_$-]*)|\['((?:[^'\\]|\\.)*)'\]|\[([0-9]+)\])/;

/** The keys and indexes of a field path, or `undefined` when it is malformed. */
export function parseFieldPath(path: string): (string | number)[] | undefined {
  const segments: (string | number)[] = [];
  let rest = path;
  while (rest !== '') {
    const match = SEGMENT.exec(rest);
    if (match === null) return undefined;
    if (match[1] !== undefined) segments.push(match[1]);
    else if (match[2] !== undefined) segments.push(match[2].replace(/\\(.)/g, '$1'));
    else segments.push(Number(match[3]));
    rest = rest.slice(match[0].length);
  }
  return segments.length === 0 ? undefined : segments;
}
