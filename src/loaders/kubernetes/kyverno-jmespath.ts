/**
 * JMESPath as Kyverno parses a variable's query (`{{ request.object.metadata.name }}`): the
 * original grammar of jmespath.org, which Kyverno's Go library (a fork of go-jmespath) reads.
 * The parser cosi uses reads JMESPath's community edition, a superset: what only that edition has
 * (arithmetic, `let`, `$` and `$name`, `? :`) is refused here, as Kyverno refuses it. The
 * commonest case is a key with a dash, `labels.app-name`, which is a subtraction in the community
 * edition and no JMESPath at all in Kyverno's (`labels."app-name"` is meant).
 *
 * A module of its own in `dist/` with the parser compiled in, loaded at the first query (a policy
 * with variables: `kyverno-jmespath-loader.ts`), not with the checks.
 */

import { compile } from '@jmespath-community/jmespath';
import { didYouMean } from '../did-you-mean.js';

/** The nodes only the community edition has, and what Kyverno's JMESPath has instead. */
const COMMUNITY_ONLY: Readonly<Record<string, string>> = {
  Arithmetic:
    'JMESPath has no arithmetic operators in Kyverno (a key with "-" is quoted: labels."app-name"; add(), subtract(), multiply(), divide() and modulo() compute)',
  Unary:
    'JMESPath has no arithmetic operators in Kyverno (a key with "-" is quoted: labels."app-name")',
  Root: "JMESPath has no root reference `$` in Kyverno's version",
  Variable: "JMESPath has no `$name` variables in Kyverno's version",
  LetExpression: "JMESPath has no let expressions in Kyverno's version",
  Binding: "JMESPath has no let expressions in Kyverno's version",
  Ternary:
    "JMESPath has no `? :` in Kyverno's version (`condition && a || b` chooses, for a truthy a)",
};

/**
 * The functions Kyverno's JMESPath has: JMESPath's own, and Kyverno's (`pkg/engine/jmespath`:
 * `functions.go`, `time.go`). Kyverno finds an unknown one only when a request comes, and fails
 * that request's rule.
 */
const FUNCTIONS: readonly string[] = [
  // JMESPath's.
  ...['abs', 'avg', 'ceil', 'contains', 'ends_with', 'floor', 'join', 'keys', 'length', 'map'],
  ...['max', 'max_by', 'merge', 'min', 'min_by', 'not_null', 'reverse', 'sort', 'sort_by'],
  ...['starts_with', 'sum', 'to_array', 'to_number', 'to_string', 'type', 'values'],
  // Kyverno's.
  ...['compare', 'equal_fold', 'replace', 'replace_all', 'to_upper', 'to_lower', 'trim'],
  ...['trim_prefix', 'split', 'regex_replace_all', 'regex_replace_all_literal', 'regex_match'],
  ...['pattern_match', 'label_match', 'to_boolean', 'add', 'subtract', 'multiply', 'divide'],
  ...['modulo', 'round', 'base64_decode', 'base64_encode', 'path_canonicalize', 'truncate'],
  ...['semver_compare', 'parse_json', 'parse_yaml', 'lookup', 'items', 'object_from_lists'],
  ...['random', 'x509_decode', 'image_normalize', 'is_external_url', 'sha256', 'sha1', 'md5'],
  ...['time_since', 'time_now', 'time_now_utc', 'time_add', 'time_parse', 'time_to_cron'],
  ...['time_utc', 'time_diff', 'time_before', 'time_after', 'time_between', 'time_truncate'],
];
const KNOWN_FUNCTIONS = new Set(FUNCTIONS);

/** What Kyverno says of a function it does not have, with the one likely meant. */
function unknownFunction(name: string): string {
  const snake = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();
  const meant = KNOWN_FUNCTIONS.has(snake) ? snake : didYouMean(name, FUNCTIONS);
  return `Kyverno has no function ${name}${meant === undefined ? '' : ` (did you mean ${meant}?)`}: each request's rule fails on it`;
}

/** How deep a query's syntax tree is walked (a query is a line of a policy). */
const MAX_DEPTH = 64;

/** What Kyverno refuses a policy for, before the reason. */
const REFUSED = 'Kyverno refuses the policy: invalid JMESPath query: ';

/**
 * What is wrong with `query` for Kyverno, in words to put after it, or `undefined`: it does not
 * parse in Kyverno's JMESPath (the policy is refused), or it calls a function Kyverno does not
 * have (each request fails).
 */
export function kyvernoJmespathError(query: string): string | undefined {
  let tree: unknown;
  try {
    tree = compile(query);
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).replace(
      /^Syntax error: /,
      '',
    );
    // `invalid token (EOF): ""`, `expected Rbracket, got: EOF`: said as what it means.
    return /\bEOF\b/.test(message)
      ? `${REFUSED}the query ends too soon (an unclosed (, [ or {, or an operator with nothing after it)`
      : `${REFUSED}${message}`;
  }
  const found = syntaxTreeProblem(tree, 0);
  return found === undefined
    ? undefined
    : found.refused
      ? `${REFUSED}${found.detail}`
      : found.detail;
}

/**
 * What of the community edition a syntax tree uses (`refused`: Kyverno does not parse it), or a
 * function it calls that Kyverno lacks.
 */
function syntaxTreeProblem(
  node: unknown,
  depth: number,
): { readonly detail: string; readonly refused: boolean } | undefined {
  if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = syntaxTreeProblem(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const type = (node as { type?: unknown }).type;
  if (typeof type === 'string' && Object.hasOwn(COMMUNITY_ONLY, type)) {
    return { detail: COMMUNITY_ONLY[type] as string, refused: true };
  }
  // A literal's value is data, not syntax.
  if (type === 'Literal') return undefined;
  const name = (node as { name?: unknown }).name;
  if (type === 'Function' && typeof name === 'string' && !KNOWN_FUNCTIONS.has(name)) {
    return { detail: unknownFunction(name), refused: false };
  }
  for (const child of Object.values(node)) {
    const found = syntaxTreeProblem(child, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
