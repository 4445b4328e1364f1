import { afterEach, describe, expect, it } from 'vitest';
import type { Pointer, QController } from '../../../src/index.js';
import { createHarness, Int, Sentence, type Harness } from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** Int (primary) with Sentences mapped through `mapInput`, whose reconciles are recorded. */
function mappedQ(mapInput: () => unknown, reconciled: string[] = []): QController {
  return {
    name: 'MapQ',
    settings: {
      inputs: [
        { namespace: Int.namespace, type: Int.type, kind: 'primary' },
        { namespace: Sentence.namespace, type: Sentence.type, kind: 'mapped' },
      ],
      outputs: [],
    },
    reconcile: async (_rt, pointer) => {
      reconciled.push(pointer.id);
    },
    mapInput: async () => mapInput() as Pointer[],
  };
}

/** Converges after a new sentence, with a bound of 3 attempts per failing item. */
async function convergeAfterSentence() {
  await h.runtime.converge();
  await h.state.create(Sentence.create('s'));
  return h.runtime.converge({ maxAttempts: 3 });
}

describe('a mapInput that returns a pointer of no primary input', () => {
  it('fails the mapping: retried with backoff, given up, and the run does not converge', async () => {
    h = createHarness();
    const reconciled: string[] = [];
    await h.runtime.register(mappedQ(() => [Sentence.pointer('s')], reconciled));
    const report = await convergeAfterSentence();
    expect(report.converged).toBe(false);
    expect(report.reason).toBe('failing');
    const [controller] = report.controllers;
    expect(controller?.condition).toBe('failed');
    expect(controller?.failingItems).toEqual([
      expect.objectContaining({ pointer: Sentence.pointer('s'), attempts: 3, mapping: true }),
    ]);
    expect(controller?.failingItems[0]?.error.message).toBe(
      `mapInput of controller "MapQ" returned ${Sentence.type}(${Sentence.namespace}/s), which is not a primary input (${Int.type})`,
    );
    expect(reconciled).toEqual([]);
  });

  it('queues none of what it returned, the primary pointers beside it included', async () => {
    h = createHarness();
    const reconciled: string[] = [];
    await h.runtime.register(mappedQ(() => [Int.pointer('a'), Sentence.pointer('s')], reconciled));
    await convergeAfterSentence();
    expect(reconciled).toEqual([]);
  });
});

describe('a mapInput that returns no array of pointers', () => {
  it.each([
    ['an array holding undefined', [undefined], 'undefined at index 0'],
    ['a string', 'web', '"web"'],
    ['undefined', undefined, 'undefined'],
    ['an object that is no pointer', [{ id: 'a' }], '{"id":"a"} at index 0'],
  ])('fails the mapping with a message that says so, for %s', async (_, returned, said) => {
    h = createHarness();
    await h.runtime.register(mappedQ(() => returned));
    const report = await convergeAfterSentence();
    expect(report.converged).toBe(false);
    const failing = report.controllers[0]?.failingItems;
    expect(failing?.map((f) => [f.attempts, f.error.message])).toEqual([
      [3, `mapInput of controller "MapQ" returned ${said}: expected an array of pointers`],
    ]);
  });
});
