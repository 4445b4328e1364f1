/**
 * `cosi/testing`: test a project's controllers the way COSI's authors test theirs, in any test
 * runner (none is a dependency): a project on the in-memory state with a simulated clock,
 * assertions that throw readable errors with diffs, waits on the simulated clock in the shapes
 * of COSI's `rtestutils`, and fault injection. `cosi/testing/matchers` registers vitest / jest
 * matchers. See docs/testing.md.
 */
export {
  createTestProject,
  TestProject,
  type ManifestDraft,
  type ResourceOptions,
  type TestProjectOptions,
} from './test-project.js';
export type { TestConfig } from './test-config.js';
export type { AppliedResources } from './applied-resources.js';
export type { ReconcileResult } from './reconcile-once.js';
export { ManifestError, type ManifestInput } from './manifest-input.js';
export { CosiAssertionError } from './assertion-error.js';
export { UnknownTargetError } from './absence-target.js';
export {
  expectConverged,
  expectFinding,
  expectNoResource,
  expectResource,
  type FindingQuery,
} from './assertions.js';
export { expectGolden, UPDATE_GOLDEN_ENV, type GoldenOptions } from './golden.js';
export type { DeepPartial, SpecExpectation, TypeRef } from './spec-expectation.js';
export {
  assertAll,
  assertLength,
  assertNoResource,
  assertResource,
  assertResources,
  teardownAndDestroy,
  type CheckFunction,
  type ResourceCheck,
  type WaitOptions,
} from './wait-for.js';
export { matchesPartially, partialDiff } from './partial-match.js';
export {
  createFaultyState,
  FaultInjector,
  type FaultOptions,
  type FaultyState,
  type InjectedFault,
  type WriteAttempt,
} from './fault-state.js';
export { ControllerFaults } from './controller-faults.js';
export { cosiMatchers, type CosiMatchers, type MatcherResult } from './matchers.js';
