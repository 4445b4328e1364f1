import { afterEach, describe, expect, it } from 'vitest';
import type { Pointer, QController } from '../../../src/index.js';
import { createHarness, Int, type Harness } from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** A queue controller fed only through `attachQueue`, as the builder's raw sources are. */
function fedFromOutside(): {
  controller: QController;
  reconciled: string[];
  enqueue: () => (pointer: Pointer) => void;
  signal: () => AbortSignal;
} {
  const reconciled: string[] = [];
  let enqueue: ((pointer: Pointer) => void) | undefined;
  let signal: AbortSignal | undefined;
  const controller: QController = {
    name: 'outside',
    settings: {
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
      outputs: [],
    },
    async reconcile(_rt, pointer) {
      reconciled.push(pointer.id);
    },
    async mapInput() {
      return [];
    },
    mapEvent: () => [],
    attachQueue(fn, s) {
      enqueue = fn;
      signal = s;
    },
  };
  return {
    controller,
    reconciled,
    enqueue: () => enqueue!,
    signal: () => signal!,
  };
}

describe('a queue controller with attachQueue', () => {
  it('reconciles the items queued through the function it is handed at start', async () => {
    h = createHarness();
    const fed = fedFromOutside();
    await h.runtime.register(fed.controller);
    await h.runtime.start();
    fed.enqueue()(Int.pointer('a'));
    fed.enqueue()(Int.pointer('b'));
    fed.enqueue()(Int.pointer('a'));
    await h.runtime.converge();
    expect(fed.reconciled).toEqual(['a', 'b']);
  });

  it('aborts the signal it is handed when the runtime stops, and then queues nothing', async () => {
    h = createHarness();
    const fed = fedFromOutside();
    await h.runtime.register(fed.controller);
    await h.runtime.start();
    expect(fed.signal().aborted).toBe(false);
    await h.runtime.stop();
    expect(fed.signal().aborted).toBe(true);
    fed.enqueue()(Int.pointer('late'));
    await h.runtime.settle();
    expect(fed.reconciled).toEqual([]);
  });
});
