import * as path from 'node:path';

/** A place in a source file, from a stack trace. */
export interface StackFrame {
  readonly file: string;
  readonly line: number;
  readonly col: number;
}

/**
 * The first frame of a stack that is in the project's own files (below `dir`, not in
 * `node_modules`): where the user's code failed. The config loader keeps line numbers of the
 * TypeScript it transpiles, so the place is the one the author sees.
 */
export function frameInProject(stack: string | undefined, dir: string): StackFrame | undefined {
  for (const match of (stack ?? '').matchAll(
    /\(?((?:\/|[A-Za-z]:\\)[^():\s]+):(\d+):(\d+)\)?$/gm,
  )) {
    const [, frameFile = '', line = '0', col = '0'] = match;
    if (frameFile.includes(`${path.sep}node_modules${path.sep}`)) continue;
    const relative = path.relative(dir, frameFile);
    if (relative.startsWith('..') || path.isAbsolute(relative)) continue;
    return { file: frameFile, line: Number(line), col: Number(col) };
  }
  return undefined;
}
