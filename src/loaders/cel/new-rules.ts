/**
 * The rules of a CRD being created or changed, as the API server compiles them. It compiles a
 * new rule in its NewExpressions environment, with the libraries of the release before its own,
 * and only a rule the stored CRD already had (the same text) with its own libraries (the
 * StoredExpressions environment): so a CRD whose new rule calls `isIP` is refused by 1.30, which
 * introduced the ip library, and taken from 1.31 on. A rule of a CRD the API server already
 * stores runs, on its objects, with its own libraries.
 */

/**
 * The expressions of the stored CRD (the previous revision's, `--previous`), anywhere in any of
 * its versions' schemas: a rule (or message expression) of the same text compiles with the
 * libraries of the run's own release, as the API server's `findPreexistingExpressions` keeps
 * them. Rules and message expressions are two sets, as there.
 */
export interface PreexistingExpressions {
  readonly rules: ReadonlySet<string>;
  readonly messageExpressions: ReadonlySet<string>;
}

/** A created CRD's: none. */
const NONE: PreexistingExpressions = { rules: new Set(), messageExpressions: new Set() };

import {
  celEnvironmentAdding,
  celEnvironmentFor,
  KUBERNETES_LIBRARIES,
  kubernetesMinor,
  newExpressionsEnvironmentFor,
  DEFAULT_KUBERNETES_VERSION,
} from './cel-environment.js';
import { compileRulesIn } from './rule-compiler.js';
import { compileExpression } from './compile-expression.js';
import type { RuleProblem } from './compiled-rule.js';

/** The problems of a rule that cannot compile in another environment (see `rule-compiler.ts`). */
const COMPILE_PROBLEMS: ReadonlySet<string> = new Set([
  'rule-compile',
  'message-expression-compile',
]);

/**
 * The problems of `schema`'s rules (and message expressions) that compile with the libraries
 * of Kubernetes `version` but not as new rules: each names the library it needs and the release
 * that lets a new rule use it. `preexisting` holds the expressions the stored CRD already has,
 * which compile with `version`'s own libraries.
 */
export function newRuleProblems(
  schema: object,
  version: string = DEFAULT_KUBERNETES_VERSION,
  preexisting: PreexistingExpressions = NONE,
): RuleProblem[] {
  const fresh = compileRulesIn(newExpressionsEnvironmentFor(version), schema).problems;
  if (fresh.length === 0) return [];
  const stored = new Set(compileRulesIn(celEnvironmentFor(version), schema).problems.map(at));
  const minor = kubernetesMinor(version);
  const problems: RuleProblem[] = [];
  for (const problem of fresh) {
    if (!COMPILE_PROBLEMS.has(problem.rule) || stored.has(at(problem))) continue;
    const expression = expressionAt(schema, problem.path);
    if (expression === undefined) continue;
    const kept =
      problem.rule === 'rule-compile' ? preexisting.rules : preexisting.messageExpressions;
    if (kept.has(expression)) continue;
    problems.push({
      path: problem.path,
      message: needsLibraryMessage(expression, problem, minor),
      rule: 'rule-library-version',
    });
  }
  return problems;
}

/** Where a problem is (one per expression). */
const at = (problem: RuleProblem): string => problem.path;

/** What a problem's expression needs, in the words of the release that allows it. */
function needsLibraryMessage(expression: string, problem: RuleProblem, minor: number): string {
  const what = problem.rule === 'rule-compile' ? 'rule' : 'messageExpression';
  const library = KUBERNETES_LIBRARIES.find(
    (candidate) =>
      candidate.since === minor &&
      !(
        'error' in
        compileExpression(expression, undefined, celEnvironmentAdding(minor - 1, candidate))
      ),
  );
  // The name the rule calls of that library, else the first it lacks.
  const names = [...problem.message.matchAll(/undeclared reference to '([^']+)'/g)].map(
    (match) => match[1] as string,
  );
  const name =
    names.find((n) => library?.funcs.some((f) => f.name === n || f.name.endsWith(`.${n}`))) ??
    names[0];
  const needs = `${name ?? `the ${what}`} needs Kubernetes 1.${minor + 1} for new rules`;
  const why = `the API server of 1.${minor} compiles a new or changed ${what} with the libraries of 1.${minor - 1}, so that a rollback can still compile it`;
  return library === undefined
    ? `the ${what} does not compile as a new ${what}: ${needs} (${why})`
    : `the ${what} does not compile as a new ${what}: ${needs} (${library.name} library introduced in 1.${library.since}; ${why})`;
}

/** The string at a JSON pointer inside a schema (a rule's `rule` or `messageExpression`). */
function expressionAt(schema: object, pointer: string): string | undefined {
  let node: unknown = schema;
  for (const segment of pointer.split('/').slice(1)) {
    if (typeof node !== 'object' || node === null) return undefined;
    const key = segment.replace(/~1/g, '/').replace(/~0/g, '~');
    node = (node as Record<string, unknown>)[key];
  }
  return typeof node === 'string' ? node : undefined;
}
