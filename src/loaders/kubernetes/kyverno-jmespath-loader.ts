/**
 * Loads Kyverno's JMESPath (`kyverno-jmespath.ts`, the parser compiled in) at its first use: the
 * checks are synchronous, and only a Kyverno policy with variables needs it, so it is required
 * by path (`require` of an ES module, Node.js 20.19 and later) rather than imported with them.
 */

import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { packageFile } from '../package-location.js';
import type * as KyvernoJmespath from './kyverno-jmespath.js';

let loaded: typeof KyvernoJmespath | undefined;

/** Why Kyverno cannot parse `query` (see `kyverno-jmespath.ts`), or `undefined`. */
export function kyvernoJmespathError(query: string): string | undefined {
  loaded ??= createRequire(import.meta.url)(
    fileURLToPath(packageFile('dist/loaders/kubernetes/kyverno-jmespath.js')),
  ) as typeof KyvernoJmespath;
  return loaded.kyvernoJmespathError(query);
}
