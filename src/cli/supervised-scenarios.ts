import type { LogRecord } from '../engine/runtime/logger.js';
import { startProjectWorker } from '../app/project-worker.js';
import { packageFile } from '../loaders/package-location.js';
import { userCodeWait } from '../app/user-code-deadline.js';
import { describeWorkerFault, type WorkerFault } from '../app/worker-fault.js';
import type { ScenarioResult, ScenarioRunner } from '../testing/scenario/run-scenario-files.js';
import type { StepOutcome } from '../testing/scenario/run-scenario.js';
import { failureAt, type Scenario } from '../testing/scenario/scenario.js';
import {
  markStride,
  stepOfMark,
  type FromScenarioWorker,
  type ScenarioWorkerData,
} from './scenario-worker-messages.js';

/**
 * `cosi test`'s scenarios, run in a supervised worker thread (see `startProjectWorker`): a
 * controller stuck in a loop past `timeout` (60 s at most), one that runs out of heap or ends
 * the thread is the failure of the step it was in, at the step's place in the scenario file
 * (the config's own loop: a scenario that cannot run); the scenarios after it run in a new
 * worker.
 */
export function supervisedScenarioRunner(
  cwd: string,
  timeout?: number,
  /** `-v`: the controllers' logs, sent by the worker as they are written. */
  onLog?: (record: LogRecord) => void,
  /** `--config`, absolute: the config of the scenarios that name none. */
  config?: string,
): ScenarioRunner {
  return async (scenarios) => {
    const results: ScenarioResult[] = [];
    while (results.length < scenarios.length) {
      const rest = scenarios.slice(results.length);
      const { got, fault, mark } = await runInWorker(
        {
          cwd,
          scenarios: rest,
          ...(timeout === undefined ? {} : { timeout }),
          ...(onLog === undefined ? {} : { verbose: true }),
          ...(config === undefined ? {} : { config }),
        },
        onLog,
      );
      results.push(...got);
      if (fault === undefined) break;
      const scenario = rest[got.length];
      if (scenario === undefined) break;
      // The mark of a scenario that ended is behind: its next one did not start its config yet.
      const at = mark === undefined ? undefined : stepOfMark(mark, markStride(rest));
      const step = at?.index === got.length ? at.step : -1;
      results.push(faultResult(scenario, step, fault));
    }
    return results;
  };
}

/** One worker's run: the results it sent, and the fault that stopped it before its end. */
async function runInWorker(
  data: ScenarioWorkerData,
  onLog: ((record: LogRecord) => void) | undefined,
): Promise<{ got: ScenarioResult[]; fault?: WorkerFault; mark?: number }> {
  const got: ScenarioResult[] = [];
  // Set by the worker's last message.
  const finished = { done: false };
  const worker = startProjectWorker({
    entry: packageFile('dist/cli/scenario-worker.js'),
    data,
    wait: (site) => userCodeWait(data.timeout, site),
    onMessage: (raw) => {
      const message = raw as FromScenarioWorker;
      if (message.kind === 'scenario') got.push(message.result);
      else if (message.kind === 'log') onLog?.(message.record);
      else {
        finished.done = true;
        // Whatever the project's code left open (timers, sockets) goes with the worker.
        void worker.stop();
      }
    },
  });
  const end = await worker.ended;
  if (finished.done) return { got };
  return {
    got,
    fault: describeWorkerFault(end),
    ...(end.mark === undefined ? {} : { mark: end.mark }),
  };
}

/**
 * The result of a scenario a fault stopped at `step` (`-1`: while it started): the steps before
 * passed (a failing one would have ended the scenario), the step is failed, the rest not run.
 * The config's fault (its loop, its `setup`'s) and cosi's own make a scenario that cannot run.
 */
function faultResult(scenario: Scenario, step: number, fault: WorkerFault): ScenarioResult {
  if (fault.kind === 'config' || fault.kind === 'internal') {
    const message =
      fault.kind === 'config'
        ? `the scenario's config does not load: ${fault.message}`
        : `the scenario cannot run: ${fault.message}`;
    return {
      steps: [
        {
          name: 'setup',
          at: scenario.at,
          findings: [failureAt('invalid-scenario', scenario.at, message)],
        },
      ],
      broken: true,
    };
  }
  const code = fault.kind === 'stuck' ? 'not-converged' : 'controller-failed';
  const stopped = scenario.steps[step];
  if (stopped === undefined) {
    return {
      steps: [
        { name: 'setup', at: scenario.at, findings: [failureAt(code, scenario.at, fault.message)] },
      ],
      broken: false,
    };
  }
  const steps: StepOutcome[] = scenario.steps
    .slice(0, step)
    .map((s, i) => ({ name: `${i + 1}. ${s.name}`, at: s.at, findings: [] }));
  const left = scenario.steps.length - step - 1;
  steps.push({
    name: `${step + 1}. ${stopped.name}`,
    at: stopped.at,
    findings: [
      failureAt(code, stopped.at, fault.message),
      ...(left > 0
        ? [
            failureAt(
              'step-failed',
              stopped.at,
              `${left} later step${left === 1 ? '' : 's'} not run`,
            ),
          ]
        : []),
    ],
  });
  return { steps, broken: false };
}
