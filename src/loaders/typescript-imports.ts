import { existsSync } from 'node:fs';
import * as path from 'node:path';

/** An import in jiti's transpiled output: `jitiImport("./types.js")` or `require("./types.js")`. */
const RELATIVE_JS_IMPORT = /\b(jitiImport|require)\("(\.\.?\/[^"\\]*)\.(m|c)?js"\)/g;

/**
 * Points the imports of a transpiled TypeScript file that name a `.js` file which is not there
 * at the `.ts` file that is (`./types.js` -> `./types.ts`; `.mjs` -> `.mts`, `.cjs` -> `.cts`),
 * as TypeScript resolves them. jiti finds those files too, but only after trying some forty
 * other paths per import, each a failed lookup with an error built: on the example project that
 * was a tenth of `cosi check`. An import of a `.js` file that exists is left alone.
 *
 * `code` is jiti's output (its own import calls, with string literals), `file` the transpiled
 * file's path.
 */
export function pointImportsAtTypeScript(
  code: string,
  file: string,
  exists: (file: string) => boolean = existsSync,
): string {
  const dir = path.dirname(file);
  return code.replace(
    RELATIVE_JS_IMPORT,
    (whole, call: string, stem: string, kind: string | undefined) => {
      const js = path.resolve(dir, `${stem}.${kind ?? ''}js`);
      const ts = path.resolve(dir, `${stem}.${kind ?? ''}ts`);
      return !exists(js) && exists(ts) ? `${call}("${stem}.${kind ?? ''}ts")` : whole;
    },
  );
}
