/** Where one real path stands to another: below it, or around a walk's directories. */

import * as path from 'node:path';

/** Whether the real path `real` is below the directory `dir`. */
export function isBelow(real: string, dir: string): boolean {
  return dir !== '' && real.startsWith(dir.endsWith(path.sep) ? dir : `${dir}${path.sep}`);
}

/** Whether directory `dir` is one of the walk's `ancestors` or holds one of them. */
export function encloses(dir: string, ancestors: ReadonlySet<string>): boolean {
  if (ancestors.has(dir)) return true;
  for (const ancestor of ancestors) if (isBelow(ancestor, dir)) return true;
  return false;
}
