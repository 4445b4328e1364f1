import { readFileSync } from 'node:fs';
import { packageFile } from '../loaders/package-location.js';

/**
 * The package's version, written into the built code by the build (`scripts/build.mjs`); unset
 * where the sources run as they are (the tests).
 */
declare const __COSI_VERSION__: string | undefined;

/**
 * The package version, shown by `cosi version` and `--version`: the build's, else read from the
 * package's `package.json` (finding the package and reading it is some 2 ms of a start).
 */
export const VERSION: string =
  typeof __COSI_VERSION__ === 'string'
    ? __COSI_VERSION__
    : (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string })
        .version;
