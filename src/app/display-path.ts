import * as path from 'node:path';

/** A path as the user would write it: relative to the working directory when inside it. */
export function displayPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
    ? relative
    : file;
}
