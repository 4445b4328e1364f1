/**
 * The CEL environment rules run in: CEL's standard functions and macros, the `strings`
 * extension, and the Kubernetes libraries CRD authors use (lists, regex, url, quantity, format,
 * with the optional values format needs).
 *
 * The CEL implementation is `@bufbuild/cel` (Buf's cel-es). Compared with
 * `@marcbachmann/cel-js`, it runs cel-spec's official conformance suite (its test data ships as
 * `@bufbuild/cel-spec`, which cosi's tests run a subset of), it is maintained by a company that
 * builds its own validation product (protovalidate) on it, it runs on Node 20, its `matches`
 * takes a pluggable RE2 engine, and functions and methods are plain values that overload by
 * argument types, which is how the Kubernetes libraries are added here. Neither library bounds
 * evaluation cost, so cosi does (`cost-budget.ts`, and the rewrite in `rule-compiler.ts`).
 */

import {
  celEnv,
  celFunc,
  CelScalar,
  isCelList,
  isCelMap,
  type CelEnv,
  type CelFunc,
} from '@bufbuild/cel';
import { compileLinearRegExp } from '../linear-regexp.js';
import { charge } from './cost-budget.js';
import { formatLibrary } from './kubernetes-library/format.js';
import { listsLibrary } from './kubernetes-library/lists.js';
import { optionalLibrary } from './kubernetes-library/optional.js';
import { quantityLibrary } from './kubernetes-library/quantity.js';
import { regexLibrary } from './kubernetes-library/regex.js';
import { stringsLibrary } from './kubernetes-library/strings.js';
import { urlLibrary } from './kubernetes-library/url.js';

/**
 * The function every comprehension's range is passed through (see `rule-compiler.ts`): it
 * charges, per element about to be visited, the size of the loop's body. Its name cannot be written in a rule.
 */
export const ITERATE_FUNCTION = '@cosi.iterate';

const iterate = celFunc(
  ITERATE_FUNCTION,
  [CelScalar.DYN, CelScalar.INT],
  CelScalar.DYN,
  (range, weight) => {
    if (isCelList(range) || isCelMap(range)) charge(range.size * Number(weight));
    return range;
  },
);

/** Every function the Kubernetes libraries add, by library. */
export const KUBERNETES_LIBRARIES: Readonly<Record<string, readonly CelFunc[]>> = {
  strings: stringsLibrary,
  lists: listsLibrary,
  regex: regexLibrary,
  url: urlLibrary,
  quantity: quantityLibrary,
  format: formatLibrary,
  optional: optionalLibrary,
};

let shared: CelEnv | undefined;

/** The environment (built once: it holds no state of an evaluation). */
export function celEnvironment(): CelEnv {
  return (shared ??= celEnv({
    funcs: [...Object.values(KUBERNETES_LIBRARIES).flat(), iterate],
    // `matches` on untrusted patterns and input: linear time.
    re2: { compile: (pattern: string) => compileLinearRegExp(pattern) },
  }));
}
