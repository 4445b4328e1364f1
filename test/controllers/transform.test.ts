import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createEventChannel,
  createTransformController,
  type Draft,
  labelEqual,
  labelQuery,
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
  recordEvents,
  type ASpec,
  type BSpec,
  type CSpec,
  type Harness,
} from './harness.js';
import { formatPointer } from '../../src/engine/resource/pointer.js';
import { shortenMessage } from '../../src/loaders/shorten.js';

const NAME = 'TransformAB';

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.runtime.stop();
});

/** A -> B as `transformed-<id>`; `skip-me` maps to nothing, a negative int fails. */
function abController(
  options: TransformOptions = {},
  overrides: Partial<TransformSettings<ASpec, BSpec>> = {},
) {
  return createTransformController<ASpec, BSpec>(
    {
      name: NAME,
      input: A,
      output: B,
      mapMetadata: (a) =>
        a.metadata.id === 'skip-me' ? undefined : B.create(`transformed-${a.metadata.id}`),
      transform: (_ctx, a, b) => {
        if (a.spec.int < 0) throw new Error('hate negative numbers');
        b.spec.out = `${a.spec.str}-${a.spec.int}`;
      },
      ...overrides,
    },
    options,
  );
}

const out = async (id: string): Promise<Resource<BSpec>> =>
  h.state.get<BSpec>(B.pointer(`transformed-${id}`));

const finalizersOf = async (id: string): Promise<readonly string[]> =>
  (await h.state.get(A.pointer(id))).metadata.finalizers;

describe('transform controller', () => {
  it('creates an output for every input, owned by the controller', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1', { str: 'foo', int: 1 }));
    await h.state.create(A.create('2', { str: 'bar', int: 2 }));
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect((await out('1')).spec.out).toBe('foo-1');
    expect((await out('2')).spec.out).toBe('bar-2');
    expect((await out('1')).metadata.owner).toBe(NAME);
  });

  it('updates the output when its input changes', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1', { str: 'foo', int: 1 }));
    await h.runtime.converge();
    await h.state.modify(A.create('1'), (d) => {
      d.spec.str = 'foo2';
    });
    await h.runtime.converge();
    expect((await out('1')).spec.out).toBe('foo2-1');
  });

  it('skips an input for which mapMetadata returns undefined', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1'));
    await h.state.create(A.create('skip-me'));
    await h.runtime.converge();
    expect(await ids(h, B.kind())).toEqual(['transformed-1']);
  });

  it('reports a failing transform without blocking the other inputs, then recovers once the input is fixed', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1', { str: 'foo', int: 1 }));
    await h.state.create(A.create('2', { str: 'bar', int: -2 }));
    await h.state.create(A.create('3', { str: 'baz', int: 3 }));
    const failed = await h.runtime.converge({ maxAttempts: 3 });
    expect(failed.converged).toBe(false);
    expect(failed.controllers[0]?.lastError?.message).toContain('hate negative numbers');
    expect(await ids(h, B.kind())).toEqual(['transformed-1', 'transformed-3']);

    await h.state.modify(A.create('2'), (d) => {
      d.spec.int = 2;
    });
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect((await out('2')).spec.out).toBe('bar-2');
  });

  it('leaves an input alone, without an error, when transform throws skip()', async () => {
    await h.runtime.register(
      abController(
        {},
        {
          transform: (_ctx, a, b) => {
            if (a.spec.str === '') throw skip('no str yet');
            b.spec.out = a.spec.str;
          },
        },
      ),
    );
    await h.state.create(A.create('1'));
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(0);
    expect(await ids(h, B.kind())).toEqual([]);
  });

  it('destroys the output of an input that is destroyed', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1'));
    await h.state.create(A.create('2'));
    await h.runtime.converge();
    await h.state.destroy(A.pointer('1'));
    await h.runtime.converge();
    expect(await ids(h, B.kind())).toEqual(['transformed-2']);
  });

  it('destroys the output of a tearing-down input right away without input finalizers', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1'));
    await h.runtime.converge();
    expect(await h.state.teardown(A.pointer('1'))).toBe(true);
    await h.runtime.converge();
    expect(await ids(h, B.kind())).toEqual([]);
  });

  it('keeps an output that other finalizers hold tearing down, and destroys it once they are gone', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1'));
    await h.runtime.converge();
    await h.state.addFinalizer(B.pointer('transformed-1'), 'foo.cosi');
    await h.state.destroy(A.pointer('1'));
    await h.runtime.converge();
    expect((await out('1')).metadata.phase).toBe('tearingDown');

    await h.state.removeFinalizer(B.pointer('transformed-1'), 'foo.cosi');
    await h.runtime.converge();
    expect(await ids(h, B.kind())).toEqual([]);
  });

  it('leaves outputs it does not own alone', async () => {
    await h.state.create(B.create('someone-elses'), { owner: 'OtherController' });
    await h.state.create(B.create('users'));
    await h.runtime.register(abController());
    await h.runtime.converge();
    expect(await ids(h, B.kind())).toEqual(['someone-elses', 'users']);
  });

  it('skips an input whose output another controller owns, without an error', async () => {
    await h.state.create(B.create('transformed-1', { out: 'theirs', count: 0 }), {
      owner: 'OtherController',
    });
    await h.runtime.register(abController({ outputKind: 'shared' }));
    await h.state.create(A.create('1', { str: 'mine', int: 1 }));
    const report = await h.runtime.converge();
    expect(report.errors).toBe(0);
    expect((await out('1')).spec.out).toBe('theirs');
  });

  describe('with inputFinalizers', () => {
    it('puts a finalizer named after the controller on every input', async () => {
      await h.runtime.register(abController({ inputFinalizers: true }));
      await h.state.create(A.create('1'));
      await h.runtime.converge();
      expect(await finalizersOf('1')).toEqual([NAME]);
    });

    it('declares the input strong and its own output destroyReady', () => {
      const ctrl = abController({ inputFinalizers: true });
      expect(ctrl.inputs).toEqual([
        { namespace: A.namespace, type: A.type, kind: 'strong' },
        { namespace: B.namespace, type: B.type, kind: 'destroyReady' },
      ]);
      expect(ctrl.outputs).toEqual([{ type: B.type, kind: 'exclusive' }]);
    });

    it('runs finalizerRemoval, destroys the output, then releases the input', async () => {
      const removed: string[] = [];
      await h.runtime.register(
        abController(
          { inputFinalizers: true },
          {
            finalizerRemoval: (_ctx, a) => {
              removed.push(a.metadata.id);
            },
          },
        ),
      );
      await h.state.create(A.create('1'));
      await h.state.create(A.create('2'));
      await h.runtime.converge();
      const events = await recordEvents(h, A.kind(), B.kind());
      expect(await h.state.teardown(A.pointer('1'))).toBe(false);
      await h.runtime.converge();

      expect(removed).toEqual(['1']);
      expect(await ids(h, B.kind())).toEqual(['transformed-2']);
      expect(await finalizersOf('1')).toEqual([]);
      // The teardown of A, then of B (an update), B destroyed, and last A's finalizer removed.
      expect(events).toEqual([
        'A updated 1',
        'B updated transformed-1',
        'B destroyed transformed-1',
        'A updated 1',
      ]);
    });

    it('keeps a tearing-down input and its output while finalizerRemoval fails, retrying with backoff', async () => {
      const outputAtCall: boolean[] = [];
      await h.runtime.register(
        abController(
          { inputFinalizers: true },
          {
            finalizerRemoval: async (ctx) => {
              outputAtCall.push((await ctx.reader.find(B.pointer('transformed-1'))) !== undefined);
              if (outputAtCall.length < 3) throw new Error('bridge busy');
            },
          },
        ),
      );
      await h.state.create(A.create('1'));
      await h.runtime.converge();
      await h.state.teardown(A.pointer('1'));
      const report = await h.runtime.converge();

      expect(report.converged).toBe(true);
      expect(report.errors).toBe(2);
      // Two restarts: 500 ms, then 750 ms, on the simulated clock.
      expect(report.elapsed).toBe(1250);
      expect(outputAtCall).toEqual([true, true, true]);
      expect(await ids(h, B.kind())).toEqual([]);
      expect(await finalizersOf('1')).toEqual([]);
    });

    it('waits for skip() from finalizerRemoval without failing', async () => {
      let allowed = false;
      await h.runtime.register(
        abController(
          { inputFinalizers: true, extraInputs: [{ ...C.kind(), kind: 'weak' }] },
          {
            finalizerRemoval: () => {
              if (!allowed) throw skip('not yet');
            },
          },
        ),
      );
      await h.state.create(A.create('1'));
      await h.runtime.converge();
      await h.state.teardown(A.pointer('1'));
      const waiting = await h.runtime.converge();
      expect(waiting.errors).toBe(0);
      expect(await finalizersOf('1')).toEqual([NAME]);
      expect((await out('1')).metadata.phase).toBe('running');

      allowed = true;
      await h.state.create(C.create('wake-up'));
      await h.runtime.converge();
      expect(await finalizersOf('1')).toEqual([]);
      expect(await ids(h, B.kind())).toEqual([]);
    });

    // Ported from cosi-project/runtime pkg/controller/generic/transform/controller.go cleanupOutputs (an output owned by someone else keeps the input)
    it('keeps the finalizer of a tearing-down input whose output another controller owns', async () => {
      await h.state.create(B.create('transformed-1', { out: 'theirs', count: 0 }), {
        owner: 'OtherController',
      });
      await h.runtime.register(
        abController(
          { inputFinalizers: true, outputKind: 'shared' },
          { finalizerRemoval: () => {} },
        ),
      );
      await h.state.create(A.create('1', { str: 'mine', int: 1 }));
      await h.runtime.converge();
      await h.state.teardown(A.pointer('1'));
      await h.runtime.converge();
      expect(await finalizersOf('1')).toEqual([NAME]);
      expect((await out('1')).spec.out).toBe('theirs');
    });

    it('releases an input that stops matching inputListOptions once its output is gone, so that it can be destroyed', async () => {
      const removed: string[] = [];
      await h.runtime.register(
        abController(
          {
            inputFinalizers: true,
            inputListOptions: { labelQueries: [labelQuery(labelEqual('env', 'prod'))] },
          },
          { finalizerRemoval: (_ctx, a) => void removed.push(a.metadata.id) },
        ),
      );
      await h.state.create(A.create('1', undefined, { labels: { env: 'prod' } }));
      await h.state.create(A.create('2', undefined, { labels: { env: 'prod' } }));
      await h.runtime.converge();
      expect(await finalizersOf('1')).toEqual([NAME]);
      await h.state.addFinalizer(B.pointer('transformed-1'), 'other');

      await h.state.modify(A.create('1'), (a) => {
        a.metadata.labels.env = 'dev';
      });
      await h.runtime.converge();
      // Its output is tearing down, held by another finalizer: the input keeps ours meanwhile.
      expect((await out('1')).metadata.phase).toBe('tearingDown');
      expect(await finalizersOf('1')).toEqual([NAME]);

      await h.state.removeFinalizer(B.pointer('transformed-1'), 'other');
      expect((await h.runtime.converge()).converged).toBe(true);
      expect(await ids(h, B.kind())).toEqual(['transformed-2']);
      expect(await finalizersOf('1')).toEqual([]);
      expect(await finalizersOf('2')).toEqual([NAME]);
      expect(removed).toEqual([]);
      await h.state.teardownAndDestroy(A.pointer('1'));
      expect(await ids(h, A.kind())).toEqual(['2']);
    });

    it('releases an input that mapMetadata no longer maps to an output, so that it can be destroyed', async () => {
      await h.runtime.register(
        abController(
          { inputFinalizers: true },
          {
            mapMetadata: (a) =>
              a.spec.str === 'none' ? undefined : B.create(`transformed-${a.metadata.id}`),
          },
        ),
      );
      await h.state.create(A.create('1', { str: 'x', int: 1 }));
      await h.state.create(A.create('2', { str: 'y', int: 2 }));
      await h.runtime.converge();
      expect(await finalizersOf('1')).toEqual([NAME]);

      await h.state.modify(A.create('1'), (a) => {
        a.spec.str = 'none';
      });
      expect((await h.runtime.converge()).converged).toBe(true);
      expect(await ids(h, B.kind())).toEqual(['transformed-2']);
      expect(await finalizersOf('1')).toEqual([]);
      expect(await finalizersOf('2')).toEqual([NAME]);
      await h.state.teardownAndDestroy(A.pointer('1'));
      expect(await ids(h, A.kind())).toEqual(['2']);
    });

    it('releases the input only once other finalizers on its output are gone', async () => {
      await h.runtime.register(abController({ inputFinalizers: true }));
      await h.state.create(A.create('1'));
      await h.runtime.converge();
      await h.state.addFinalizer(B.pointer('transformed-1'), 'foo.cosi');
      await h.state.teardown(A.pointer('1'));
      await h.runtime.converge();
      expect((await out('1')).metadata.phase).toBe('tearingDown');
      expect(await finalizersOf('1')).toEqual([NAME]);

      await h.state.removeFinalizer(B.pointer('transformed-1'), 'foo.cosi');
      await h.runtime.converge();
      expect(await ids(h, B.kind())).toEqual([]);
      expect(await finalizersOf('1')).toEqual([]);
    });
  });

  it('replaces an output left tearing down when its input is re-created (COSI #202)', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('3', { str: '', int: 1 }));
    await h.runtime.converge();
    await h.state.addFinalizer(B.pointer('transformed-3'), 'foo.cosi');
    await h.state.destroy(A.pointer('3'));
    await h.runtime.converge();
    expect((await out('3')).metadata.phase).toBe('tearingDown');

    await h.state.create(A.create('3', { str: '', int: 2 }));
    await h.runtime.converge();
    expect((await out('3')).metadata.phase).toBe('tearingDown');
    expect((await out('3')).spec.out).toBe('-1');

    await h.state.removeFinalizer(B.pointer('transformed-3'), 'foo.cosi');
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect((await out('3')).metadata.phase).toBe('running');
    expect((await out('3')).spec.out).toBe('-2');
  });

  describe('with ignoreTearingDownInputs', () => {
    it('keeps the output of a tearing-down input until the input is destroyed', async () => {
      await h.runtime.register(abController({ ignoreTearingDownInputs: true }));
      await h.state.create(A.create('1', { str: 'a', int: 1 }));
      await h.runtime.converge();
      await h.state.teardown(A.pointer('1'));
      await h.state.modify(
        A.create('1'),
        (d) => {
          d.spec.int = 2;
        },
        { expectedPhase: 'any' },
      );
      await h.runtime.converge();
      expect((await out('1')).metadata.phase).toBe('running');
      expect((await out('1')).spec.out).toBe('a-2');

      await h.state.destroy(A.pointer('1'));
      await h.runtime.converge();
      expect(await ids(h, B.kind())).toEqual([]);
    });

    it('cannot be combined with inputFinalizers', () => {
      expect(() => abController({ inputFinalizers: true, ignoreTearingDownInputs: true })).toThrow(
        /inputFinalizers and ignoreTearingDownInputs cannot be combined/,
      );
    });
  });

  it('lets two controllers write one output type declared shared, each keeping its own outputs', async () => {
    const prefixed = (name: string, prefix: string) =>
      createTransformController<ASpec, BSpec>(
        {
          name,
          input: A,
          output: B,
          mapMetadata: (a) => B.create(`${prefix}-${a.metadata.id}`),
          transform: (_ctx, a, b) => {
            b.spec.out = `${prefix}:${a.spec.str}`;
          },
        },
        { outputKind: 'shared' },
      );
    await h.runtime.register(prefixed('X', 'x'), prefixed('Y', 'y'));
    await h.state.create(A.create('1', { str: 'one', int: 1 }));
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    const outputs = await h.state.list<BSpec>(B.kind());
    expect(outputs.map((b) => [b.metadata.id, b.metadata.owner, b.spec.out])).toEqual([
      ['x-1', 'X', 'x:one'],
      ['y-1', 'Y', 'y:one'],
    ]);
  });

  it('transforms only the inputs that match inputListOptions', async () => {
    await h.runtime.register(
      abController({ inputListOptions: { labelQueries: [labelQuery(labelEqual('env', 'prod'))] } }),
    );
    await h.state.create(A.create('1', undefined, { labels: { env: 'prod' } }));
    await h.state.create(A.create('2', undefined, { labels: { env: 'dev' } }));
    await h.runtime.converge();
    expect(await ids(h, B.kind())).toEqual(['transformed-1']);
  });

  it('reads extra inputs in transform and reconciles when they change', async () => {
    await h.runtime.register(
      abController(
        { extraInputs: [{ ...C.kind(), kind: 'weak' }] },
        {
          transform: async (ctx, a, b) => {
            const c = await ctx.reader.find<CSpec>(C.pointer(a.metadata.id));
            b.spec.out = `${a.spec.str}${c ? `+${c.spec.aux}` : ''}`;
          },
        },
      ),
    );
    await h.state.create(A.create('1', { str: 'a', int: 0 }));
    await h.runtime.converge();
    expect((await out('1')).spec.out).toBe('a');
    await h.state.create(C.create('1', { aux: 7 }));
    await h.runtime.converge();
    expect((await out('1')).spec.out).toBe('a+7');
  });

  it('writes extra outputs through ctx.writer', async () => {
    await h.runtime.register(
      abController(
        { extraOutputs: [{ type: C.type, kind: 'exclusive' }] },
        {
          transform: async (ctx, a, b) => {
            b.spec.out = a.spec.str;
            await ctx.writer.modify(C.create(a.metadata.id), (c) => {
              c.spec.aux = a.spec.int;
            });
          },
        },
      ),
    );
    await h.state.create(A.create('1', { str: 'a', int: 5 }));
    await h.runtime.converge();
    const c = await h.state.get<CSpec>(C.pointer('1'));
    expect([c.spec.aux, c.metadata.owner]).toEqual([5, NAME]);
  });

  /** A -> B that counts its runs per output in `count`. */
  const counting = (options: TransformOptions = {}) =>
    abController(options, {
      transform: (_ctx, a, b) => {
        b.spec.out = a.spec.str;
        b.spec.count++;
      },
    });

  // Ported from cosi-project/runtime pkg/controller/generic/transform/transform_test.go TestWithExtraChannel
  it('runs a pass for every send on its extra event channel', async () => {
    const channel = createEventChannel();
    await h.runtime.register(counting({ extraEventChannel: channel }));
    await h.state.create(A.create('1', { str: 'foo', int: 1 }));
    await h.runtime.converge();
    const before = (await out('1')).spec.count;

    channel.send();
    await h.runtime.converge();
    channel.send();
    await h.runtime.converge();
    expect((await out('1')).spec.count).toBe(before + 2);
  });

  // Ported from cosi-project/runtime pkg/controller/generic/transform/transform_test.go TestWithOnShutdownCallback
  it('calls onShutdown with its context when it stops', async () => {
    const seen: string[][] = [];
    await h.runtime.register(
      abController({
        onShutdown: async (ctx) => {
          seen.push((await ctx.reader.list(B.kind())).map((b) => b.metadata.id));
        },
      }),
    );
    await h.state.create(A.create('1', { str: 'foo', int: 1 }));
    await h.runtime.converge();
    expect(seen).toEqual([]);
    await h.runtime.stop();
    expect(seen).toEqual([['transformed-1']]);
  });

  it('calls onShutdown when a pass fails, before the restart', async () => {
    let shutdowns = 0;
    await h.runtime.register(
      abController({
        onShutdown: () => {
          shutdowns++;
        },
      }),
    );
    await h.state.create(A.create('1', { str: 'bad', int: -1 }));
    const report = await h.runtime.converge({ maxAttempts: 2 });
    expect(report.controllers[0]?.metrics.crashes).toBeGreaterThan(0);
    expect(shutdowns).toBe(report.controllers[0]?.metrics.crashes);
  });

  // Ported from cosi-project/runtime pkg/controller/generic/transform/transform_test.go TestHooks
  it('runs preTransform before and postTransform after each pass, once per pass', async () => {
    const calls: string[] = [];
    await h.runtime.register(
      abController(
        {},
        {
          preTransform: async (ctx) => {
            calls.push(`pre ${(await ctx.reader.list(A.kind())).length}`);
          },
          transform: (_ctx, a, b) => {
            calls.push(`transform ${a.metadata.id}`);
            b.spec.out = a.spec.str;
          },
          postTransform: async (ctx) => {
            calls.push(`post ${(await ctx.reader.list(B.kind())).length}`);
          },
        },
      ),
    );
    for (const id of ['1', '2', '3']) await h.state.create(A.create(id, { str: id, int: 1 }));
    await h.runtime.converge();
    expect(calls.slice(0, 5)).toEqual([
      'pre 3',
      'transform 1',
      'transform 2',
      'transform 3',
      'post 3',
    ]);
    expect(calls.filter((c) => c.startsWith('pre')).length).toBe(
      calls.filter((c) => c.startsWith('post')).length,
    );
  });

  it('fails the pass without transforming anything when preTransform throws', async () => {
    let fail = true;
    await h.runtime.register(
      abController(
        {},
        {
          preTransform: () => {
            if (fail) throw new Error('not ready');
          },
        },
      ),
    );
    await h.state.create(A.create('1', { str: 'foo', int: 1 }));
    const report = await h.runtime.converge({ maxAttempts: 1 });
    expect(report.controllers[0]?.lastError?.message).toBe('not ready');
    expect(await ids(h, B.kind())).toEqual([]);

    fail = false;
    await h.runtime.converge();
    expect(await ids(h, B.kind())).toEqual(['transformed-1']);
  });

  it('reports a mapMetadata that puts an output outside the output type namespace', async () => {
    await h.runtime.register(
      abController(
        {},
        { mapMetadata: (a) => B.create(a.metadata.id, undefined, { namespace: 'elsewhere' }) },
      ),
    );
    await h.state.create(A.create('1'));
    const report = await h.runtime.converge({ maxAttempts: 1 });
    expect(report.controllers[0]?.lastError?.message).toContain(
      'expected a Bs.test.cosi.dev in namespace "ns-b"',
    );
    expect(await h.state.list(B.kind('elsewhere'))).toEqual([]);
  });

  it('says what a mapMetadata of the wrong type returned once per input, naming the controller once, so that a cut finding keeps what was expected', async () => {
    // A config's slip: the input's type's create() where the output's was meant (a compile
    // error in TypeScript; a config in JavaScript, or one not type-checked, runs it).
    const wrong = (a: Resource<ASpec>) => A.create(a.metadata.id) as unknown as Draft<BSpec>;
    await h.runtime.register(abController({}, { mapMetadata: wrong }));
    await h.state.create(A.create('orders'));
    await h.state.create(A.create('users'));
    const report = await h.runtime.converge({ maxAttempts: 1 });
    const message = report.controllers[0]?.lastError?.message ?? '';
    expect(message.split(NAME)).toHaveLength(2);
    // What cosi check shows (a finding's message is cut at its bound, its end kept): what the
    // first input's mapMetadata returned and what was expected, and what to do.
    const shown = shortenMessage(message);
    expect(shown).toContain(
      `controller "${NAME}" failed: mapMetadata returned ${formatPointer(A.pointer('orders'))}, expected a Bs.test.cosi.dev in namespace "ns-b"`,
    );
    expect(shown).toMatch(/\(use the output type's create\(\)\)$/);
  });
});
