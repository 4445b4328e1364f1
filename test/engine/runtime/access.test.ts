import { afterEach, describe, expect, it } from 'vitest';
import {
  AccessError,
  isAccessError,
  type Controller,
  type ControllerRuntime,
} from '../../../src/index.js';
import { createHarness, Int, Sentence, Str, type Harness } from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** A controller that runs `probe` once and keeps what it threw. */
function prober(probe: (rt: ControllerRuntime) => Promise<unknown>, caught: unknown[]): Controller {
  return {
    name: 'Prober',
    inputs: [
      { namespace: Int.namespace, type: Int.type, kind: 'weak' },
      { namespace: Str.namespace, type: Str.type, id: 'only', kind: 'strong' },
    ],
    outputs: [{ type: Str.type, kind: 'exclusive' }],
    async run(rt) {
      for await (const _ of rt.events()) {
        try {
          await probe(rt);
          caught.push('ok');
        } catch (error) {
          caught.push(error);
        }
        return;
      }
    },
  };
}

async function probe(fn: (rt: ControllerRuntime) => Promise<unknown>): Promise<unknown> {
  h = createHarness();
  await h.state.create(Int.create('a'));
  await h.state.create(Sentence.create('s'));
  await h.state.create(Str.create('user-owned'));
  await h.state.create(Str.create('only'));
  const caught: unknown[] = [];
  await h.runtime.register(prober(fn, caught));
  await h.runtime.converge();
  return caught[0];
}

describe('the controller facade', () => {
  it('allows reads of inputs and outputs', async () => {
    expect(await probe((rt) => rt.get(Int.pointer('a')))).toBe('ok');
    expect(await probe((rt) => rt.list(Int.kind()))).toBe('ok');
    expect(await probe((rt) => rt.list(Str.kind('elsewhere')))).toBe('ok');
  });

  it('refuses to read a type that is neither input nor output, naming controller and resource', async () => {
    const error = await probe((rt) => rt.get(Sentence.pointer('s')));
    expect(error).toBeInstanceOf(AccessError);
    expect(error).toMatchObject({ code: 'access-denied', rule: 'read', controller: 'Prober' });
    expect((error as Error).message).toContain('Sentences.test.cosi.dev(sentences/s)');
    expect((error as Error).message).toContain('Prober');
  });

  it('says what to declare: the input or output the controller lacks, as its inputs and outputs write it', async () => {
    const read = await probe((rt) => rt.get(Sentence.pointer('s')));
    expect((read as Error).message).toBe(
      `controller "Prober" may not read Sentences.test.cosi.dev(sentences/s): it is neither an input nor an output (declare it among its inputs: { namespace: 'sentences', type: 'Sentences.test.cosi.dev', kind: 'weak' })`,
    );
    const list = await probe((rt) => rt.list(Sentence.kind()));
    expect((list as Error).message).toBe(
      `controller "Prober" may not list sentences/Sentences.test.cosi.dev: it is neither an input nor an output (declare it among its inputs: { namespace: 'sentences', type: 'Sentences.test.cosi.dev', kind: 'weak' })`,
    );
    const write = await probe((rt) => rt.create(Sentence.create('x')));
    expect((write as Error).message).toBe(
      `controller "Prober" may not create Sentences.test.cosi.dev(sentences/x): Sentences.test.cosi.dev is not one of its outputs (declare it among its outputs: { type: 'Sentences.test.cosi.dev', kind: 'exclusive' })`,
    );
  });

  it("tells a queue controller to declare a mapped input, its kind of input, not a whole-world controller's weak one", async () => {
    h = createHarness();
    await h.state.create(Int.create('a'));
    await h.state.create(Sentence.create('s'));
    const caught: unknown[] = [];
    await h.runtime.register({
      name: 'QProber',
      settings: {
        inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
        outputs: [],
      },
      async reconcile(rt) {
        await rt.get(Sentence.pointer('s')).catch((error: unknown) => caught.push(error));
      },
      mapInput: () => Promise.resolve([]),
    });
    await h.runtime.converge();
    expect((caught[0] as Error).message).toBe(
      `controller "QProber" may not read Sentences.test.cosi.dev(sentences/s): it is neither an input nor an output (declare it among its inputs: { namespace: 'sentences', type: 'Sentences.test.cosi.dev', kind: 'mapped' })`,
    );
  });

  it('names the ids an input is pinned to when it refuses a list or another id of its type', async () => {
    h = createHarness();
    const caught: unknown[] = [];
    const input = {
      namespace: 'ns',
      type: 'Others.test.cosi.dev',
      id: 'one',
      kind: 'weak',
    } as const;
    await h.runtime.register({
      ...prober(async (rt) => {
        for (const read of [
          () => rt.list({ namespace: 'ns', type: 'Others.test.cosi.dev' }),
          () => rt.get({ namespace: 'ns', type: 'Others.test.cosi.dev', id: 'two' }),
        ]) {
          await read().catch((error: unknown) => caught.push(error));
        }
      }, []),
      inputs: [input],
      outputs: [],
    });
    await h.runtime.converge();
    expect(caught.map((error) => (error as Error).message)).toEqual([
      `controller "Prober" may not list ns/Others.test.cosi.dev: its inputs of Others.test.cosi.dev name only "one" (listing needs an input without an id: { namespace: 'ns', type: 'Others.test.cosi.dev', kind: 'weak' })`,
      `controller "Prober" may not read Others.test.cosi.dev(ns/two): its inputs of Others.test.cosi.dev name only "one"`,
    ]);
  });

  it('refuses to list a kind when the input names one id only', async () => {
    h = createHarness();
    const caught: unknown[] = [];
    await h.runtime.register({
      ...prober((rt) => rt.list({ namespace: Str.namespace, type: 'Other.test' }), caught),
      inputs: [{ namespace: 'ns', type: 'Others.test.cosi.dev', id: 'one', kind: 'weak' }],
      outputs: [],
    });
    await h.runtime.converge();
    expect(isAccessError(caught[0])).toBe(true);
    const caught2: unknown[] = [];
    await h.runtime.register({
      ...prober(
        (rt) => rt.get({ namespace: 'ns', type: 'Others.test.cosi.dev', id: 'one' }),
        caught2,
      ),
      name: 'Prober2',
      inputs: [{ namespace: 'ns', type: 'Others.test.cosi.dev', id: 'one', kind: 'weak' }],
      outputs: [],
    });
    await h.runtime.converge();
    expect(caught2[0]).toMatchObject({ code: 'not-found' });
  });

  it('refuses to write a type that is not an output', async () => {
    const error = await probe((rt) => rt.create(Sentence.create('x')));
    expect(error).toMatchObject({ code: 'access-denied', rule: 'write' });
    await expect(h.state.get(Sentence.pointer('x'))).rejects.toMatchObject({ code: 'not-found' });
  });

  it('refuses a modify whose updater renames a new output to a type that is not an output', async () => {
    const error = await probe((rt) =>
      rt.modify(Str.create('renamed'), (d) => {
        d.metadata.type = Sentence.type;
        d.metadata.namespace = Sentence.namespace;
      }),
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toContain('changed which resource its draft names');
    expect(await h.state.list(Sentence.kind())).toHaveLength(1);
    await expect(h.state.get(Str.pointer('renamed'))).rejects.toMatchObject({ code: 'not-found' });
  });

  it('refuses to write a resource with an empty id, as a manifest with one is refused', async () => {
    for (const write of [
      (rt: ControllerRuntime) => rt.create(Str.create('')),
      (rt: ControllerRuntime) =>
        rt.modify(Str.create(''), (d) => {
          d.spec.value = 'x';
        }),
    ]) {
      const error = await probe(write);
      expect(error).toMatchObject({ code: 'access-denied', rule: 'write', controller: 'Prober' });
      expect((error as Error).message).toContain('its id is empty');
      expect(await h.state.list(Str.kind())).toHaveLength(2);
      await h.runtime.stop();
    }
  });

  it('stamps the controller as owner, and cannot touch resources owned by someone else', async () => {
    expect(await probe((rt) => rt.create(Str.create('mine')))).toBe('ok');
    expect((await h.state.get(Str.pointer('mine'))).metadata.owner).toBe('Prober');
    const error = await probe((rt) =>
      rt.modify(Str.create('user-owned'), (d) => {
        d.spec.value = 'stolen';
      }),
    );
    expect(error).toMatchObject({ code: 'conflict', reason: 'owner' });
  });

  it('allows finalizer changes only on strong inputs', async () => {
    const weak = await probe((rt) => rt.addFinalizer(Int.pointer('a'), 'f'));
    expect(weak).toMatchObject({ code: 'access-denied', rule: 'finalizer' });
    const otherId = await probe((rt) => rt.addFinalizer(Str.pointer('user-owned'), 'f'));
    expect(otherId).toMatchObject({ code: 'access-denied', rule: 'finalizer' });
    expect(await probe((rt) => rt.addFinalizer(Str.pointer('only'), 'f'))).toBe('ok');
    expect((await h.state.get(Str.pointer('only'))).metadata.finalizers).toEqual(['f']);
  });

  // Ported from cosi-project/runtime pkg/controller/runtime/internal/controllerstate/adapter.go RemoveFinalizer (not found is no error)
  it('removes a finalizer from a strong input that is already gone without an error or a restart', async () => {
    h = createHarness();
    const caught: unknown[] = [];
    await h.runtime.register(
      prober((rt) => rt.removeFinalizer(Str.pointer('only'), 'Prober'), caught),
    );
    const report = await h.runtime.converge();
    expect(caught).toEqual(['ok']);
    expect(report.converged).toBe(true);
    expect(report.controllers[0]).toMatchObject({ errors: 0, restarts: 0 });
  });

  it('still refuses a finalizer change on a gone resource that is not a strong input', async () => {
    const error = await probe((rt) => rt.removeFinalizer(Int.pointer('gone'), 'Prober'));
    expect(error).toMatchObject({ code: 'access-denied', rule: 'finalizer' });
  });
});
