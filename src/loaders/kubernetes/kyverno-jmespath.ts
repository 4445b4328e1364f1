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

/** How deep a query's syntax tree is walked (a query is a line of a policy). */
const MAX_DEPTH = 64;

/**
 * Why Kyverno cannot parse `query`, in words to put after the query, or `undefined` when it
 * parses.
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
      ? 'the query ends too soon (an unclosed (, [ or {, or an operator with nothing after it)'
      : message;
  }
  return communityOnly(tree, 0);
}

/** What of the community edition a syntax tree uses, if anything. */
function communityOnly(node: unknown, depth: number): string | undefined {
  if (depth > MAX_DEPTH || node === null || typeof node !== 'object') return undefined;
  if (Array.isArray(node)) {
    for (const item of node) {
      const found = communityOnly(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  const type = (node as { type?: unknown }).type;
  if (typeof type === 'string' && Object.hasOwn(COMMUNITY_ONLY, type)) return COMMUNITY_ONLY[type];
  // A literal's value is data, not syntax.
  if (type === 'Literal') return undefined;
  for (const child of Object.values(node)) {
    const found = communityOnly(child, depth + 1);
    if (found !== undefined) return found;
  }
  return undefined;
}
