import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * The root of the installed cosi package (where its package.json is), found by the package's
 * own name: `dist/` is bundled into chunks whose place in it is the bundler's choice, so no
 * module can find the package's files by a path relative to itself. The same answer from
 * `src/` (the tests) and from `dist/`.
 */
let root: URL | undefined;

/** The package root's URL, found on first use: resolving it is a few ms of every start. */
function packageRoot(): URL {
  return (root ??= new URL(
    '.',
    pathToFileURL(createRequire(import.meta.url).resolve('cosi/package.json')),
  ));
}

/** A file or directory of the package, by its path from the package root (`dist/cli/...`). */
export const packageFile = (relative: string): URL => new URL(relative, packageRoot());
