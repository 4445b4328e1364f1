import type { ScenarioResult } from '../testing/scenario/run-scenario-files.js';
import type { Scenario } from '../testing/scenario/scenario.js';
import type { LogRecord } from '../engine/runtime/logger.js';

/**
 * What crosses between `cosi test` and the worker that runs its scenarios: the scenarios (plain
 * data, parsed on the main thread), and back each one's result as it ends.
 */
export interface ScenarioWorkerData {
  readonly cwd: string;
  /** `--timeout`, ms. */
  readonly timeout?: number;
  readonly scenarios: readonly Scenario[];
  /** `-v`: each controller log record is sent back as it is written. */
  readonly verbose?: boolean;
  /** `--config`, absolute: the config of the scenarios that name none. */
  readonly config?: string;
}

export type FromScenarioWorker =
  | { readonly kind: 'scenario'; readonly result: ScenarioResult }
  | { readonly kind: 'log'; readonly record: LogRecord }
  | { readonly kind: 'done' };

/**
 * The heartbeat mark of step `step` (`-1`: the scenario's start) of the `index`th scenario: one
 * number for the supervisor to say where a fault happened. `stride` is one more than the most
 * steps a scenario of the run has.
 */
export function stepMark(index: number, step: number, stride: number): number {
  return index * stride + step + 1;
}

/** The scenario and the step of a mark made by {@link stepMark}. */
export function stepOfMark(mark: number, stride: number): { index: number; step: number } {
  return { index: Math.floor(mark / stride), step: (mark % stride) - 1 };
}

/** The `stride` of {@link stepMark} for `scenarios`. */
export function markStride(scenarios: readonly Scenario[]): number {
  return Math.max(0, ...scenarios.map((s) => s.steps.length)) + 1;
}
