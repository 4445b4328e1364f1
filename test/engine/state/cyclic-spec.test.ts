import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  defineResource,
  SimulatedClock,
  type Controller,
} from '../../../src/index.js';

const VM = defineResource<Record<string, unknown>>({ type: 'VMs.example.org' });

/** What a call threw (it must throw). */
async function thrown(call: () => Promise<unknown>): Promise<Error> {
  try {
    await call();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to throw');
}

const SAID =
  /^data that refers to itself cannot be copied or stored: the value at (\S+) is the object at (\S+) again, which holds it \(a resource's spec is JSON data, which holds no cycles\)$/;

describe('a spec that refers to itself', () => {
  it('is refused by create with a TypeError saying where the cycle is, not a stack overflow', async () => {
    const state = createInMemoryState();
    const spec: Record<string, unknown> = { cpus: 1, nested: { list: [1, 2] } };
    (spec.nested as Record<string, unknown>).back = spec;
    const error = await thrown(() => state.create(VM.create('a', spec)));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toMatch(SAID);
    expect(SAID.exec(error.message)?.slice(1)).toEqual(['/nested/back', '/']);
    // Nothing was stored.
    expect(await state.list(VM.kind())).toEqual([]);
  });

  it('is refused in an array holding itself, and by update', async () => {
    const state = createInMemoryState();
    const list: unknown[] = ['x'];
    list.push(list);
    expect((await thrown(() => state.create(VM.create('a', { list })))).message).toContain(
      'the value at /list/1 is the object at /list again',
    );
    const stored = await state.create(VM.create('b', { ok: true }));
    const draft = { metadata: stored.metadata, spec: { ...stored.spec } };
    draft.spec.self = draft.spec;
    expect((await thrown(() => state.update(draft))).message).toMatch(SAID);
    expect((await state.get(VM.pointer('b'))).spec).toEqual({ ok: true });
  });

  it('is refused by modify when the updater puts one in the draft', async () => {
    const state = createInMemoryState();
    await state.create(VM.create('a', { ok: true }));
    const error = await thrown(() =>
      state.modify(VM.create('a'), (draft) => {
        const loop: Record<string, unknown> = {};
        loop.again = { loop };
        draft.spec.loop = loop;
      }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect(error.message).toContain('the value at /loop/again/loop is the object at /loop again');
  });

  it("fails the controller's pass that writes one with that message, as any error", async () => {
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    const runtime = createRuntime(state, { clock });
    const writer: Controller = {
      name: 'Cyclic',
      inputs: [],
      outputs: [{ type: VM.type, kind: 'exclusive' }],
      async run(rt) {
        for await (const _ of rt.events()) {
          const spec: Record<string, unknown> = {};
          spec.me = spec;
          await rt.modify(VM.create('a'), (draft) => {
            draft.spec.child = spec;
          });
        }
      },
    };
    await runtime.register(writer);
    const report = await runtime.converge({ maxAttempts: 2 });
    await runtime.stop();
    const failing = report.controllers.find((c) => c.name === 'Cyclic');
    expect(failing?.lastError?.message).toContain(
      'the value at /child/me is the object at /child again',
    );
  });

  it('is no cycle when one object is shared by two keys', async () => {
    const state = createInMemoryState();
    const shared = { a: 1 };
    const stored = await state.create(VM.create('a', { p: shared, q: [shared, shared] }));
    expect(stored.spec).toEqual({ p: { a: 1 }, q: [{ a: 1 }, { a: 1 }] });
  });
});
