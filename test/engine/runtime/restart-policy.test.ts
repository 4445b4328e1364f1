import { describe, expect, it } from 'vitest';
import { SimulatedClock } from '../../../src/index.js';
import { RestartPolicy } from '../../../src/engine/runtime/restart-policy.js';

/** A policy on a simulated clock, with the runtime's attempt bound set to `maxAttempts`. */
function setup(maxAttempts = Number.POSITIVE_INFINITY): {
  clock: SimulatedClock;
  policy: RestartPolicy;
  restarts: number[];
  crash: () => ReturnType<RestartPolicy['crashed']>;
} {
  const clock = new SimulatedClock(0);
  const policy = new RestartPolicy(
    { setTimer: (ms, fn) => clock.setTimer(ms, fn), maxAttempts: () => maxAttempts, clock },
    {},
  );
  const restarts: number[] = [];
  return { clock, policy, restarts, crash: () => policy.crashed(() => restarts.push(clock.now())) };
}

describe('the restart policy', () => {
  it('restarts after 500 ms, then waits x1.5 longer after each consecutive crash', () => {
    const { clock, restarts, crash } = setup();
    for (let i = 0; i < 3; i++) {
      expect(crash()).toBe('backoff');
      clock.advanceToNext();
    }
    expect(restarts).toEqual([500, 1250, 2375]);
  });

  it('counts the crashes since the last reset as attempts', () => {
    const { policy, crash } = setup();
    crash();
    crash();
    expect(policy.attempts).toBe(2);
    policy.reset();
    expect(policy.attempts).toBe(0);
  });

  it('gives up at the attempt bound without arming a restart', () => {
    const { clock, restarts, crash } = setup(3);
    expect(crash()).toBe('backoff');
    clock.advanceToNext();
    expect(crash()).toBe('backoff');
    clock.advanceToNext();
    expect(crash()).toBe('failed');
    expect(clock.nextTimerAt()).toBeUndefined();
    expect(restarts).toHaveLength(2);
  });

  it('waits the initial interval again after a reset', () => {
    const { clock, policy, restarts, crash } = setup();
    crash();
    clock.advanceToNext();
    crash();
    clock.advanceToNext();
    policy.reset();
    crash();
    clock.advanceToNext();
    expect(restarts).toEqual([500, 1250, 1750]);
  });

  it('drops a waiting restart when cancelled', () => {
    const { clock, policy, restarts, crash } = setup();
    crash();
    policy.cancel();
    expect(clock.advanceToNext()).toBe(false);
    expect(restarts).toEqual([]);
  });
});

describe('the restart policy retry time', () => {
  it('knows when the waiting restart is due, and forgets it once it ran or was cancelled', () => {
    const { clock, policy, crash } = setup();
    expect(policy.retryAt).toBeUndefined();
    crash();
    expect(policy.retryAt).toBe(500);
    clock.advanceToNext();
    expect(policy.retryAt).toBeUndefined();
    crash();
    expect(policy.retryAt).toBe(1250);
    policy.cancel();
    expect(policy.retryAt).toBeUndefined();
  });
});
