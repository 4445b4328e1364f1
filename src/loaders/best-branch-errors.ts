import type { ErrorObject } from 'ajv';

/**
 * ajv's errors, with those of a failed `anyOf` or `oneOf` cut to its best branches', as the API
 * server cuts them (kube-openapi keeps the errors of the alternative with the most checks passed
 * beside its "must validate one and only one schema"). A Gateway address `1.1.1` of type
 * `IPAddress` fails the `oneOf` of an IP address and of any other type: it is reported as neither
 * an IPv4 nor an IPv6 address, and not also as of a type that must not be `IPAddress`.
 *
 * The best branch mismatches least: fewest errors of the keywords that tell which alternative a
 * value is (`enum`, `const`, `not`, `required`, `type`), then fewest errors. Branches that tie
 * are all kept (kube-openapi keeps the first): `anyOf: [{format: ipv4}, {format: ipv6}]` names
 * both forms. Inner combinators are cut before the ones that hold them.
 *
 * ajv reports a combinator's branch errors just before it, one branch after the other (and none
 * when a branch passed): a branch error is one found since, under the combinator's schema
 * path. Unless every branch of the combinator in `schema` (the one validated) is seen
 * to fail so, its errors are all kept: a branch whose errors come from a `$ref` compiled on its
 * own, with paths of their own, cannot be told from the errors before the combinator's.
 */
export function bestBranchErrors(
  errors: readonly ErrorObject[],
  schema: unknown,
): readonly ErrorObject[] {
  let dropped: Set<ErrorObject> | undefined;
  for (let i = 0; i < errors.length; i++) {
    const combinator = errors[i] as ErrorObject;
    if (combinator.keyword !== 'anyOf' && combinator.keyword !== 'oneOf') continue;
    const branches = branchErrors(errors, i, dropped);
    if (branches.size !== branchCount(schema, combinator.schemaPath)) continue;
    const best = bestBranches(branches);
    for (const [index, list] of branches) {
      if (best.has(index)) continue;
      dropped ??= new Set();
      for (const error of list) dropped.add(error);
    }
  }
  return dropped === undefined ? errors : errors.filter((error) => !dropped.has(error));
}

/** The errors before `errors[at]` that belong to its branches, by branch index. */
function branchErrors(
  errors: readonly ErrorObject[],
  at: number,
  dropped: ReadonlySet<ErrorObject> | undefined,
): Map<number, ErrorObject[]> {
  const combinator = errors[at] as ErrorObject;
  const prefix = `${combinator.schemaPath}/`;
  const branches = new Map<number, ErrorObject[]>();
  for (let j = at - 1; j >= 0; j--) {
    const error = errors[j] as ErrorObject;
    if (dropped?.has(error)) continue;
    // Another value's errors under the same path end at its own combinator's error.
    if (!error.schemaPath.startsWith(prefix)) break;
    const index = Number.parseInt(error.schemaPath.slice(prefix.length), 10);
    const list = branches.get(index);
    if (list === undefined) branches.set(index, [error]);
    else list.push(error);
  }
  return branches;
}

/** How many subschemas the combinator at `schemaPath` (`#/...`) in `schema` lists. */
function branchCount(schema: unknown, schemaPath: string): number | undefined {
  if (!schemaPath.startsWith('#/')) return undefined;
  let node = schema;
  for (const raw of schemaPath.slice(2).split('/')) {
    const step = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !Object.hasOwn(node, step)) return undefined;
    node = (node as Record<string, unknown>)[step];
  }
  return Array.isArray(node) ? node.length : undefined;
}

/** Keywords whose failure says the value is another alternative rather than a wrong one. */
const MISMATCH_KEYWORDS = new Set(['enum', 'const', 'not', 'required', 'type']);

/** The branches that mismatch least: fewest mismatch errors, then fewest errors. */
function bestBranches(branches: ReadonlyMap<number, readonly ErrorObject[]>): Set<number> {
  const scores = [...branches].map(([index, list]) => ({
    index,
    mismatches: list.filter((error) => MISMATCH_KEYWORDS.has(error.keyword)).length,
    errors: list.length,
  }));
  const fewestMismatches = Math.min(...scores.map((score) => score.mismatches));
  const closest = scores.filter((score) => score.mismatches === fewestMismatches);
  const fewestErrors = Math.min(...closest.map((score) => score.errors));
  return new Set(closest.filter((score) => score.errors === fewestErrors).map((s) => s.index));
}
