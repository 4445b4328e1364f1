import { readFileSync } from 'node:fs';
import { packageFile } from '../loaders/package-location.js';

/** The package version, shown by `cosi version` and `--version`. */
export const VERSION = (
  JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string }
).version;
