/**
 * Loads the CEL side of kro RGDs and `Transforms.cosi.dev` documents (`graph-cel.ts`) on demand,
 * as `cel-rules.ts` loads the rule engine: the async readers load it first when a file names
 * kro's API group or the transforms' type ({@link prepareGraphCel}); the synchronous loaders
 * then take it from here.
 */

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../package-location.js';
import type * as GraphCel from './graph-cel.js';

/** The API version of RGDs, looked for in a file's text. */
const KRO_API_VERSION = 'kro.run/v1alpha1';
/** The type of transforms by any of its names (`Transforms.cosi.dev`, `transform`), in a file. */
const TRANSFORM_TYPE = /\btype:\s*['"]?transforms?(\.cosi\.dev)?\b/i;

let imported: typeof GraphCel | undefined;

/**
 * Loads the CEL side of RGDs when one of the texts may hold an RGD or a transform; true then
 * (their outputs are checked against their kinds' CEL rules too).
 */
export async function prepareGraphCel(texts: Iterable<string>): Promise<boolean> {
  for (const text of texts) {
    if (text.includes(KRO_API_VERSION) || TRANSFORM_TYPE.test(text)) {
      imported ??= await import('./graph-cel.js');
      return true;
    }
  }
  return false;
}

/** The CEL side of RGDs: the one loaded, else loaded synchronously (`require` of an ES module). */
export function requireGraphCel(): typeof GraphCel {
  imported ??= createRequire(import.meta.url)(
    fileURLToPath(packageFile('dist/loaders/kro/graph-cel.js')),
  ) as typeof GraphCel;
  return imported;
}
