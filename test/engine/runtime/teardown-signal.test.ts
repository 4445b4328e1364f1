/** The controller reader's `teardownSignal`: COSI's `ContextWithTeardown` for controllers. */
import { afterEach, describe, expect, it } from 'vitest';
import { defineResource, type QController } from '../../../src/index.js';
import { createHarness, type Harness } from '../../support/harness.js';

const Job = defineResource<{ script: string }>({
  type: 'Jobs.batch.example.org',
  defaultNamespace: 'batch',
  defaultSpec: () => ({ script: '' }),
});
const Node = defineResource<{ zone: string }>({
  type: 'Nodes.batch.example.org',
  defaultNamespace: 'batch',
  defaultSpec: () => ({ zone: '' }),
});

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** Starts each job once, bound to a signal that ends with the job; keeps the signals. */
function runner(signals: Map<string, AbortSignal>, caught: unknown[] = []): QController {
  return {
    name: 'Runner',
    settings: {
      inputs: [{ namespace: Job.namespace, type: Job.type, kind: 'primary' }],
      outputs: [],
    },
    reconcile: async (rt, pointer) => {
      if (signals.has(pointer.id)) return;
      signals.set(pointer.id, await rt.teardownSignal(pointer));
      await rt.teardownSignal(Node.pointer('n1')).catch((e: unknown) => caught.push(e));
    },
    mapInput: async () => [],
  };
}

describe('teardownSignal on the controller reader', () => {
  it('aborts when the input starts tearing down, and leaves the others running', async () => {
    h = createHarness();
    await h.state.create(Job.create('build'));
    await h.state.create(Job.create('test'));
    const signals = new Map<string, AbortSignal>();
    await h.runtime.register(runner(signals));
    await h.runtime.converge();
    expect([signals.get('build')?.aborted, signals.get('test')?.aborted]).toEqual([false, false]);
    await h.state.teardown(Job.pointer('build'));
    await h.runtime.converge();
    expect([signals.get('build')?.aborted, signals.get('test')?.aborted]).toEqual([true, false]);
  });

  it('aborts when the controller stops', async () => {
    h = createHarness();
    await h.state.create(Job.create('build'));
    const signals = new Map<string, AbortSignal>();
    await h.runtime.register(runner(signals));
    await h.runtime.converge();
    await h.runtime.stop();
    expect(signals.get('build')?.aborted).toBe(true);
  });

  it('is a read: refused for what is neither input nor output, and counted', async () => {
    h = createHarness();
    await h.state.create(Job.create('build'));
    const caught: unknown[] = [];
    await h.runtime.register(runner(new Map(), caught));
    await h.runtime.converge();
    expect(caught).toHaveLength(1);
    expect(caught[0]).toMatchObject({ code: 'access-denied', rule: 'read' });
    expect(h.runtime.metrics('Runner')?.reads).toBe(1);
  });
});
