import type { ConvergenceReport } from '../engine/runtime/convergence.js';
import { CosiAssertionError, failAtCaller } from './assertion-error.js';
import {
  convergenceProblem,
  describeQuery,
  expectFinding,
  expectResource,
  type FindingQuery,
} from './assertions.js';
import { typeName, type SpecExpectation, type TypeRef } from './spec-expectation.js';
import type { ResourceOptions, TestProject } from './test-project.js';

/** What a jest / vitest matcher answers. */
export interface MatcherResult {
  readonly pass: boolean;
  readonly message: () => string;
}

/** `toHaveResource`: see {@link cosiMatchers}. */
async function toHaveResource(
  this: { readonly isNot?: boolean },
  project: TestProject,
  type: TypeRef,
  id: string,
  partialSpec: unknown = {},
  options: ResourceOptions = {},
): Promise<MatcherResult> {
  // A misuse (a type no definition has) fails at the test's line, not in cosi.
  return await failAtCaller(toHaveResource, async () => {
    // `not` passes on any failure: one of a type or namespace never had must not be it.
    if (this.isNot === true) await project.absentPointer(typeName(type), id, options);
    const failure = await failureOf(() => expectResource(project, type, id, partialSpec, options));
    const pointer = project.pointer(type, id, options);
    return {
      pass: failure === undefined,
      message: () =>
        failure?.message ??
        `expected ${pointer.type} ${pointer.namespace}/${id} not to exist with that spec, but it does`,
    };
  });
}

/**
 * The matchers `cosi/testing/matchers` registers on vitest's or jest's `expect`; for another
 * runner with `expect.extend`, pass this object to it. With them:
 *
 * @example
 * await expect(project).toHaveResource('NetworkConfig', 'web-1', { ip: '10.0.0.2' });
 * expect(await project.converge()).toConverge();
 * await expect(project).toHaveFinding({ code: 'reconcile-failed' });
 */
export const cosiMatchers = {
  toHaveResource,

  toConverge(subject: ConvergenceReport | TestProject): MatcherResult {
    const report = 'lastReport' in subject ? subject.lastReport : subject;
    const problem =
      report === undefined
        ? 'expected the project to have converged, but it never ran'
        : convergenceProblem(report);
    return {
      pass: problem === undefined,
      message: () => problem ?? 'expected the controllers not to converge, but they did',
    };
  },

  async toHaveFinding(project: TestProject, query: FindingQuery): Promise<MatcherResult> {
    const failure = await failureOf(() => expectFinding(project, query));
    return {
      pass: failure === undefined,
      message: () =>
        failure?.message ?? `expected no finding ${describeQuery(query)}, but there is one`,
    };
  },
};

/** The matchers as a type, to declare them to a runner's `expect`; `R` is what they return. */
export interface CosiMatchers<R = unknown> {
  /**
   * `type` is any alias or the `defineResource` handle, whose spec type then types
   * `partialSpec`, as {@link expectResource}'s does.
   */
  toHaveResource<S = unknown>(
    type: TypeRef<S>,
    id: string,
    partialSpec?: SpecExpectation<NoInfer<S>>,
    options?: ResourceOptions,
  ): Promise<R>;
  toConverge(): R;
  toHaveFinding(query: FindingQuery): Promise<R>;
}

async function failureOf(run: () => Promise<unknown>): Promise<CosiAssertionError | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    if (error instanceof CosiAssertionError) return error;
    throw error;
  }
}
