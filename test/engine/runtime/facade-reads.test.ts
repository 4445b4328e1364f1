/**
 * The facade's reads hand on the state's promise instead of wrapping it: a refused read still
 * rejects (it never throws at the call), a missing resource is `undefined` for `find`, and each
 * read is counted once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { AccessError, type Controller, type ControllerRuntime } from '../../../src/index.js';
import { createHarness, Int, Sentence, Str, type Harness } from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

interface Outcome<T> {
  readonly threw?: unknown;
  readonly resolved?: T;
  readonly rejected?: unknown;
}

/** Runs `read` once inside a controller: whether it threw at the call, or how its promise settled. */
async function inside<T>(read: (rt: ControllerRuntime) => Promise<T>): Promise<Outcome<T>> {
  h = createHarness();
  await h.state.create(Int.create('a', { value: 7 }));
  await h.state.create(Sentence.create('s'));
  let outcome: Outcome<T> = {};
  const controller: Controller = {
    name: 'Reader',
    inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'weak' }],
    outputs: [{ type: Str.type, kind: 'exclusive' }],
    async run(rt) {
      for await (const _ of rt.events()) {
        let pending: Promise<T>;
        try {
          pending = read(rt);
        } catch (error) {
          outcome = { threw: error };
          return;
        }
        outcome = await pending.then(
          (resolved) => ({ resolved }),
          (rejected: unknown) => ({ rejected }),
        );
        return;
      }
    },
  };
  await h.runtime.register(controller);
  await h.runtime.converge();
  return outcome;
}

describe('the facade reads', () => {
  it('reject a refused get or find instead of throwing at the call', async () => {
    for (const pointer of [Sentence.pointer('s'), Sentence.pointer('missing')]) {
      for (const read of ['get', 'find'] as const) {
        const outcome = await inside((rt) => rt[read](pointer));
        expect(outcome.threw).toBeUndefined();
        expect(outcome.rejected).toBeInstanceOf(AccessError);
      }
    }
  });

  it('find an existing resource, and nothing for a missing one, counting one read each', async () => {
    const { resolved } = await inside(async (rt) => [
      await rt.find(Int.pointer('a')),
      await rt.find(Int.pointer('missing')),
      await rt.find(Str.pointer('missing')),
    ]);
    const [found, missing, missingOutput] = resolved!;
    expect(found?.spec).toEqual({ value: 7 });
    expect(missing).toBeUndefined();
    expect(missingOutput).toBeUndefined();
    expect(h.runtime.metrics('Reader')?.reads).toBe(3);
  });

  it('get a missing resource as not-found', async () => {
    const { rejected } = await inside((rt) => rt.get(Int.pointer('missing')));
    expect(rejected).toMatchObject({ code: 'not-found' });
  });
});
