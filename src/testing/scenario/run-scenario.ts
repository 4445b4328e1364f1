import * as path from 'node:path';
import type { LogRecord } from '../../engine/runtime/logger.js';
import { displayPath } from '../../app/display-path.js';
import { maskChangedValues, maskedDocumentFields } from '../../app/masked-values.js';
import { toDocument } from '../../app/output-document.js';
import { PROCESS_EXIT_CODE } from '../../app/process-exit-guard.js';
import { withConfigManifests } from '../../app/config-manifests.js';
import { loadProjectConfig } from '../../app/project-config.js';
import { userCodeWait } from '../../app/user-code-deadline.js';
import type { ReadProjectOptions } from '../../app/read-project-manifests.js';
import type { UserCodeMonitor } from '../../app/user-code-site.js';
import { formatPointer, type Pointer } from '../../engine/resource/pointer.js';
import type { CheckCode } from '../../app/check/check-result.js';
import { messageOfThrown } from '../../engine/thrown-value.js';
import { formatLocation, type Finding } from '../../loaders/finding.js';
import { ConfigError, type LoadedConfig } from '../../loaders/load-config.js';
import {
  convergenceProblem,
  describeQuery,
  findingMatches,
  presentError,
  unsettledNote,
  whatExists,
} from '../assertions.js';
import { UnknownTargetError } from '../absence-target.js';
import { absentFields } from '../absent-fields.js';
import { ownerReferenceShapeNote } from '../owner-reference-shape.js';
import { cosiDocumentShapeNote } from '../cosi-document-shape.js';
import { ExpressionKeyError } from '../chainsaw-expression.js';
import { ManifestError } from '../manifest-input.js';
import { matchesPartially, pruneToShape, shapedDiff } from '../partial-match.js';
import { startTestProject, type TestProject } from '../test-project.js';
import { expectRgdObject, expectRgdObjectAbsent, rgdObjectsNamed } from './rgd-expectation.js';
import { isRefusal, stepInputProblem } from './step-input-problem.js';
import { mergePatch, patchedShape, patchObject } from './scenario-patch.js';
import {
  failureAt,
  type ErrorExpectation,
  type Place,
  type ResourceRef,
  type Scenario,
  type Step,
} from './scenario.js';

/** How one step (or the scenario's start, `setup`) went: no findings is a pass. */
export interface StepOutcome {
  readonly name: string;
  readonly at: Place;
  readonly findings: readonly Finding<CheckCode>[];
  /** Not run: an earlier step failed. */
  readonly skipped?: true;
  /** Wall ms the step took, with the convergence after it (none: not run, or stopped by a fault). */
  readonly durationMs?: number;
}

/** How a scenario went: its start, then each step (a failure ends it: the rest are `skipped`). */
export interface ScenarioOutcome {
  readonly scenario: Scenario;
  readonly steps: readonly StepOutcome[];
  /** The scenario could not run: its config or starting manifests did not load. */
  readonly broken: boolean;
  /**
   * Wall ms its start took before the first step: the config, the manifests and the first
   * convergence (none: a start that failed, whose `setup` step has the time).
   */
  readonly startMs?: number;
}

/** A scenario's outcome without the scenario: what crosses back from the worker that ran it. */
export function scenarioResult({
  scenario: _scenario,
  ...result
}: ScenarioOutcome): Omit<ScenarioOutcome, 'scenario'> {
  return result;
}

export interface RunScenarioOptions {
  /** Paths in findings are shown relative to it. */
  readonly cwd: string;
  /**
   * Simulated ms each convergence may take, and wall ms the config, `setup` or a reconcile that
   * waits on nothing may take (at most `USER_CODE_WAIT`): `cosi test --timeout`.
   */
  readonly timeout?: number;
  /** Told when the project's code runs: the heartbeat of the worker the scenario runs in. */
  readonly monitor?: UserCodeMonitor;
  /** Told before the scenario starts (`-1`: its config, manifests, first convergence) and each step (its index). */
  readonly onStep?: (step: number) => void;
  /** The controllers' logs (`cosi test -v`). */
  readonly onLog?: (record: LogRecord) => void;
  /** `cosi test --config`, absolute: the config of a scenario that names none. */
  readonly config?: string;
}

/**
 * Runs a scenario on a fresh test project: its config and manifests loaded, converged, then each
 * step in order (a step that changes the manifests converges after it). The first failing step
 * ends the scenario: what follows it would fail for its sake.
 */
export async function runScenario(
  scenario: Scenario,
  options: RunScenarioOptions,
): Promise<ScenarioOutcome> {
  let project: TestProject;
  /** Neither the scenario nor a config names manifests: the project starts empty. */
  let empty = false;
  options.onStep?.(-1);
  const started = performance.now();
  try {
    const config = await scenarioConfig(scenario, options);
    // The project as its config describes it: its manifests when the scenario names none, its
    // ignore patterns, definition files, schema locations and Kubernetes version (the scenario's wins).
    const given: ReadProjectOptions = { files: scenario.manifests ?? [], cwd: options.cwd };
    const context = withConfigManifests(given, config);
    empty = context.files.length === 0;
    const kubernetesVersion = scenario.kubernetesVersion ?? config?.config.kubernetesVersion;
    project = await startTestProject(
      {
        cwd: options.cwd,
        manifests: context.files.map((file) => path.resolve(options.cwd, file)),
        ...(context.ignore ? { ignore: context.ignore } : {}),
        ...(context.definitionPaths ? { definitionPaths: context.definitionPaths } : {}),
        ...(context.schemaLocations ? { schemaLocations: context.schemaLocations } : {}),
        ...(kubernetesVersion ? { kubernetesVersion } : {}),
        ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
        // The CLI's bound on a controller stuck waiting, not a test runner's: --timeout, 60 s.
        stallTimeout: userCodeWait(options.timeout),
        ...(options.onLog !== undefined ? { onLog: options.onLog } : {}),
      },
      config,
      options.monitor,
    );
  } catch (error) {
    const findings = setupFindings(error, scenario, options.cwd);
    const durationMs = performance.now() - started;
    return {
      scenario,
      steps: [{ name: 'setup', at: scenario.at, findings, durationMs }],
      broken: true,
    };
  }
  const steps: StepOutcome[] = [];
  let broken = false;
  let startMs = 0;
  try {
    if (scenario.converge !== false) await project.converge();
    startMs = performance.now() - started;
    for (const [i, step] of scenario.steps.entries()) {
      options.onStep?.(i);
      const stepStarted = performance.now();
      const findings = await runStep(project, step).then(
        (found) => [...found, ...exitFindings(project, step.at)],
        (error: unknown) => {
          const problem = stepInputProblem(error, options.cwd);
          if (problem === undefined) {
            return [failureAt('step-failed', step.at, `the step threw: ${messageOfThrown(error)}`)];
          }
          broken = true;
          const place =
            typeof error === 'object' && error !== null
              ? (PLACE_OF_ERROR.get(error) ?? step.at)
              : step.at;
          // A type unknown to a project that loaded nothing: what was meant to define it is missing.
          const hint =
            empty && problem.includes('is not registered')
              ? ' (the scenario loads no manifests: name them with `manifests:`, or in the config)'
              : '';
          return [
            failureAt(
              'invalid-scenario',
              place,
              `the step cannot be carried out: ${problem}${hint}`,
            ),
          ];
        },
      );
      const durationMs = performance.now() - stepStarted;
      const left = scenario.steps.length - i - 1;
      steps.push({
        name: `${i + 1}. ${step.name}`,
        at: step.at,
        durationMs,
        findings:
          findings.length > 0 && left > 0
            ? [
                ...findings,
                failureAt(
                  'step-failed',
                  step.at,
                  `${left} later step${left === 1 ? '' : 's'} not run`,
                ),
              ]
            : findings,
      });
      if (findings.length > 0) {
        for (const [j, later] of scenario.steps.entries()) {
          if (j > i)
            steps.push({
              name: `${j + 1}. ${later.name}`,
              at: later.at,
              findings: [],
              skipped: true,
            });
        }
        break;
      }
    }
  } finally {
    await project.close();
  }
  return { scenario, steps, broken, startMs };
}

/**
 * The scenario's `config`, else `cosi test --config`'s, else the one the CLI would find from its
 * manifests and its directory.
 */
async function scenarioConfig(
  scenario: Scenario,
  { cwd, timeout, monitor, config }: RunScenarioOptions,
): Promise<LoadedConfig | undefined> {
  const bounds = {
    ...(timeout !== undefined ? { timeout } : {}),
    ...(monitor !== undefined ? { monitor } : {}),
  };
  if (scenario.config === undefined && config !== undefined) {
    return loadProjectConfig({ files: [], config, configOption: '--config', cwd, ...bounds });
  }
  return loadProjectConfig(
    scenario.config !== undefined
      ? { files: [], config: scenario.config, cwd, ...bounds }
      : { files: scenario.manifests ?? [], near: scenario.dir, cwd, ...bounds },
  );
}

/** Where in the scenario a step's error belongs when not at the step: the document it is about. */
const PLACE_OF_ERROR = new WeakMap<object, Place>();

/** `match()`, a chainsaw expression key it cannot evaluate placed at the document that has it. */
function placedAt<T>(at: Place, match: () => T): T {
  try {
    return match();
  } catch (error) {
    if (error instanceof ExpressionKeyError) PLACE_OF_ERROR.set(error, at);
    throw error;
  }
}

/**
 * A controller that called `process.exit` during the step's convergence fails the step, whatever
 * the step expects: the exit was thrown back at it (see `withProcessExitGuard`) and it would
 * have ended a real process.
 */
function exitFindings(project: TestProject, at: Place): Finding<CheckCode>[] {
  const findings: Finding<CheckCode>[] = [];
  for (const c of project.lastReport?.controllers ?? []) {
    const errors = [c.lastError, ...c.failingItems.map((item) => item.error)];
    const exit = errors.find((e) => e?.code === PROCESS_EXIT_CODE);
    if (exit) findings.push(failureAt('controller-failed', at, `${c.name}: ${exit.message}`));
  }
  return findings;
}

/**
 * The step of a failure placed in another file (an `expect` of a file of documents, such as a
 * golden file several steps and scenarios share): which step checked it, at the scenario's line.
 */
function stepClause(step: Place, at: Place): string {
  return at.file === step.file ? '' : ` (in the expect step at ${formatLocation(step)})`;
}

/**
 * Why the last convergence did not settle, on the finding's line: most often why an expected
 * resource is missing or differs (a controller kept failing, a reconcile never ended).
 */
function unsettledClause(project: TestProject): string {
  const note = unsettledNote(project.lastReport, project.lastReportIsOfSpan);
  if (note === '') return '';
  return ` (${note
    .split('\n')
    .map((line) => line.trim())
    .join('; ')})`;
}

/** Runs one step; its findings (none: it passed). */
async function runStep(project: TestProject, step: Step): Promise<Finding<CheckCode>[]> {
  switch (step.kind) {
    case 'apply':
      return change(project, step.at, step.expectError, async () => {
        // Relative to the working directory, where the project reads them: its findings name
        // the files as the scenario's own findings and cosi check name them.
        if (step.paths.length > 0) {
          await project.apply(step.paths.map((file) => displayPath(project.cwd, file)));
        }
        if (step.files.length > 0) await project.applyFiles(step.files);
      });
    case 'edit':
      return change(
        project,
        step.at,
        step.expectError,
        async () => {
          const { ref } = step;
          await project.edit(
            ref.type,
            ref.id,
            (draft) => {
              if (step.patch !== undefined)
                patchObject(draft, step.patch, patchedShape(project, ref));
              if (step.spec !== undefined)
                draft.spec = mergePatch(draft.spec, step.spec) as Record<string, unknown>;
              if (step.labels)
                draft.labels = mergePatch(draft.labels, step.labels) as Record<string, string>;
              if (step.annotations)
                draft.annotations = mergePatch(draft.annotations, step.annotations) as Record<
                  string,
                  string
                >;
            },
            namespaceOf(ref),
          );
        },
        // The document an edit makes is nowhere on disk: its findings are the step's.
        (finding) => ({ ...finding, file: step.at.file, line: step.at.line, col: step.at.col }),
      );
    case 'destroy':
      return change(project, step.at, step.expectError, async () => {
        for (const ref of step.refs) {
          // A Kubernetes-shaped reference (a file's document, `{ apiVersion, kind, name }`)
          // names its kind in its group and version.
          if (ref.apiVersion === undefined) {
            await project.destroy(ref.type, ref.id, namespaceOf(ref));
          } else {
            const pointer = pointerOf(project, ref);
            await project.destroy(pointer.type, pointer.id, { namespace: pointer.namespace });
          }
        }
      });
    case 'advance':
      await project.advance(step.ms);
      return [];
    case 'expect':
      return (
        await Promise.all(
          step.documents.map(async (item) => {
            const { at, ref, document } = item;
            const rgdObjects = rgdObjectsNamed(project, ref);
            if (rgdObjects !== undefined) {
              return placedAt(at, () => expectRgdObject(project, rgdObjects, item));
            }
            let pointer: Pointer;
            try {
              pointer = pointerOf(project, ref);
            } catch (error) {
              // A type no definition has: at the document that names it, not at its step.
              if (typeof error === 'object' && error !== null) PLACE_OF_ERROR.set(error, at);
              throw error;
            }
            const resource = await project.get(pointer.type, pointer.id, pointer);
            if (resource === undefined) {
              return [
                failureAt(
                  'missing-resource',
                  at,
                  `expected ${formatPointer(pointer)}, but it does not exist (${await whatExists(project, pointer)})${stepClause(step.at, at)}${unsettledClause(project)}`,
                ),
              ];
            }
            const definition = project.project.registry.get(pointer.type);
            // A sensitive type's spec is compared too; the diff masks it, and a Secret's values,
            // as `cosi check --expect` and `kubectl diff` do: a test's output goes to CI logs.
            const actual = toDocument(resource, definition, {
              stable: true,
              includeSensitive: true,
              ownerKinds: (type) => project.project.runtime.kubernetesKind(type),
            });
            const expected = withResolvedType(document, pointer);
            if (placedAt(at, () => matchesPartially(actual, expected))) return [];
            const [shownExpected, shownActual] = maskChangedValues(
              expected,
              pruneToShape(actual, expected),
              maskedDocumentFields(definition, actual),
            );
            return [
              {
                ...failureAt(
                  'unexpected-state',
                  at,
                  `${formatPointer(pointer)} differs from the expected document${absentFields(actual, expected)}${ownerReferenceShapeNote(actual, expected)}${cosiDocumentShapeNote(actual, expected, pointer)}${stepClause(step.at, at)}${unsettledClause(project)}`,
                ),
                diff: shapedDiff(shownActual, shownExpected, `${at.file}:${at.line}`),
              },
            ];
          }),
        )
      ).flat();
    case 'expect-absent': {
      const found: Finding<CheckCode>[] = [];
      for (const ref of step.refs) {
        const rgdObjects = rgdObjectsNamed(project, ref);
        if (rgdObjects !== undefined) {
          const present = expectRgdObjectAbsent(project, rgdObjects, ref);
          if (present !== undefined) found.push(present);
          continue;
        }
        let pointer: Pointer;
        try {
          const named = pointerOf(project, ref);
          pointer = await project.absentPointer(named.type, named.id, named);
        } catch (error) {
          if (!(error instanceof UnknownTargetError)) throw error;
          found.push(failureAt('step-failed', ref.at, error.message));
          continue;
        }
        const resource = await project.get(pointer.type, pointer.id, pointer);
        if (resource === undefined) continue;
        found.push(
          failureAt(
            'unexpected-resource',
            ref.at,
            presentError(resource, project.lastReport).message,
          ),
        );
      }
      return found;
    }
    case 'expect-findings': {
      const findings = await project.findings();
      // Code first: a report cuts long lines in the middle.
      const listing = findings
        .map((f) =>
          wrapLine(
            `${f.severity}[${f.code}]: ${f.message}${f.file ? ` (${formatLocation(f)})` : ''}`,
          ),
        )
        .join('\n');
      return step.findings
        .filter((query) => !findings.some((f) => findingMatches(f, query)))
        .map((query) => ({
          ...failureAt(
            'missing-finding',
            query.at,
            `expected a finding ${describeQuery(query)}, but ${findings.length === 0 ? 'there are none' : `there ${findings.length === 1 ? 'is 1 other' : `are ${findings.length} others`}`}`,
          ),
          ...(listing ? { diff: listing } : {}),
        }));
    }
    case 'expect-converged': {
      const report = project.lastReport;
      const problem = report ? convergenceProblem(report) : 'the project never converged';
      if (step.converged && problem !== undefined) {
        // The first line says why; the lines after it, which controller failed on which item.
        const [reason = problem, ...details] = problem.split('\n');
        return [
          {
            ...failureAt('not-converged', step.at, reason),
            ...(details.length > 0
              ? { diff: details.map((line) => line.replace(/^ {2}/, '')).join('\n') }
              : {}),
          },
        ];
      }
      if (!step.converged && problem === undefined) {
        return [
          failureAt(
            'step-failed',
            step.at,
            'expected the controllers not to converge, but they did',
          ),
        ];
      }
      return [];
    }
  }
}

/**
 * A step that changes the manifests, then a convergence. With `expectError`, the change must be
 * refused (with that code, that message); without, a refusal is the step's failure, with the
 * manifests' findings at their places. Only the manifests' findings are a refusal: a step that
 * cannot be carried out (see `stepInputProblem`) throws either way.
 */
async function change(
  project: TestProject,
  at: Place,
  expectError: ErrorExpectation | undefined,
  run: () => Promise<void>,
  placed: (finding: Finding<CheckCode>) => Finding<CheckCode> = (finding) => finding,
): Promise<Finding<CheckCode>[]> {
  let refused: ManifestError | undefined;
  try {
    await run();
  } catch (error) {
    // A step that could not be carried out (a missing file, an unknown id) was not refused.
    if (!isRefusal(error)) throw error;
    refused = error;
  }
  if (expectError === undefined) {
    if (refused !== undefined) {
      return refused.findings.filter((f) => f.severity === 'error').map(placed);
    }
    await project.converge();
    return [];
  }
  if (refused === undefined) {
    await project.converge();
    return [
      failureAt(
        'missing-error',
        at,
        `expected the step to be refused${describeError(expectError)}, but it was applied`,
      ),
    ];
  }
  const message = refused.message;
  const codeOk =
    expectError.code === undefined || refused.findings.some((f) => f.code === expectError.code);
  const messageOk = expectError.message === undefined || message.includes(expectError.message);
  if (codeOk && messageOk) return [];
  return [
    {
      ...failureAt(
        'missing-error',
        at,
        `expected the step to be refused${describeError(expectError)}, but it was refused otherwise`,
      ),
      diff: message,
    },
  ];
}

function describeError(expectError: ErrorExpectation): string {
  return [
    expectError.code !== undefined ? ` with [${expectError.code}]` : '',
    expectError.message !== undefined ? ` saying ${JSON.stringify(expectError.message)}` : '',
  ].join('');
}

/** Lines of a diff are cut past 160 characters: a long finding is folded at spaces instead. */
const LISTED_LINE = 150;

/** `text` folded at spaces into lines of at most {@link LISTED_LINE}, the later ones indented. */
function wrapLine(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > LISTED_LINE) {
      lines.push(line);
      line = `  ${word}`;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/** The pointer a reference names; a Kubernetes-shaped one by its kind and apiVersion. */
function pointerOf(project: TestProject, ref: ResourceRef): Pointer {
  if (ref.apiVersion !== undefined) {
    const definition = project.project.registry
      .all()
      .find((d) => d.kubernetes?.kind === ref.type && d.kubernetes.apiVersion === ref.apiVersion);
    if (definition) {
      return {
        namespace: ref.namespace ?? definition.defaultNamespace,
        type: definition.type,
        id: ref.id,
      };
    }
  }
  return project.pointer(ref.type, ref.id, namespaceOf(ref));
}

/**
 * The expected document with its type as the resource has it: a document may name its type by
 * any alias (`type: vm`), which is no difference.
 */
function withResolvedType(
  document: Record<string, unknown>,
  pointer: Pointer,
): Record<string, unknown> {
  const metadata = document.metadata;
  if (typeof metadata !== 'object' || metadata === null || !('type' in metadata)) return document;
  return { ...document, metadata: { ...metadata, type: pointer.type } };
}

function namespaceOf(ref: ResourceRef): { namespace?: string } {
  return ref.namespace !== undefined ? { namespace: ref.namespace } : {};
}

/**
 * Why a scenario could not start, as findings: the config's error at its `config` key, or the
 * manifests' findings after one at its `manifests` key; paths as the user wrote them.
 */
function setupFindings(error: unknown, scenario: Scenario, cwd: string): Finding<CheckCode>[] {
  if (error instanceof ManifestError) {
    return [
      failureAt(
        'invalid-scenario',
        scenario.manifestsAt ?? scenario.at,
        "the scenario's manifests do not load",
      ),
      ...error.findings
        .filter((f) => f.severity === 'error')
        .map((f) => {
          if (!path.isAbsolute(f.file)) return f;
          const shown = displayPath(cwd, f.file);
          return { ...f, file: shown, message: f.message.replaceAll(f.file, shown) };
        }),
    ];
  }
  if (error instanceof ConfigError) {
    // The CLI's error names its flag; the scenario's config was named by its `config` key.
    const message =
      scenario.config !== undefined && error.file.startsWith('--config: ')
        ? `${displayPath(cwd, scenario.config)}: ${error.problems.join('; ')}`
        : error.message;
    return [
      failureAt(
        'invalid-scenario',
        scenario.configAt ?? scenario.at,
        `the scenario's config does not load: ${message}`,
      ),
    ];
  }
  return [
    failureAt(
      'invalid-scenario',
      scenario.at,
      `the scenario cannot start: ${messageOfThrown(error)}`,
    ),
  ];
}
