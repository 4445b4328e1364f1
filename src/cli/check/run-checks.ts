import * as path from 'node:path';
import { formatPointer, pointerKey, type Pointer } from '../../engine/resource/pointer.js';
import { displayPath } from '../../app/display-path.js';
import { OSCILLATION_WINDOW } from '../../engine/runtime/convergence.js';
import type { Finding } from '../../loaders/finding.js';
import { shorten, shortenMessage } from '../../loaders/shorten.js';
import type { ProjectRun } from '../../app/run-project.js';
import { selectResources } from '../resource-query.js';
import type { CheckCase, CheckCode, CheckResult } from './check-result.js';
import { compareExpectations, writeExpectations } from './expectations.js';
import { strictWarnings } from './strict-warnings.js';

export interface CheckOptions {
  readonly strict: boolean;
  /** `--expect DIR`, as given, and resolved. */
  readonly expect?: { readonly given: string; readonly dir: string };
  /** `--update`: write the expectations instead of comparing. */
  readonly update: boolean;
  /** `--keep-volatile`: goldens hold (and compare) versions and timestamps too. */
  readonly volatile?: boolean;
  /** Paths in findings are shown relative to it. */
  readonly cwd: string;
}

/** Turns a loaded project into check cases: manifests, controllers, convergence, expectations. */
export async function runChecks(run: ProjectRun, options: CheckOptions): Promise<CheckResult> {
  const cases: CheckCase[] = [];
  // With no controllers at all, every type is unread: that is a schema-only repository, not a smell.
  const { manifests, outcome } = run;
  const report = outcome?.report;
  const runtime = outcome?.project.runtime;
  const graph =
    report && runtime && runtime.controllerNames().length > 0
      ? runtime.dependencyGraph()
      : undefined;
  const findings: Finding<CheckCode>[] = [
    ...manifests.findings,
    ...(report ? strictWarnings(manifests.resources, graph) : []),
    ...(outcome?.findings ?? []),
  ];
  const files = [
    ...new Set([...manifests.files, ...findings.map((f) => f.file).filter((f) => f !== '')]),
  ].sort();
  for (const file of files) {
    cases.push({
      check: 'manifests',
      name: file,
      findings: findings.filter((f) => f.file === file),
    });
  }
  const general = findings.filter((f) => f.file === '');
  if (general.length > 0) cases.push({ check: 'manifests', name: '(input)', findings: general });

  if (!outcome || !report) return { cases, strict: options.strict };
  // Controller and convergence findings point at the manifest of the resource involved, or else
  // at the config the controllers come from.
  const configAt: Place = {
    file: run.config ? displayPath(options.cwd, run.config.file) : '',
    line: 0,
    col: 0,
  };
  const sources = new Map(manifests.resources.map((r) => [r.key, r.source]));
  const placeOf = (pointer: Pointer): Place => {
    const source = sources.get(pointerKey(pointer));
    return source ? { file: source.file, line: source.line, col: source.col } : configAt;
  };
  for (const controller of report.controllers) {
    const problems: Finding<CheckCode>[] = [];
    if (controller.condition === 'failed' && controller.failingItems.length === 0) {
      problems.push(
        runFinding(
          'controller-failed',
          'error',
          `${name(controller.name)} kept failing: ${errorText(controller.lastError ?? 'unknown error')}`,
          configAt,
        ),
      );
    }
    for (const item of controller.failingItems) {
      problems.push(
        runFinding(
          'reconcile-failed',
          'error',
          `${name(controller.name)} could not reconcile ${pointerText(item.pointer)} after ${item.attempts} attempts: ${errorText(item.error)}`,
          placeOf(item.pointer),
        ),
      );
    }
    if (problems.length === 0 && controller.errors > 0) {
      problems.push(
        runFinding(
          'controller-recovered',
          'warning',
          `${name(controller.name)} failed ${controller.errors} times before it succeeded: ${errorText(controller.lastError ?? '')}`,
          configAt,
        ),
      );
    }
    cases.push({ check: 'controllers', name: controller.name, findings: problems });
  }
  const convergence: Finding<CheckCode>[] = [];
  if (
    report.reason === 'max-writes' ||
    report.reason === 'max-time' ||
    report.reason === 'aborted'
  ) {
    const hot = report.oscillating
      .map((o) => {
        const fields = outcome.lastChanges.get(pointerKey(o.pointer));
        const changed = fields ? `, last changing ${list(fields.map((f) => shorten(f)))}` : '';
        return `${pointerText(o.pointer)} (${o.writes} writes by ${list(o.writers.map(name))}${changed})`;
      })
      .join('; ');
    const window = Math.min(report.writes, OSCILLATION_WINDOW);
    const requeueing = report.controllers
      .filter((c) => c.waitingItems.length > 0)
      .map((c) => `${name(c.name)} kept requeueing ${list(c.waitingItems.map(pointerText))}`)
      .join('; ');
    convergence.push(
      runFinding(
        'not-converged',
        'error',
        `the controllers did not converge (${report.reason})${hot ? `: kept changing, over the last ${window} writes: ${hot}` : ''}${requeueing ? `: ${requeueing}` : ''}`,
        report.oscillating[0] ? placeOf(report.oscillating[0].pointer) : configAt,
      ),
    );
  }
  cases.push({ check: 'convergence', name: 'convergence', findings: convergence });

  if (options.expect) {
    const groups = selectResources(outcome, {});
    const golden = { volatile: options.volatile === true };
    if (!options.update) {
      cases.push(
        ...(await compareExpectations(options.expect.dir, options.expect.given, groups, golden)),
      );
    } else if (report.converged) {
      await writeExpectations(options.expect.dir, groups, golden);
    } else {
      // A state that did not settle is no expectation: record nothing, say why.
      cases.push({
        check: 'expectations',
        name: options.expect.given,
        findings: [
          runFinding(
            'not-recorded',
            'error',
            `not recording ${options.expect.given}: the run did not converge (${report.reason})`,
          ),
        ],
      });
    }
  }
  return { cases, strict: options.strict };
}

/*
 * A finding's message stays whole in every format: what it quotes of the run (a controller's
 * name, a resource's id, a thrown error, a list of them) is cut where it is quoted instead.
 */

/** A controller's name as a message quotes it. */
function name(controller: string): string {
  return shorten(controller);
}

/** A resource as a message quotes it: `Type(namespace/id)`, a long id cut. */
function pointerText(pointer: Pointer): string {
  return formatPointer({ ...pointer, id: shorten(pointer.id) });
}

/** A thrown error's message as a finding quotes it: its start and its end. */
function errorText(error: string): string {
  return shortenMessage(error);
}

/** The most items of a list a message names; the others are counted. */
const MAX_LISTED = 5;

/** `a, b, c` or `a, b, c, d, e and 3 more`. */
function list(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(', ');
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}

/** Where a finding about the run points: a manifest's document, or the config. */
type Place = Pick<Finding<CheckCode>, 'file' | 'line' | 'col'>;

/** A finding about the run: what the controllers did, placed where it can be acted on. */
function runFinding(
  code: CheckCode,
  severity: 'error' | 'warning',
  message: string,
  place: Place = { file: '', line: 0, col: 0 },
): Finding<CheckCode> {
  return { code, severity, message, ...place, pointer: '' };
}

/** `--expect` resolved against the working directory. */
export function resolveExpect(given: string, cwd: string): { given: string; dir: string } {
  return { given, dir: path.resolve(cwd, given) };
}
