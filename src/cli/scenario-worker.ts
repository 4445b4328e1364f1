/**
 * The worker thread `cosi test`'s scenarios run in (see `supervised-scenarios.ts`): each
 * scenario's config and controllers with it, one scenario after the other, each one's result
 * sent to the main thread as it ends, and a mark in the heartbeat at each step so that the
 * supervisor can name the step a fault stopped.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { withProcessExitGuard } from '../app/process-exit-guard.js';
import { heartbeatWriter } from '../app/user-code-heartbeat.js';
import { limitHeapGrowthOnceCollected } from './heap-growth.js';
import { runScenario, scenarioResult } from '../testing/scenario/run-scenario.js';
import {
  markStride,
  stepMark,
  type FromScenarioWorker,
  type ScenarioWorkerData,
} from './scenario-worker-messages.js';

const port = parentPort;
if (port === null) throw new Error('scenario-worker.ts runs as a worker thread');
limitHeapGrowthOnceCollected();
const { heartbeat, data } = workerData as {
  heartbeat: SharedArrayBuffer;
  data: ScenarioWorkerData;
};
const post = (message: FromScenarioWorker): void => {
  port.postMessage(message);
};

const monitor = heartbeatWriter(heartbeat);
const stride = markStride(data.scenarios);
await withProcessExitGuard(async () => {
  for (const [index, scenario] of data.scenarios.entries()) {
    const outcome = await runScenario(scenario, {
      cwd: data.cwd,
      ...(data.timeout === undefined ? {} : { timeout: data.timeout }),
      ...(data.config === undefined ? {} : { config: data.config }),
      monitor,
      ...(data.verbose === true ? { onLog: (record) => post({ kind: 'log', record }) } : {}),
      onStep: (step) => {
        monitor.mark(stepMark(index, step, stride));
      },
    });
    post({ kind: 'scenario', result: scenarioResult(outcome) });
  }
});
monitor.stop();
post({ kind: 'done' });
