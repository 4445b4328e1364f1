/**
 * A transform pass costs what changed: it skips the inputs it already transformed whose output is
 * still as it left it, and never skips where the result could differ.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createEventChannel,
  createTransformController,
  skip,
  type Resource,
  type TransformOptions,
  type TransformSettings,
} from '../../src/index.js';
import {
  A,
  B,
  C,
  createHarness,
  ids,
  type ASpec,
  type BSpec,
  type CSpec,
  type Harness,
} from './harness.js';

const NAME = 'TransformAB';
const INPUTS = 20;

let h: Harness;
/** The ids `transform` ran for, in order, since the last reset. */
let transformed: string[];
beforeEach(() => {
  h = createHarness();
  transformed = [];
});
afterEach(async () => {
  await h.runtime.stop();
});

/** A -> B as `transformed-<id>`, recording every transform it runs. */
function counting(
  options: TransformOptions = {},
  overrides: Partial<TransformSettings<ASpec, BSpec>> = {},
) {
  return createTransformController<ASpec, BSpec>(
    {
      name: NAME,
      input: A,
      output: B,
      mapMetadata: (a) => B.create(`transformed-${a.metadata.id}`),
      transform: (_ctx, a, b) => {
        transformed.push(a.metadata.id);
        b.spec.out = `${a.spec.str}-${a.spec.int}`;
      },
      ...overrides,
    },
    options,
  );
}

const out = async (id: string): Promise<Resource<BSpec>> =>
  h.state.get<BSpec>(B.pointer(`transformed-${id}`));

/** Creates inputs 0..INPUTS-1 and converges; forgets the transforms that took. */
async function settle(): Promise<void> {
  for (let i = 0; i < INPUTS; i++) {
    await h.state.create(A.create(String(i), { str: `s${i}`, int: i }));
  }
  const report = await h.runtime.converge();
  expect(report.converged).toBe(true);
  transformed = [];
}

async function setStr(id: string, str: string): Promise<void> {
  await h.state.modify(A.create(id), (d) => {
    d.spec.str = str;
  });
}

describe('transform controller, incremental passes', () => {
  it('transforms only the input that changed on the pass after one edit', async () => {
    await h.runtime.register(counting());
    await settle();
    await setStr('7', 'edited');
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(transformed).toEqual(['7']);
    expect((await out('7')).spec.out).toBe('edited-7');
    expect((await out('6')).spec.out).toBe('s6-6');
  });

  it('transforms only the changed input with input finalizers, whose adding is a change too', async () => {
    await h.runtime.register(counting({ inputFinalizers: true }, { finalizerRemoval: () => {} }));
    await settle();
    await setStr('3', 'edited');
    await h.runtime.converge();
    expect(transformed).toEqual(['3']);
    expect((await out('3')).spec.out).toBe('edited-3');
  });

  it('transforms a destroyed and re-created input again, though its version is the same', async () => {
    await h.runtime.register(counting());
    await settle();
    await h.state.destroy(A.pointer('4'));
    await h.state.create(A.create('4', { str: 'again', int: 4 }));
    expect((await h.state.get(A.pointer('4'))).metadata.version).toBe(1);
    await h.runtime.converge();
    expect(transformed).toEqual(['4']);
    expect((await out('4')).spec.out).toBe('again-4');
  });

  it('restores an output that someone else changed, on the next pass', async () => {
    await h.runtime.register(counting());
    await settle();
    await h.state.modify(
      B.create('transformed-1'),
      (d) => {
        d.spec.out = 'tampered';
      },
      { owner: NAME },
    );
    // Any wakeup: another input changes.
    await setStr('2', 'edited');
    await h.runtime.converge();
    expect([...transformed].sort()).toEqual(['1', '2']);
    expect((await out('1')).spec.out).toBe('s1-1');
  });

  it('re-creates an output that someone else destroyed', async () => {
    await h.runtime.register(counting());
    await settle();
    await h.state.destroy(B.pointer('transformed-5'), { owner: NAME });
    await setStr('6', 'edited');
    await h.runtime.converge();
    expect([...transformed].sort()).toEqual(['5', '6']);
    expect((await out('5')).spec.out).toBe('s5-5');
  });

  it('transforms every input again when an extra input changes', async () => {
    let aux = 0;
    await h.runtime.register(
      counting(
        { extraInputs: [{ ...C.kind(), kind: 'weak' }] },
        {
          transform: async (ctx, a, b) => {
            transformed.push(a.metadata.id);
            aux = (await ctx.reader.find<CSpec>(C.pointer('shared')))?.spec.aux ?? 0;
            b.spec.out = `${a.spec.str}+${aux}`;
          },
        },
      ),
    );
    await settle();
    await h.state.create(C.create('shared', { aux: 7 }));
    await h.runtime.converge();
    expect(transformed).toHaveLength(INPUTS);
    expect((await out('0')).spec.out).toBe('s0+7');
    expect((await out('19')).spec.out).toBe('s19+7');
  });

  it('stops skipping once transform reads through its context, even without extra inputs', async () => {
    await h.runtime.register(
      counting(
        {},
        {
          // Every output depends on input 0 as well as its own.
          transform: async (ctx, a, b) => {
            transformed.push(a.metadata.id);
            const base = await ctx.reader.get<ASpec>(A.pointer('0'));
            b.spec.out = `${base.spec.str}/${a.spec.str}`;
          },
        },
      ),
    );
    await settle();
    await setStr('0', 'base');
    await h.runtime.converge();
    expect(transformed).toHaveLength(INPUTS);
    expect((await out('12')).spec.out).toBe('base/s12');
  });

  it.each<[string, () => TransformOptions, Partial<TransformSettings<ASpec, BSpec>>]>([
    ['an extra output', () => ({ extraOutputs: [{ type: C.type, kind: 'exclusive' }] }), {}],
    ['an extra event channel', () => ({ extraEventChannel: createEventChannel() }), {}],
    ['a preTransform hook', () => ({}), { preTransform: () => {} }],
  ])('transforms every input on every pass with %s', async (_, options, overrides) => {
    await h.runtime.register(counting(options(), overrides));
    await settle();
    await setStr('7', 'edited');
    await h.runtime.converge();
    expect(transformed).toHaveLength(INPUTS);
    expect((await out('7')).spec.out).toBe('edited-7');
  });

  it('transforms an input again on the pass after its transform threw skip()', async () => {
    let ready = false;
    await h.runtime.register(
      counting(
        {},
        {
          transform: (_ctx, a, b) => {
            transformed.push(a.metadata.id);
            if (a.metadata.id === '1' && !ready) throw skip('not ready');
            b.spec.out = a.spec.str;
          },
        },
      ),
    );
    await settle();
    expect(await ids(h, B.kind())).not.toContain('transformed-1');
    ready = true;
    await setStr('2', 'edited');
    await h.runtime.converge();
    expect([...transformed].sort()).toEqual(['1', '2']);
    expect((await out('1')).spec.out).toBe('s1');
  });

  it('transforms every input again after a pass that failed', async () => {
    let failures = 1;
    await h.runtime.register(
      counting(
        {},
        {
          transform: (_ctx, a, b) => {
            transformed.push(a.metadata.id);
            if (a.spec.str === 'poison' && failures-- > 0) throw new Error('transient');
            b.spec.out = a.spec.str;
          },
        },
      ),
    );
    await settle();
    await setStr('3', 'poison');
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(1);
    expect((await out('3')).spec.out).toBe('poison');
    // The failed pass saw only the edit; the restarted run remembers nothing.
    expect(transformed).toHaveLength(1 + INPUTS);
  });

  it('tears down with input finalizers: the output goes, the finalizer is released, the rest is untouched', async () => {
    const removed: string[] = [];
    await h.runtime.register(
      counting(
        { inputFinalizers: true },
        {
          finalizerRemoval: (_ctx, a) => {
            removed.push(a.metadata.id);
          },
        },
      ),
    );
    await settle();
    await h.state.teardown(A.pointer('9'));
    await h.runtime.converge();
    expect(removed).toEqual(['9']);
    expect(transformed).toEqual([]);
    expect(await ids(h, B.kind())).not.toContain('transformed-9');
    expect((await h.state.get(A.pointer('9'))).metadata.finalizers).toEqual([]);
    expect(await ids(h, B.kind())).toHaveLength(INPUTS - 1);
  });
});
