import { formatPointer } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import { formatDuration } from '../app/format-duration.js';
import { outputYaml } from '../app/output-yaml.js';
import { NOT_SHOWN, shownSpec } from '../app/shown-spec.js';
import { parseDurationText } from '../app/parse-duration.js';
import { CosiAssertionError, failAtCaller } from './assertion-error.js';
import { presentError, resourceMismatch, unsettledNote } from './assertions.js';
import { typeName, type DeepPartial, type TypeRef } from './spec-expectation.js';
import type { ResourceOptions, TestProject } from './test-project.js';

/** How long an assertion waits, in simulated time (ms, or `'30s'`; default one minute). */
export interface WaitOptions extends ResourceOptions {
  readonly timeout?: number | string;
}

/**
 * A check of one resource: a partial spec it must hold (see `expectResource`), or a function
 * that throws (any runner's `expect`) or returns `false` when the resource is not there yet.
 */
export type ResourceCheck<S = unknown> =
  CheckFunction<S> | (unknown extends S ? Record<string, unknown> : DeepPartial<S>);

/** A check that throws (`expect(...)`), or answers `false`, when the resource does not pass. */
export type CheckFunction<S = unknown> = (resource: Resource<S>) => unknown;

const DEFAULT_WAIT = 60_000;

/**
 * Waits, on the simulated clock, until the resource exists and passes `check` (COSI's
 * `rtestutils.AssertResource`): the controllers run, and pending timers (backoffs, requeues)
 * fire one by one, until it holds or `timeout` of simulated time has passed.
 *
 * @throws the check's last failure (a CosiAssertionError with a diff for a partial spec) when
 *   it never held.
 */
export async function assertResource<S = unknown>(
  project: TestProject,
  type: TypeRef<S>,
  id: string,
  check?: ResourceCheck<NoInfer<S>>,
  options: WaitOptions = {},
): Promise<void> {
  await failAtCaller(assertResource, () => assertResources(project, type, [id], check, options));
}

/** {@link assertResource} of several ids at once: all must pass (`rtestutils.AssertResources`). */
export async function assertResources<S = unknown>(
  project: TestProject,
  typeRef: TypeRef<S>,
  ids: readonly string[],
  check?: ResourceCheck<NoInfer<S>>,
  options: WaitOptions = {},
): Promise<void> {
  const type = typeName(typeRef);
  await failAtCaller(assertResources, () =>
    waitUntil(project, options, () => firstFailure(project, type, ids, check, options)),
  );
}

/**
 * Waits until every resource of a type passes `check` (`rtestutils.AssertAll`): the type is
 * listed again at each check, so what the controllers make meanwhile is checked too.
 */
export async function assertAll<S = unknown>(
  project: TestProject,
  typeRef: TypeRef<S>,
  check: ResourceCheck<NoInfer<S>>,
  options: WaitOptions = {},
): Promise<void> {
  const type = typeName(typeRef);
  await failAtCaller(assertAll, () =>
    waitUntil(project, options, async () => {
      const ids = (await project.list(type, options)).map((r) => r.metadata.id);
      return firstFailure(project, type, ids, check, options);
    }),
  );
}

/** The first of `ids` that is missing or fails `check`, as its failure; `undefined`: all pass. */
async function firstFailure<S>(
  project: TestProject,
  type: string,
  ids: readonly string[],
  check: ResourceCheck<S> | undefined,
  options: WaitOptions,
): Promise<unknown> {
  for (const id of ids) {
    const resource = await project.get<S>(type, id, options);
    const failure =
      typeof check === 'function'
        ? resource === undefined
          ? await resourceMismatch(project, type, id, resource, {}, options)
          : await runCheck(
              check as CheckFunction<S>,
              resource,
              `${formatPointer(resource.metadata)} failed its check`,
              () => lastSeen(project, resource),
            )
        : await resourceMismatch(project, type, id, resource, check, options);
    if (failure !== undefined) return failure;
  }
  return undefined;
}

/** Waits until a type has exactly `length` resources (`rtestutils.AssertLength`). */
export async function assertLength(
  project: TestProject,
  typeRef: TypeRef,
  length: number,
  options: WaitOptions = {},
): Promise<void> {
  const type = typeName(typeRef);
  await failAtCaller(assertLength, () =>
    waitUntil(project, options, async () => {
      const ids = (await project.list(type, options)).map((r) => r.metadata.id);
      return ids.length === length
        ? undefined
        : new CosiAssertionError(
            `expected ${length} resources of ${project.pointer(type, '', options).type}, found ${ids.length}${ids.length > 0 ? `: ${ids.join(', ')}` : ''}`,
          );
    }),
  );
}

/** Waits until the resource does not exist (`rtestutils.AssertNoResource`). */
export async function assertNoResource(
  project: TestProject,
  type: TypeRef,
  id: string,
  options: WaitOptions = {},
): Promise<void> {
  await failAtCaller(assertNoResource, async () => {
    const pointer = await project.absentPointer(typeName(type), id, options);
    await waitUntil(project, options, async () => {
      const resource = await project.get(pointer.type, id, pointer);
      return resource === undefined ? undefined : presentError(resource, project.lastReport);
    });
  });
}

/**
 * Removes manifests the graceful way, as `rtestutils.Destroy` does: tears them down, waits on
 * the simulated clock while the controllers release them (remove their finalizers), and until
 * they are destroyed.
 *
 * @throws CosiAssertionError naming what is left when they are not gone within `timeout`.
 */
export async function teardownAndDestroy(
  project: TestProject,
  typeRef: TypeRef,
  ids: string | readonly string[],
  options: WaitOptions = {},
): Promise<void> {
  const type = typeName(typeRef);
  const list = typeof ids === 'string' ? [ids] : ids;
  await failAtCaller(teardownAndDestroy, async () => {
    await project.destroy(type, list, options);
    // The applier destroys released manifests when a convergence ends; then wait for the rest.
    await project.converge();
    for (const id of list) await assertNoResource(project, type, id, options);
  });
}

/**
 * Checks `evaluate` until it answers no failure, once the controllers have run what is due now:
 * after each failing check, the next pending timer (within the timeout) fires and the
 * controllers run. Throws the last failure when time
 * runs out or nothing is left to happen.
 */
async function waitUntil(
  project: TestProject,
  options: WaitOptions,
  evaluate: () => Promise<unknown>,
): Promise<void> {
  const timeout = waitOf(options.timeout);
  // The controllers first catch up with the present (an apply or edit since the last
  // convergence, what a wait before any left pending): checked before, a wait would pass on
  // what they are about to change, a value from before the edit or an output not yet made.
  await project.advance(0);
  const started = project.now();
  const deadline = started + timeout;
  let failure = await evaluate();
  while (failure !== undefined) {
    // A reconcile that never ended holds the project as it is: no timer would move it on.
    const stuck = project.lastReport?.controllers.some((c) => c.stuck !== undefined) === true;
    const moved = !stuck && (await project.step(deadline));
    failure = await evaluate();
    if (failure !== undefined && !moved) {
      if (failure instanceof CosiAssertionError) {
        // Why the controllers had not settled at the end of the wait (one kept failing on the
        // resource, most often), as Gomega's `Eventually` shows the last error.
        const note = unsettledNote(project.lastReport, project.lastReportIsOfSpan);
        throw new CosiAssertionError(
          `${firstLine(failure.message)} (waited ${formatDuration(project.now() - started)} of simulated time${project.now() < deadline ? untilWhat(project, deadline) : ''})${note === '' ? '' : `\n${note}`}`,
          failure.resourceDiff,
        );
      }
      throw failure as Error;
    }
  }
}

/** Why a wait ended before its deadline: no timer left, or the next one falls after it. */
function untilWhat(project: TestProject, deadline: number): string {
  const next = project.project.runtime.clock.nextTimerAt?.();
  return next === undefined || next <= deadline
    ? ', nothing left to happen'
    : `, the next timer is due ${formatDuration(next - deadline)} after the timeout`;
}

async function runCheck<S>(
  check: CheckFunction<S>,
  resource: Resource<S>,
  message: string,
  seen: () => string,
): Promise<unknown> {
  try {
    return (await check(resource)) === false ? new CosiAssertionError(message, seen()) : undefined;
  } catch (error) {
    return error ?? new CosiAssertionError(message, seen());
  }
}

/**
 * The resource as the check that answered `false` saw it, as Gomega's `Eventually` prints the
 * last value: its version and spec (what a shared view shows of it: none of a sensitive type's,
 * a Secret's keys without their values).
 */
function lastSeen(project: TestProject, resource: Resource): string {
  const spec = shownSpec(project.project.registry.get(resource.metadata.type), resource.spec);
  const shown =
    spec === undefined
      ? `  ${NOT_SHOWN}`
      : outputYaml(spec)
          .replace(/\n$/, '')
          .split('\n')
          .map((line) => `  ${line}`)
          .join('\n');
  return `the check last saw version ${resource.metadata.version}, spec:\n${shown}`;
}

function waitOf(timeout: number | string | undefined): number {
  if (timeout === undefined) return DEFAULT_WAIT;
  const ms = typeof timeout === 'number' ? timeout : parseDurationText(timeout);
  if (ms === undefined || !(ms >= 0)) {
    const shown = typeof timeout === 'number' ? String(timeout) : JSON.stringify(timeout);
    throw new RangeError(`timeout: invalid duration ${shown}`);
  }
  return ms;
}

function firstLine(text: string): string {
  const end = text.indexOf('\n');
  return end === -1 ? text : text.slice(0, end);
}
