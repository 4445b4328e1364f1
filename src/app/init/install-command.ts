import * as path from 'node:path';

/**
 * The command that makes a new project's own cosi and TypeScript its dev dependencies, for the
 * lines `cosi init` ends with: `npx cosi` and the CI job then run the version the lock file pins,
 * and an editor types `cosi.config.ts` from its package. cosi is not on the npm registry, so the
 * cosi is the one running, by its package root's absolute path (`cosiRoot`): npm installs a
 * directory as a link to it. When that cosi is in a `node_modules` the project sees
 * already (the project's, or one above it), TypeScript alone is left to install.
 *
 * @example
 * installCommand('/home/me/proj', '/home/me/src/cosi')
 * // 'npm install --save-dev /home/me/src/cosi typescript'
 */
export function installCommand(projectDir: string, cosiRoot: string): string {
  const project = path.resolve(projectDir);
  const root = path.resolve(cosiRoot);
  const modules = path.dirname(root);
  const seen =
    path.basename(modules) === 'node_modules' && isWithin(project, path.dirname(modules));
  if (seen) return 'npm install --save-dev typescript';
  return `npm install --save-dev ${shellWord(root)} typescript`;
}

/** `word` as one word of a POSIX shell's line: quoted when it has more than plain characters. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** Whether `dir` is `ancestor` or below it. */
function isWithin(dir: string, ancestor: string): boolean {
  const relative = path.relative(ancestor, dir);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
