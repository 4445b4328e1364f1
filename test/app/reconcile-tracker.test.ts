import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createReconcileTracker, type StalledReconcile } from '../../src/app/reconcile-tracker.js';
import type { Pointer } from '../../src/engine/resource/pointer.js';
import { controllerManagedBy } from '../../src/engine/builder/builder.js';
import { createInMemoryState } from '../../src/engine/state/in-memory-state.js';
import { createRuntime } from '../../src/engine/runtime/runtime.js';
import { SimulatedClock } from '../../src/engine/runtime/clock.js';
import { VM } from '../engine/builder/fixtures.js';

const WEB_1: Pointer = { namespace: 'default', type: 'VMs.example.org', id: 'web-1' };

describe("cosi run's reconcile tracker", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const track = () => {
    const reconciled: [string, string, number, boolean][] = [];
    const wrote: [string, string][] = [];
    const stalled: StalledReconcile[] = [];
    const tracker = createReconcileTracker({
      counts: {
        reconciled: (controller, result, seconds, retried) =>
          reconciled.push([controller, result, seconds, retried]),
        wrote: (controller, op) => wrote.push([controller, op]),
      },
      stallAfter: 1_000,
      onStall: (s) => stalled.push(s),
    });
    return { tracker, reconciled, wrote, stalled };
  };

  it('counts each reconcile by result with its time, and each write by controller', () => {
    const { tracker, reconciled, wrote } = track();
    const a = tracker.start('Placer', 'reconcile', WEB_1, []);
    vi.advanceTimersByTime(250);
    tracker.wrote(a, 'create', WEB_1, 1);
    tracker.end(a, { kind: 'ok' });
    tracker.end(tracker.start('Placer', 'reconcile', WEB_1, []), { kind: 'requeue', after: 5 });
    // `{ requeue: true }`: back after the item's backoff (controller-runtime's `Requeue: true`).
    tracker.end(tracker.start('Placer', 'reconcile', WEB_1, []), { kind: 'requeue', after: 0 });
    tracker.end(tracker.start('Whole', 'run', undefined, []), { kind: 'error', message: 'boom' });
    tracker.end(tracker.start('Placer', 'reconcile', WEB_1, []), {
      kind: 'error',
      message: 'final',
      terminal: true,
    });
    // A mapping of an event, a skipped item and a stopped run are not reconciles.
    tracker.end(tracker.start('Placer', 'map', WEB_1, []), { kind: 'ok' });
    tracker.end(tracker.start('Placer', 'reconcile', WEB_1, []), { kind: 'skip' });
    tracker.end(tracker.start('Whole', 'run', undefined, []), { kind: 'stopped' });
    expect(reconciled).toEqual([
      ['Placer', 'success', 0.25, false],
      ['Placer', 'requeue_after', 0, false],
      ['Placer', 'requeue', 0, true],
      ['Whole', 'error', 0, true],
      // A terminal error is not retried.
      ['Placer', 'error', 0, false],
    ]);
    expect(wrote).toEqual([['Placer', 'create']]);
    tracker.stop();
  });

  it('reports a reconcile still running after the bound once, with its controller and item', () => {
    const { tracker, stalled } = track();
    const stuck = tracker.start('Waiter', 'reconcile', WEB_1, []);
    tracker.end(tracker.start('Quick', 'reconcile', WEB_1, []), { kind: 'ok' });
    vi.advanceTimersByTime(900);
    expect(stalled).toEqual([]);
    vi.advanceTimersByTime(350);
    expect(stalled).toEqual([{ controller: 'Waiter', pointer: WEB_1, ms: 1_000 }]);
    vi.advanceTimersByTime(10_000);
    expect(stalled).toHaveLength(1);
    // Ended at last: counted with its whole time.
    tracker.end(stuck, { kind: 'ok' });
    tracker.stop();
  });

  it('stops looking once stopped', () => {
    const { tracker, stalled } = track();
    tracker.start('Waiter', 'run', undefined, []);
    tracker.stop();
    vi.advanceTimersByTime(5_000);
    expect(stalled).toEqual([]);
  });

  // Ported from kubernetes-sigs/controller-runtime pkg/internal/controller/controller.go reconcileHandler (Requeue: "requeue", RequeueAfter: "requeue_after")
  it("labels a builder controller's { requeue: true } requeue and { requeueAfter } requeue_after, through a real runtime", async () => {
    vi.useRealTimers();
    const reconciled: [string, string, boolean][] = [];
    const tracker = createReconcileTracker({
      counts: {
        reconciled: (controller, result, _seconds, retried) =>
          reconciled.push([controller, result, retried]),
        wrote: () => undefined,
      },
      stallAfter: 60_000,
      onStall: () => undefined,
    });
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    const runtime = createRuntime(state, { clock, recorder: tracker });
    try {
      await state.create(VM.create('web'));
      let call = 0;
      await controllerManagedBy(runtime)
        .named('Requeuer')
        .for(VM)
        .complete(() => {
          call++;
          return call <= 2 ? { requeue: true } : call === 3 ? { requeueAfter: 1_000 } : undefined;
        });
      await runtime.converge();
    } finally {
      await runtime.stop();
      tracker.stop();
    }
    expect(reconciled).toEqual([
      // Back through the rate limiter: workqueue_retries_total counts them.
      ['Requeuer', 'requeue', true],
      ['Requeuer', 'requeue', true],
      ['Requeuer', 'requeue_after', false],
      ['Requeuer', 'success', false],
    ]);
  });
});
