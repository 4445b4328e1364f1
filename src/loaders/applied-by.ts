/**
 * The test that applies a manifest file (a chainsaw test, or a directory of numbered steps), and
 * the namespace it applies it in, or the policy test that reviews it (gator's, Kyverno's): what the
 * walk finds (`walk-manifest-tree.ts`) and the load takes (`load-resources.ts`).
 */

/** The test that applies a file, and where. */
export interface AppliedBy {
  /** The test's file, as shown (`tests/e2e/smoke/chainsaw-test.yaml`). */
  readonly test: string;
  /** The namespace of the file's namespaced Kubernetes objects that name none. */
  readonly namespace: string | undefined;
  /** Whether the test evaluates the file's `($namespace)` expressions (`test-expressions.ts`). */
  readonly templates: boolean;
  /**
   * The objects (`Kind/name`, or `Kind/*` for those asserted by their labels) the test asserts
   * before it first applies the file: when none of its files applied one before, another made it
   * (an operator the test runs), so the file's apply of it patches what is there (chainsaw merges
   * it in) rather than create a whole object.
   */
  readonly existing?: readonly string[];
  /**
   * A policy test uses the file on its own, in one test or case, so none of its objects is part
   * of the run (nor a duplicate): a `whole` one (a gator test's constraint) is checked whole, as
   * its policy engine checks it; a `case` (an object the policy reviews as written) for its shape
   * (its fields' names and types).
   */
  readonly policyTest?: 'whole' | 'case';
}

/** Whether two files are applied by the same test in the same namespace, or both by none. */
export function sameAppliedBy(a: AppliedBy | undefined, b: AppliedBy | undefined): boolean {
  return (
    a?.test === b?.test &&
    a?.namespace === b?.namespace &&
    a?.templates === b?.templates &&
    a?.policyTest === b?.policyTest &&
    (a?.existing ?? []).join('\n') === (b?.existing ?? []).join('\n')
  );
}
