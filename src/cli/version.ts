import { createRequire } from 'node:module';

/** The package version, shown by `cosi version` and `--version` (the same file in `src/` and `dist/`). */
export const VERSION = (createRequire(import.meta.url)('../../package.json') as { version: string })
  .version;
