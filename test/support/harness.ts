/** What most engine tests start from: a state, a simulated clock and a runtime on them. */
import {
  createInMemoryState,
  createRuntime,
  SimulatedClock,
  type InMemoryState,
  type Runtime,
} from '../../src/index.js';

export interface Harness {
  readonly state: InMemoryState;
  readonly clock: SimulatedClock;
  readonly runtime: Runtime;
}

/** A fresh in-memory state whose timestamps follow a simulated clock, and a runtime on both. */
export function createHarness(): Harness {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  const runtime = createRuntime(state, { clock });
  return { state, clock, runtime };
}
