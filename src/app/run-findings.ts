import { formatPointer, pointerKey, type Pointer } from '../engine/resource/pointer.js';
import { OSCILLATION_WINDOW, type ConvergenceReport } from '../engine/runtime/convergence.js';
import type { ErrorRecord } from '../engine/runtime/error-record.js';
import { WRITE_BOUND_CODE } from '../engine/runtime/write-bound.js';
import { formatLocation, type Finding } from '../loaders/finding.js';
import { shorten, shortenMessage } from '../loaders/shorten.js';
import type { Place } from './manifest-places.js';
import { formatDuration } from './format-duration.js';
import { describeSpreadWrites } from './spread-writes.js';
import { definedAt, describeStuck } from './stuck-controllers.js';

/** The codes of what a convergence run finds about its controllers. */
export type RunFindingCode =
  | 'controller-failed'
  | 'reconcile-failed'
  | 'controller-recovered'
  | 'controller-stopped'
  | 'not-converged';

/** Where the findings about a run point. */
export interface RunFindingPlaces {
  /** Where the manifest of a resource is; `undefined` when no manifest holds it. */
  readonly placeOf: (pointer: Pointer) => Place | undefined;
  /** The config the controllers come from (display path); `''` when there is none. */
  readonly config: string;
  /** For each resource that kept changing (by pointer key): the fields its last write changed. */
  readonly lastChanges?: ReadonlyMap<string, readonly string[]>;
}

/** What a run found: per controller of the report (in its order), and about its convergence. */
export interface RunFindings {
  readonly controllers: readonly {
    readonly name: string;
    readonly findings: readonly Finding<RunFindingCode>[];
  }[];
  readonly convergence: readonly Finding<RunFindingCode>[];
}

/**
 * The findings of a convergence run, as `cosi check` reports them and `cosi watch` shows them: a
 * controller that kept failing, each item a queue controller gave up on, a controller that
 * recovered or whose run returned, and a run that did not converge. Controller and convergence
 * findings point at the manifest of the resource involved, or else at the config the
 * controllers come from (a controller's own error: where in the project's code it was thrown).
 */
export function runFindings(report: ConvergenceReport, places: RunFindingPlaces): RunFindings {
  const configAt: Place = { file: places.config, line: 0, col: 0 };
  const placeOf = (pointer: Pointer): Place => {
    const at = places.placeOf(pointer);
    return at ? { file: at.file, line: at.line, col: at.col } : configAt;
  };
  const thrownAt = (error: ErrorRecord | undefined): Place => error?.location ?? configAt;
  const controllers = report.controllers.map((controller) => {
    const problems: Finding<RunFindingCode>[] = [];
    if (controller.condition === 'failed' && controller.failingItems.length === 0) {
      problems.push(
        runFinding(
          'controller-failed',
          'error',
          `${controllerText(controller.name)} kept failing: ${errorText(ownError(controller.name, controller.lastError?.message ?? 'unknown error'))}`,
          thrownAt(controller.lastError),
        ),
      );
    }
    // A controller the run stopped waiting on (a reconcile or pass that never returned) did not
    // finish its work: failed, not passed, though it threw nothing.
    if (controller.stuck !== undefined) {
      const on = controller.stuck.pointer;
      problems.push(
        runFinding(
          'controller-failed',
          'error',
          `${controllerText(controller.name)} did not finish: it was still running${on ? ` (on ${pointerText(on)})` : ''} after ${formatDuration(controller.stuck.waited)} with nothing else to do${definedAt(controller.stuck.location)}`,
          on && places.placeOf(on) ? placeOf(on) : (controller.stuck.location ?? configAt),
        ),
      );
    }
    // A whole-world controller's run that returned (no loop over its events) reacts to nothing
    // after its first pass: in a config, nearly always a mistake. COSI allows it, so a warning.
    if (controller.kind === 'controller' && controller.condition === 'stopped') {
      problems.push(
        runFinding(
          'controller-stopped',
          'warning',
          `${controllerText(controller.name)}'s run returned: it no longer reacts to changes of its inputs (a whole-world controller loops \`for await (const _ of rt.events())\`)`,
          configAt,
        ),
      );
    }
    for (const item of controller.failingItems) {
      const what =
        item.mapping === true
          ? `map the change of ${pointerText(item.pointer)} to the items it affects`
          : `reconcile ${pointerText(item.pointer)}`;
      // At the item's manifest, where it can be acted on; the message names where the project's
      // code threw, as a whole-world controller's finding is placed there.
      const thrown = item.error.location;
      const at = thrown ? ` (at ${formatLocation(thrown)})` : '';
      problems.push(
        runFinding(
          'reconcile-failed',
          'error',
          `${controllerText(controller.name)} could not ${what} after ${item.attempts} ${item.attempts === 1 ? 'attempt' : 'attempts'}: ${errorText(item.error.message)}${at}`,
          places.placeOf(item.pointer) ? placeOf(item.pointer) : thrownAt(item.error),
        ),
      );
    }
    // A write refused at the run's bound is not a failure it recovered from: the convergence
    // finding says the run stopped there, and names the writers.
    if (
      problems.length === 0 &&
      controller.errors > 0 &&
      controller.lastError?.code !== WRITE_BOUND_CODE
    ) {
      problems.push(
        runFinding(
          'controller-recovered',
          'warning',
          `${controllerText(controller.name)} failed ${controller.errors} times before it succeeded: ${errorText(ownError(controller.name, controller.lastError?.message ?? ''))}`,
          thrownAt(controller.lastError),
        ),
      );
    }
    return { name: controller.name, findings: problems };
  });
  const convergence: Finding<RunFindingCode>[] = [];
  if (
    report.reason === 'max-writes' ||
    report.reason === 'max-time' ||
    report.reason === 'aborted'
  ) {
    const hot = report.oscillating
      .map((o) => {
        const fields = places.lastChanges?.get(pointerKey(o.pointer));
        const changed = fields ? `, last changing ${listText(fields.map((f) => shorten(f)))}` : '';
        return `${pointerText(o.pointer)} (${o.writes} writes by ${listText(o.writers.map(controllerText))}${changed})`;
      })
      .join('; ');
    const window = Math.min(report.writes, OSCILLATION_WINDOW);
    const requeueing = report.controllers
      .filter((c) => c.waitingItems.length > 0)
      .map(
        (c) =>
          `${controllerText(c.name)} kept requeueing ${listText(c.waitingItems.map(pointerText))}`,
      )
      .join('; ');
    const stuck = describeStuck(report, controllerText, pointerText);
    const spread = describeSpreadWrites(report, controllerText);
    convergence.push(
      runFinding(
        'not-converged',
        'error',
        `the controllers did not converge (${report.reason})${stuck ? `: ${stuck}` : ''}${hot ? `: kept changing, over the last ${window} writes: ${hot}` : ''}${spread ? `: ${spread}` : ''}${requeueing ? `: ${requeueing}` : ''}`,
        report.oscillating[0] ? placeOf(report.oscillating[0].pointer) : configAt,
      ),
    );
  }
  return { controllers, convergence };
}

/** Every finding of a run, the controllers' then the convergence's. */
export function allRunFindings(findings: RunFindings): Finding<RunFindingCode>[] {
  return [...findings.controllers.flatMap((c) => c.findings), ...findings.convergence];
}

/** A finding about the run: what the controllers did, placed where it can be acted on. */
export function runFinding<C extends string>(
  code: C,
  severity: 'error' | 'warning',
  message: string,
  place: Place = { file: '', line: 0, col: 0 },
): Finding<C> {
  return { code, severity, message, ...place, pointer: '' };
}

/*
 * A finding's message stays whole in every format: what it quotes of the run (a controller's
 * name, a resource's id, a thrown error, a list of them) is cut where it is quoted instead.
 */

/** A controller's name as a message quotes it. */
function controllerText(controller: string): string {
  return shorten(controller);
}

/** A resource as a message quotes it: `Type(namespace/id)`, a long id cut. */
function pointerText(pointer: Pointer): string {
  return formatPointer({ ...pointer, id: shorten(pointer.id) });
}

/** A thrown error's message as a finding quotes it: its start and its end. */
/**
 * A controller's error without the `controller "NAME" failed: ` a generic controller's pass
 * starts it with: the finding names the controller already, and the bound on its message is
 * better spent on what failed.
 */
function ownError(controller: string, message: string): string {
  const prefix = `controller ${JSON.stringify(controller)} failed: `;
  return message.startsWith(prefix) ? message.slice(prefix.length) : message;
}

function errorText(error: string): string {
  return shortenMessage(error);
}

/** The most items of a list a message names; the others are counted. */
const MAX_LISTED = 5;

/** `a, b, c` or `a, b, c, d, e and 3 more`. */
function listText(items: readonly string[]): string {
  const shown = items.slice(0, MAX_LISTED).join(', ');
  return items.length > MAX_LISTED ? `${shown} and ${items.length - MAX_LISTED} more` : shown;
}
