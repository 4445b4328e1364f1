import { describeSpreadWrites } from '../app/spread-writes.js';
import { describeStuck } from '../app/stuck-controllers.js';
import { formatPointer, pointerKey, type Pointer } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import type { ConvergenceReport } from '../engine/runtime/convergence.js';
import type { ErrorRecord } from '../engine/runtime/error-record.js';
import { didYouMeanType } from '../loaders/did-you-mean.js';
import { formatFinding, type Finding } from '../loaders/finding.js';
import { absentFields } from './absent-fields.js';
import { CosiAssertionError, failAtCaller, thrownAtCaller } from './assertion-error.js';
import { matchesPartially, pruneToShape, shapedDiff } from './partial-match.js';
import { maskChangedValues, maskedSpecFields } from '../app/masked-values.js';
import { typeName, type SpecExpectation, type TypeRef } from './spec-expectation.js';
import type { ResourceOptions, TestProject } from './test-project.js';

/**
 * What there is of a missing resource's type, for the message: the ids in its namespace, else
 * those of the other namespaces (a misspelt or forgotten namespace), else that there is none.
 */
export async function whatExists(project: TestProject, pointer: Pointer): Promise<string> {
  const ids = (await project.list(pointer.type, pointer)).map((r) => r.metadata.id);
  if (ids.length > 0) return `existing ids: ${ids.join(', ')}`;
  const elsewhere = (await project.resources())
    .filter((r) => r.metadata.type === pointer.type)
    .map((r) => `${r.metadata.namespace}/${r.metadata.id}`);
  if (elsewhere.length === 0) {
    const { registry } = project.project;
    // A type with no definition whose name is near one: most likely misspelt.
    const guess =
      registry.get(pointer.type) === undefined
        ? didYouMeanType(pointer.type, registry.all())
        : undefined;
    return guess === undefined
      ? 'no resource of that type exists'
      : `no resource of that type exists, and no definition names it: did you mean ${JSON.stringify(guess)}?`;
  }
  const shown = elsewhere.slice(0, 5).join(', ');
  return `none in namespace ${pointer.namespace}; of that type: ${shown}${elsewhere.length > 5 ? `, ... (${elsewhere.length})` : ''}`;
}

/** Which findings {@link expectFinding} looks for: a code, and optionally more. */
export interface FindingQuery {
  readonly code: string;
  /** A part of the message, or a pattern it matches. */
  readonly message?: string | RegExp;
  /** The file the finding names, as shown (relative to the project's `cwd`). */
  readonly file?: string;
  readonly severity?: 'error' | 'warning';
}

/**
 * Asserts that the resource exists and that its spec holds `partialSpec`, matched as
 * `toMatchObject` matches (keys it does not name are ignored). Resolves to the resource.
 *
 * @example
 * await expectResource(project, 'NetworkConfig', 'web-1', { ip: '10.0.0.2' });
 * // With the type's handle, the expected spec is type-checked against its spec type.
 * await expectResource(project, NetworkConfig, 'web-1', { ip: '10.0.0.2' });
 * @throws CosiAssertionError with a diff of the spec when it differs, or the ids of its type
 *   when the resource does not exist.
 */
export async function expectResource<S = unknown>(
  project: TestProject,
  typeRef: TypeRef<S>,
  id: string,
  partialSpec?: SpecExpectation<NoInfer<S>>,
  options: ResourceOptions = {},
): Promise<Resource<S>> {
  return await failAtCaller(expectResource, async () => {
    const type = typeName(typeRef);
    const resource = await project.get<S>(type, id, options);
    // The last convergence's, or the last `advance`'s (a wait adds its own, of its end).
    const note = unsettledNote(project.lastReport, project.lastReportIsOfSpan);
    const mismatch = (noted: string) =>
      resourceMismatch(project, type, id, resource, partialSpec ?? {}, options, noted);
    const failure = await mismatch(note);
    if (failure === undefined) return resource as Resource<S>;
    // A manifest where a controller's output goes is most often why it differs: say so.
    const collision = await collisionOf(project, project.pointer(type, id, options));
    throw collision === undefined
      ? failure
      : ((await mismatch([collision, note].filter((n) => n !== '').join('\n'))) ?? failure);
  });
}

/**
 * The `output-collision` finding of a resource that is a manifest of a controller's output (which
 * the controller cannot write: the manifest wins), as `cosi check` reports it, formatted.
 */
async function collisionOf(project: TestProject, pointer: Pointer): Promise<string | undefined> {
  const prefix = `${formatPointer(pointer)} is also written by controller `;
  const finding = (await project.findings()).find(
    (f) => f.code === 'output-collision' && f.message.startsWith(prefix),
  );
  return finding === undefined ? undefined : formatFinding(finding);
}

/**
 * Why `resource` does not meet the expectation, or `undefined` when it does: what
 * {@link expectResource} throws, for callers that wait and check again. `note` goes on the lines
 * after the first (see {@link unsettledNote}).
 */
export async function resourceMismatch(
  project: TestProject,
  type: string,
  id: string,
  resource: Resource | undefined,
  partialSpec: unknown,
  options: ResourceOptions = {},
  note = '',
): Promise<CosiAssertionError | undefined> {
  const pointer = project.pointer(type, id, options);
  const noted = (message: string): string => (note === '' ? message : `${message}\n${note}`);
  if (resource === undefined) {
    return new CosiAssertionError(
      noted(
        `expected ${formatPointer(pointer)} to exist, but it does not (${await whatExists(project, pointer)})`,
      ),
    );
  }
  if (matchesPartially(resource.spec, partialSpec)) return undefined;
  // A Secret's values and a sensitive type's spec masked, as `cosi test` and `kubectl diff` do.
  const [expected, actual] = maskChangedValues(
    partialSpec,
    pruneToShape(resource.spec, partialSpec),
    maskedSpecFields(project.project.registry.get(pointer.type), resource.spec, partialSpec),
  );
  return new CosiAssertionError(
    noted(
      `expected the spec of ${formatPointer(pointer)} to match${absentFields(resource.spec, partialSpec)}`,
    ),
    shapedDiff(actual, expected, `${pointer.type} ${pointer.id} spec`),
  );
}

/**
 * Asserts that the resource does not exist.
 *
 * @throws UnknownTargetError when its type or namespace is one the project never had (a typo
 *   would make the assertion pass whatever the controllers do).
 * @throws CosiAssertionError naming its owner and phase when it does.
 */
export async function expectNoResource(
  project: TestProject,
  type: TypeRef,
  id: string,
  options: ResourceOptions = {},
): Promise<void> {
  await failAtCaller(expectNoResource, async () => {
    const pointer = await project.absentPointer(typeName(type), id, options);
    const resource = await project.get(pointer.type, id, pointer);
    if (resource !== undefined) throw presentError(resource, project.lastReport);
  });
}

/**
 * The error for a resource that should not be there. One torn down and held by a finalizer says
 * why its controller has not released it, from the last convergence: the error of its finalizer
 * removal, which the run retried and gave up on.
 */
export function presentError(resource: Resource, report?: ConvergenceReport): CosiAssertionError {
  const md = resource.metadata;
  const finalizers = md.finalizers.length > 0 ? `, finalizers ${md.finalizers.join(', ')}` : '';
  return new CosiAssertionError(
    `expected ${formatPointer(md)} not to exist, but it does (version ${md.version}, owner ${md.owner === '' ? 'the manifests' : md.owner}, phase ${md.phase}${finalizers})${heldBecause(resource, report)}`,
  );
}

/** Why the controllers whose finalizers a resource carries have not removed them, if they failed. */
function heldBecause(resource: Resource, report: ConvergenceReport | undefined): string {
  const key = pointerKey(resource.metadata);
  const reasons: string[] = [];
  for (const finalizer of resource.metadata.finalizers) {
    const controller = report?.controllers.find((c) => c.name === finalizer);
    if (controller === undefined) continue;
    const item = controller.failingItems.find((i) => pointerKey(i.pointer) === key);
    if (item !== undefined) {
      reasons.push(`${finalizer} failed on it (${item.attempts} attempts): ${item.error.message}`);
    } else if (
      controller.lastError !== undefined &&
      (controller.condition === 'failed' || controller.condition === 'backoff')
    ) {
      reasons.push(`${finalizer} kept failing: ${controller.lastError.message}`);
    }
  }
  return reasons.length === 0 ? '' : `; ${reasons.join('; ')}`;
}

/**
 * Asserts that a convergence settled (`quiescent`, or `steady`: only periodic requeues that change
 * nothing): no controller kept failing, no bound was hit. Given a project, checks its last
 * convergence.
 *
 * @throws CosiAssertionError saying why it did not, with each failing controller's last error
 *   and what kept changing.
 */
export function expectConverged(subject: ConvergenceReport | TestProject): void {
  const report = 'lastReport' in subject ? subject.lastReport : subject;
  if (report === undefined) {
    throw thrownAtCaller(
      new CosiAssertionError('expected the project to have converged, but it never ran'),
      expectConverged,
    );
  }
  const problem = convergenceProblem(report);
  if (problem !== undefined) throw thrownAtCaller(new CosiAssertionError(problem), expectConverged);
}

/** Where in the project's code an error was thrown, as `cosi check` ends its message with it. */
function thrownAt(error: ErrorRecord): string {
  const at = error.location;
  return at === undefined ? '' : ` (at ${at.file}:${at.line}:${at.col})`;
}

/** Why a report did not converge, or `undefined` when it did. */
export function convergenceProblem(report: ConvergenceReport): string | undefined {
  const why = unsettled(report);
  if (why === undefined) return undefined;
  return [
    `expected the controllers to converge, but they did not ${why.summary}`,
    ...why.details,
  ].join('\n');
}

/**
 * What a failed expectation adds when the last convergence did not settle (a controller kept
 * failing, a bound ended it): why, which is most often why the resource is missing or differs.
 * One line per cause, each indented; empty when it settled or never ran.
 */
export function unsettledNote(report: ConvergenceReport | undefined, ofSpan = false): string {
  const why = report === undefined ? undefined : unsettled(report);
  if (why === undefined) return '';
  // A report of an `advance` or a wait is of no convergence: say what it is of.
  const what = ofSpan
    ? 'the controllers had not settled at the end of the last advance or wait'
    : 'the last convergence did not settle';
  return [`${what} ${why.summary}`, ...why.details].join('\n');
}

/** A report that did not converge: the reason and what was stuck, then a line per cause. */
function unsettled(
  report: ConvergenceReport,
): { readonly summary: string; readonly details: readonly string[] } | undefined {
  if (report.converged) return undefined;
  const stuck = describeStuck(report);
  const spread = describeSpreadWrites(report);
  const lines: string[] = [];
  for (const c of report.controllers) {
    // The place is said once: on the controller's line, and on an item's when it differs.
    const said = c.lastError && c.condition === 'failed' ? thrownAt(c.lastError) : '';
    if (c.lastError && c.condition === 'failed')
      lines.push(`  ${c.name} failed: ${c.lastError.message}${said}`);
    // A run ended by its time bound: what was still running, what kept it going.
    if (c.runningAtEnd !== undefined)
      lines.push(
        `  ${c.name} was still ${c.runningAtEnd.pointer ? `reconciling ${formatPointer(c.runningAtEnd.pointer)}` : 'running'} when the time bound ended the run`,
      );
    if (report.reason === 'max-time' && c.waitingItems.length > 0)
      lines.push(
        `  ${c.name} had ${c.waitingItems.length} item${c.waitingItems.length === 1 ? '' : 's'} waiting to be reconciled again: ${c.waitingItems.slice(0, 5).map(formatPointer).join(', ')}${c.waitingItems.length > 5 ? ', ...' : ''}`,
      );
    for (const item of c.failingItems)
      lines.push(
        `  ${c.name} could not ${item.mapping === true ? `map the change of ${formatPointer(item.pointer)} to the items it affects` : `reconcile ${formatPointer(item.pointer)}`} (${item.attempts} attempts): ${item.error.message}${thrownAt(item.error) === said ? '' : thrownAt(item.error)}`,
      );
  }
  for (const o of report.oscillating.slice(0, 5))
    lines.push(
      `  ${formatPointer(o.pointer)} kept changing: ${o.writes} writes by ${o.writers.join(', ')}`,
    );
  return {
    summary: `(${report.reason})${stuck ? `: ${stuck}` : ''}${spread ? `: ${spread}` : ''}`,
    details: lines,
  };
}

/**
 * Asserts that `cosi check` would report a finding like `query` of the project now (see
 * {@link TestProject.findings}), or among the findings given. Resolves to the findings that match.
 *
 * @throws CosiAssertionError listing every finding there is when none matches.
 */
export async function expectFinding(
  subject: TestProject | readonly Finding<string>[],
  query: FindingQuery,
): Promise<Finding<string>[]> {
  const findings = Array.isArray(subject)
    ? (subject as readonly Finding<string>[])
    : await (subject as TestProject).findings();
  const matching = findings.filter((f) => findingMatches(f, query));
  if (matching.length > 0) return matching;
  throw thrownAtCaller(
    new CosiAssertionError(
      `expected a finding ${describeQuery(query)}, but ${findings.length === 0 ? 'there are none' : `there are only:\n${findings.map((f) => `  ${formatFinding(f)}`).join('\n')}`}`,
    ),
    expectFinding,
  );
}

export function findingMatches(f: Finding<string>, query: FindingQuery): boolean {
  if (f.code !== query.code) return false;
  if (query.severity !== undefined && f.severity !== query.severity) return false;
  if (query.file !== undefined && f.file !== query.file) return false;
  const { message } = query;
  if (message === undefined) return true;
  return typeof message === 'string' ? f.message.includes(message) : message.test(f.message);
}

export function describeQuery(query: FindingQuery): string {
  return [
    `[${query.code}]`,
    query.severity ? `(${query.severity})` : '',
    query.message !== undefined ? `with a message matching ${String(query.message)}` : '',
    query.file !== undefined ? `in ${query.file}` : '',
  ]
    .filter(Boolean)
    .join(' ');
}
