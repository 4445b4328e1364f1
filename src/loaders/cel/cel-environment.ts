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
 * evaluation cost, so cosi does (`cost-budget.ts`, and the rewrite in `compile-expression.ts`).
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
import { charge } from './cost-budget.js';
import { formatLibrary } from './kubernetes-library/format.js';
import { listsLibrary } from './kubernetes-library/lists.js';
import { optionalLibrary } from './kubernetes-library/optional.js';
import { quantityLibrary } from './kubernetes-library/quantity.js';
import { listsExtension } from './kubernetes-library/lists-extension.js';
import { setsLibrary } from './kubernetes-library/sets.js';
import { twoVariableComprehensionsLibrary } from './two-variable-comprehensions.js';
import { semverLibrary } from './kubernetes-library/semver.js';
import { regexLibrary } from './kubernetes-library/regex.js';
import { stringsLibrary, stringsLibraryVersion2 } from './kubernetes-library/strings.js';
import { typeFunction } from './kubernetes-library/library-types.js';
import { ipLibrary } from './kubernetes-library/ip.js';
import { cidrLibrary } from './kubernetes-library/cidr.js';
import { chargedStandardFunctions } from './charged-standard.js';
import { listEqualityFunctions } from './list-equality.js';
import { goNumberParsingFunctions } from './go-number-parsing.js';
import { goTimeConversionFunctions } from './go-time-conversions.js';
import { listUnionFunctions } from './list-union.js';
import { urlLibrary } from './kubernetes-library/url.js';

/**
 * The function every comprehension's range is passed through (see `compile-expression.ts`): it
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

/** A library of the API server's CEL environment and the Kubernetes minor version that added it. */
export interface KubernetesLibrary {
  readonly name: string;
  /** The minor version of Kubernetes 1 whose API server first has it. */
  readonly since: number;
  readonly funcs: readonly CelFunc[];
}

/**
 * The libraries of the API server's CEL environment, with the version that added each
 * (k8s.io/apiserver `pkg/cel/environment/base.go`).
 */
export const KUBERNETES_LIBRARIES: readonly KubernetesLibrary[] = [
  { name: 'strings', since: 0, funcs: stringsLibrary },
  { name: 'lists', since: 0, funcs: listsLibrary },
  { name: 'regex', since: 0, funcs: regexLibrary },
  { name: 'url', since: 0, funcs: urlLibrary },
  { name: 'quantity', since: 28, funcs: quantityLibrary },
  { name: 'optional', since: 28, funcs: optionalLibrary },
  { name: 'strings version 2', since: 29, funcs: stringsLibraryVersion2 },
  { name: 'sets', since: 29, funcs: setsLibrary },
  { name: 'ip', since: 30, funcs: ipLibrary },
  { name: 'cidr', since: 30, funcs: cidrLibrary },
  { name: 'format', since: 31, funcs: formatLibrary },
  {
    name: 'two-variable comprehensions',
    since: 32,
    funcs: twoVariableComprehensionsLibrary,
  },
  { name: 'semver', since: 33, funcs: semverLibrary },
  { name: 'lists extension', since: 34, funcs: listsExtension },
];

/** The Kubernetes version whose environment rules compile in unless told: the newest stable. */
export const DEFAULT_KUBERNETES_VERSION = '1.36';

const VERSION = /^v?1\.(0|[1-9][0-9]?)$/;

const environments = new Map<number, CelEnv>();
const addedEnvironments = new Map<string, CelEnv>();

/**
 * The CEL environment of the API server of Kubernetes `version` (`'1.30'`, or `'v1.30'`): CEL's
 * standard functions and macros and the libraries that version has (see
 * {@link KUBERNETES_LIBRARIES}), so a rule that calls `isIP` compiles for 1.30 and is refused
 * for 1.29, as that API server refuses it. Each environment is built once.
 *
 * @example
 * ```ts
 * const env = celEnvironmentFor('1.30'); // for `cosi check --kubernetes-version 1.30`
 * ```
 * @throws Error when `version` is not a Kubernetes 1.x minor version.
 */
export function celEnvironmentFor(version: string = DEFAULT_KUBERNETES_VERSION): CelEnv {
  const minor = kubernetesMinor(version);
  let env = environments.get(minor);
  if (env === undefined) {
    env = celEnv({ funcs: functionsOf(minor) });
    environments.set(minor, env);
  }
  return env;
}

/**
 * The minor of Kubernetes `version` (`30` for `'1.30'` or `'v1.30'`).
 *
 * @throws Error when `version` is not a Kubernetes 1.x minor version.
 */
export function kubernetesMinor(version: string): number {
  const match = VERSION.exec(version.trim());
  if (match === null) {
    throw new Error(
      `${JSON.stringify(version)} is not a Kubernetes minor version: give one such as 1.30`,
    );
  }
  return Number(match[1]);
}

/**
 * The environment in which the API server of Kubernetes `version` compiles a new or changed rule
 * of a CRD (k8s.io/apiserver `environment.NewExpressions`): the libraries of the release before
 * it (`DefaultCompatibilityVersion()`, n-1), so that a rollback by one release still compiles
 * every rule it stored. A library is in new rules one release after the one that introduced it;
 * {@link celEnvironmentFor} is the environment of the rules it stored (`StoredExpressions`).
 *
 * @throws Error when `version` is not a Kubernetes 1.x minor version.
 */
export function newExpressionsEnvironmentFor(version: string = DEFAULT_KUBERNETES_VERSION): CelEnv {
  return celEnvironmentFor(`1.${Math.max(0, kubernetesMinor(version) - 1)}`);
}

/**
 * The environment of Kubernetes 1.`minor` with `library` added: which library a rule needs that
 * does not compile there.
 */
export function celEnvironmentAdding(minor: number, library: KubernetesLibrary): CelEnv {
  const key = `${minor}\0${library.name}`;
  let env = addedEnvironments.get(key);
  if (env === undefined) {
    env = celEnv({ funcs: functionsOf(minor, library) });
    addedEnvironments.set(key, env);
  }
  return env;
}

/** The functions of the environment of Kubernetes 1.`minor`, and of `added` if given. */
function functionsOf(minor: number, added?: KubernetesLibrary): CelFunc[] {
  const libraries = KUBERNETES_LIBRARIES.filter(
    (library) => library.since <= minor || library === added,
  );
  return [
    ...chargedStandardFunctions,
    ...goNumberParsingFunctions,
    ...goTimeConversionFunctions,
    ...listEqualityFunctions,
    ...listUnionFunctions,
    ...libraries.flatMap((library) => library.funcs),
    typeFunction,
    iterate,
  ];
}

/** Functions another tool's CEL environment adds to the API server's (kro's libraries). */
export interface CelExtension {
  /** Names the extension: environments are built once per version and name. */
  readonly name: string;
  readonly funcs: readonly CelFunc[];
}

const extendedEnvironments = new Map<string, CelEnv>();

/**
 * The environment of {@link celEnvironmentFor} with an extension's functions added: the
 * extension point for tools whose expressions run in a larger environment than the API server's
 * (kro's `random`, `json`, `hash`, ... in `loaders/kro/`). Built once per version and extension.
 *
 * @throws Error when `version` is not a Kubernetes 1.x minor version.
 */
export function celEnvironmentWith(
  extension: CelExtension,
  version: string = DEFAULT_KUBERNETES_VERSION,
): CelEnv {
  const match = VERSION.exec(version.trim());
  if (match === null) return celEnvironmentFor(version);
  const minor = Number(match[1]);
  const key = `${minor}\0${extension.name}`;
  let env = extendedEnvironments.get(key);
  if (env === undefined) {
    env = celEnv({ funcs: [...functionsOf(minor), ...extension.funcs] });
    extendedEnvironments.set(key, env);
  }
  return env;
}

/** The environment of {@link DEFAULT_KUBERNETES_VERSION}. */
export function celEnvironment(): CelEnv {
  return celEnvironmentFor(DEFAULT_KUBERNETES_VERSION);
}
