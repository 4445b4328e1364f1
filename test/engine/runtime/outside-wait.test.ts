/**
 * On a simulated clock, a convergence run moves time to the next timer when nothing else moves.
 * Work that waits on the outside world (a network call, a file) is not waiting on the clock:
 * time must not jump past it to a requeue or a deadline.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  controllerManagedBy,
  defineResource,
  requeueAfter,
  SimulatedClock,
  type QController,
} from '../../../src/index.js';
import { OUTSIDE_GRACE, OutsideWait } from '../../../src/engine/runtime/outside-wait.js';
import { createHarness, type Harness } from '../../support/harness.js';

const VM = defineResource<{ image: string }>({
  type: 'VMs.test.cosi.dev',
  defaultSpec: () => ({ image: '' }),
});
const Disk = defineResource<{ size: number }>({
  type: 'Disks.test.cosi.dev',
  defaultSpec: () => ({ size: 0 }),
});
const Probe = defineResource<{ healthy: boolean }>({
  type: 'Probes.test.cosi.dev',
  defaultSpec: () => ({ healthy: false }),
});

/** A call to a system outside the run that answers after `ms` of wall time. */
const externalCall = (ms: number, signal?: AbortSignal): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason as Error);
    });
  });

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('a convergence run on a simulated clock, while a reconcile waits on the outside world', () => {
  it('does not time out a reconcile whose 50 ms call answers, on a 5 s reconciliationTimeout', async () => {
    h = createHarness();
    await h.state.create(VM.create('web', { image: 'alpine' }));
    const outcomes: string[] = [];
    await controllerManagedBy(h.runtime)
      .for(VM)
      .owns(Disk)
      .withOptions({ reconciliationTimeout: 5000 })
      .complete(async ({ client, signal }, request) => {
        try {
          await externalCall(50, signal);
        } catch (error) {
          outcomes.push((error as Error).name);
          throw error;
        }
        await client.modify(Disk.create(request.id), (disk) => {
          disk.spec.size = 10;
        });
        outcomes.push('written');
      });
    const start = h.clock.now();
    const report = await h.runtime.converge();
    expect(outcomes).toEqual(['written']);
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(0);
    expect(h.clock.now() - start).toBe(0);
  });

  it('does not report the run converged before the reconcile is back, however far a resync requeues', async () => {
    h = createHarness();
    await h.state.create(VM.create('web', { image: 'alpine' }));
    await h.state.create(Probe.create('web'));
    const resync: QController = {
      name: 'ProbeResync',
      settings: {
        inputs: [{ namespace: Probe.namespace, type: Probe.type, kind: 'primary' }],
        outputs: [{ type: Disk.type, kind: 'shared' }],
      },
      mapInput: () => Promise.resolve([]),
      async reconcile(rt, pointer) {
        await rt.modify(Disk.create(`${pointer.id}-probe`), (disk) => {
          disk.spec.size = 1;
        });
        throw requeueAfter(60_000);
      },
    };
    const provision: QController = {
      name: 'Provision',
      settings: {
        inputs: [{ namespace: VM.namespace, type: VM.type, kind: 'primary' }],
        outputs: [{ type: Disk.type, kind: 'shared' }],
      },
      mapInput: () => Promise.resolve([]),
      async reconcile(rt, pointer) {
        await externalCall(30);
        await rt.modify(Disk.create(pointer.id), (disk) => {
          disk.spec.size = 10;
        });
      },
    };
    await h.runtime.register(resync, provision);
    const start = h.clock.now();
    const report = await h.runtime.converge();
    expect(report.reason).toBe('steady');
    // Written before the run ended, and with no virtual time spent on the call.
    const disk = await h.state.get(Disk.pointer('web'));
    expect(disk.metadata.created - start).toBe(0);
    expect(report.controllers.find((c) => c.name === 'Provision')?.writes).toBe(1);
  });
});

describe('a convergence run on a simulated clock, while a reconcile never answers', () => {
  it('gives it its grace once, not again at every requeue of the items beside it', async () => {
    h = createHarness();
    await h.state.create(VM.create('hangs', { image: 'alpine' }));
    await h.state.create(VM.create('polls', { image: 'alpine' }));
    const polling: QController = {
      name: 'Poll',
      settings: {
        inputs: [{ namespace: VM.namespace, type: VM.type, kind: 'primary' }],
        outputs: [],
        concurrency: 2,
      },
      mapInput: () => Promise.resolve([]),
      async reconcile(_rt, pointer) {
        if (pointer.id === 'hangs') await new Promise<never>(() => undefined);
        throw requeueAfter(1000);
      },
    };
    await h.runtime.register(polling);
    const wall = performance.now();
    // 100 requeues of `polls` while `hangs` is in flight: the grace once, not once a requeue.
    const report = await h.runtime.converge({ maxTime: 100_000, maxStall: 30_000 });
    expect(performance.now() - wall).toBeLessThan(4 * OUTSIDE_GRACE);
    expect(report.reason).toBe('max-time');
    expect(report.controllers[0]?.metrics.reconciles).toBeGreaterThan(100);
    expect(report.controllers[0]?.runningAtEnd).toBeDefined();
  });
});

describe('OutsideWait', () => {
  const signature = 'Provision\0 0\n';

  it('holds time while only timers no running code waits for are pending, for the grace', () => {
    const clock = new SimulatedClock();
    const outside = new OutsideWait(clock);
    outside.setTimer(500, () => undefined);
    expect(outside.holdsTime(signature, 0)).toBe(true);
    expect(outside.holdsTime(signature, OUTSIDE_GRACE - 1)).toBe(true);
    // The grace is spent: the same work in flight does not hold time again.
    expect(outside.holdsTime(signature, OUTSIDE_GRACE)).toBe(false);
    expect(outside.holdsTime(signature, 0)).toBe(false);
    // Work that moved on gets its own grace.
    expect(outside.holdsTime('Provision\0 1\n', OUTSIDE_GRACE)).toBe(true);
  });

  it('does not hold time when a pending timer may be one the work waits for', () => {
    const clock = new SimulatedClock();
    const outside = new OutsideWait(clock);
    outside.setTimer(500, () => undefined);
    const sleep = clock.setTimer(100, () => undefined);
    expect(outside.holdsTime(signature, 0)).toBe(false);
    sleep.cancel();
    expect(outside.holdsTime(signature, 0)).toBe(true);
  });

  it('counts a timer it set as gone once fired or cancelled', () => {
    const clock = new SimulatedClock();
    const outside = new OutsideWait(clock);
    const retry = outside.setTimer(500, () => undefined);
    outside.setTimer(100, () => undefined);
    clock.advance(100);
    retry.cancel();
    retry.cancel();
    clock.setTimer(100, () => undefined);
    expect(clock.pendingTimers()).toBe(1);
    expect(outside.holdsTime(signature, 0)).toBe(false);
  });

  it('does not hold time with nothing in flight, or on a clock that cannot count its timers', () => {
    const clock = new SimulatedClock();
    expect(new OutsideWait(clock).holdsTime('', 0)).toBe(false);
    const blind = new OutsideWait({ setTimer: (ms, fn) => clock.setTimer(ms, fn) });
    blind.setTimer(500, () => undefined);
    expect(blind.holdsTime(signature, 0)).toBe(false);
  });

  it('gives the work its grace again in a new run', () => {
    const outside = new OutsideWait(new SimulatedClock());
    expect(outside.holdsTime(signature, 0)).toBe(true);
    expect(outside.holdsTime(signature, OUTSIDE_GRACE)).toBe(false);
    outside.reset();
    expect(outside.holdsTime(signature, OUTSIDE_GRACE)).toBe(true);
  });
});
