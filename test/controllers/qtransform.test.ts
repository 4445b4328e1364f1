import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createQTransformController,
  destroyOutput,
  mapLabelValue,
  mapSameId,
  RequeueError,
  requeueAfter,
  skip,
  type QTransformOptions,
  type QTransformSettings,
  type Resource,
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

const NAME = 'QTransformAB';

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.runtime.stop();
});

/** A -> B as `transformed-<id>`; `skip-me` maps to nothing, a negative int fails. */
function abController(
  options: QTransformOptions = {},
  overrides: Partial<QTransformSettings<ASpec, BSpec>> = {},
) {
  return createQTransformController<ASpec, BSpec>(
    {
      name: NAME,
      input: A,
      output: B,
      mapMetadata: (a) =>
        a.metadata.id === 'skip-me' ? undefined : B.create(`transformed-${a.metadata.id}`),
      unmapMetadata: (b) => A.pointer(b.metadata.id.replace(/^transformed-/, '')),
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

describe('queue transform controller', () => {
  it('creates an output for every input and updates it when the input changes', async () => {
    await h.runtime.register(abController({ concurrency: 4 }));
    for (const [id, str, int] of [
      ['1', 'foo', 1],
      ['2', 'bar', 2],
      ['3', 'baz', 3],
    ] as const) {
      await h.state.create(A.create(id, { str, int }));
    }
    await h.runtime.converge();
    expect((await h.state.list<BSpec>(B.kind())).map((b) => b.spec.out)).toEqual([
      'foo-1',
      'bar-2',
      'baz-3',
    ]);

    await h.state.modify(A.create('1'), (d) => {
      d.spec.str = 'foo2';
    });
    await h.runtime.converge();
    expect((await out('1')).spec.out).toBe('foo2-1');
  });

  it('puts its finalizer on every input', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1'));
    await h.runtime.converge();
    expect(await finalizersOf('1')).toEqual([NAME]);
  });

  it('skips an input for which mapMetadata returns undefined', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1'));
    await h.state.create(A.create('skip-me'));
    await h.runtime.converge();
    expect(await ids(h, B.kind())).toEqual(['transformed-1']);
    expect(await finalizersOf('skip-me')).toEqual([]);
  });

  it('retries a failing input with its own backoff while the others are written', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1', { str: 'foo', int: 1 }));
    await h.state.create(A.create('2', { str: 'bar', int: -2 }));
    const failed = await h.runtime.converge({ maxAttempts: 3 });
    expect(failed.reason).toBe('failing');
    expect(failed.controllers[0]?.failingItems).toEqual([
      {
        pointer: A.pointer('2'),
        attempts: 3,
        error: { code: 'error', message: 'hate negative numbers' },
      },
    ]);
    expect(await ids(h, B.kind())).toEqual(['transformed-1']);

    await h.state.modify(A.create('2'), (d) => {
      d.spec.int = 2;
    });
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect((await out('2')).spec.out).toBe('bar-2');
  });

  it('tears down the output of a tearing-down input, destroys it, then releases the input', async () => {
    const removed: string[] = [];
    await h.runtime.register(
      abController(
        {},
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
    await h.state.teardown(A.pointer('1'));
    await h.runtime.converge();

    expect(removed).toEqual(['1']);
    expect(await ids(h, B.kind())).toEqual(['transformed-2']);
    expect(await finalizersOf('1')).toEqual([]);
    expect(events).toEqual([
      'A updated 1',
      'B updated transformed-1',
      'B destroyed transformed-1',
      'A updated 1',
    ]);
  });

  it('keeps the input and its output while finalizerRemoval fails, retrying with backoff', async () => {
    const outputAtCall: boolean[] = [];
    await h.runtime.register(
      abController(
        {},
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
    // Per-item backoff: 500 ms, then 750 ms, on the simulated clock.
    expect(report.elapsed).toBe(1250);
    expect(outputAtCall).toEqual([true, true, true]);
    expect(await ids(h, B.kind())).toEqual([]);
    expect(await finalizersOf('1')).toEqual([]);
  });

  it('waits for other finalizers on the output, then destroys it and releases the input', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1'));
    await h.runtime.converge();
    await h.state.addFinalizer(B.pointer('transformed-1'), 'foo.cosi');
    await h.state.teardown(A.pointer('1'));
    const waiting = await h.runtime.converge();
    expect(waiting.errors).toBe(0);
    expect((await out('1')).metadata.phase).toBe('tearingDown');
    expect(await finalizersOf('1')).toEqual([NAME]);

    await h.state.removeFinalizer(B.pointer('transformed-1'), 'foo.cosi');
    await h.runtime.converge();
    expect(await ids(h, B.kind())).toEqual([]);
    expect(await finalizersOf('1')).toEqual([]);
  });

  it('destroys the output of an input mapMetadata no longer maps, then releases the input, so that it can be destroyed', async () => {
    const removed: string[] = [];
    await h.runtime.register(
      abController(
        {},
        {
          mapMetadata: (a) =>
            a.spec.str === 'none' ? undefined : B.create(`transformed-${a.metadata.id}`),
          finalizerRemoval: (_ctx, a) => void removed.push(a.metadata.id),
        },
      ),
    );
    await h.state.create(A.create('1', { str: 'x', int: 1 }));
    await h.state.create(A.create('2', { str: 'y', int: 2 }));
    await h.runtime.converge();
    await h.state.addFinalizer(B.pointer('transformed-1'), 'foo.cosi');

    await h.state.modify(A.create('1'), (a) => {
      a.spec.str = 'none';
    });
    expect((await h.runtime.converge()).errors).toBe(0);
    // Its output tears down, held by another finalizer: the input keeps ours meanwhile.
    expect((await out('1')).metadata.phase).toBe('tearingDown');
    expect(await finalizersOf('1')).toEqual([NAME]);

    await h.state.removeFinalizer(B.pointer('transformed-1'), 'foo.cosi');
    expect((await h.runtime.converge()).converged).toBe(true);
    expect(await ids(h, B.kind())).toEqual(['transformed-2']);
    expect(await finalizersOf('1')).toEqual([]);
    expect(await finalizersOf('2')).toEqual([NAME]);
    expect(removed).toEqual([]);
    await h.state.teardownAndDestroy(A.pointer('1'));
    expect(await ids(h, A.kind())).toEqual(['2']);
  });

  it('replaces an output left tearing down when its input is re-created', async () => {
    await h.runtime.register(abController());
    await h.state.create(A.create('1', { str: 'old', int: 1 }));
    await h.runtime.converge();
    await h.state.addFinalizer(B.pointer('transformed-1'), 'foo.cosi');
    await h.state.teardown(A.pointer('1'));
    await h.runtime.converge();
    // The input is forced out (its finalizer dropped by hand) while its output still tears down.
    await h.state.removeFinalizer(A.pointer('1'), NAME);
    await h.state.destroy(A.pointer('1'));
    await h.state.create(A.create('1', { str: 'new', int: 2 }));
    await h.runtime.converge();
    expect((await out('1')).metadata.phase).toBe('tearingDown');
    expect((await out('1')).spec.out).toBe('old-1');

    await h.state.removeFinalizer(B.pointer('transformed-1'), 'foo.cosi');
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect((await out('1')).metadata.phase).toBe('running');
    expect((await out('1')).spec.out).toBe('new-2');
    expect(await finalizersOf('1')).toEqual([NAME]);
  });

  it('skips an input whose output another controller owns, without a failure', async () => {
    await h.state.create(B.create('transformed-1', { out: 'theirs', count: 0 }), {
      owner: 'OtherController',
    });
    await h.runtime.register(abController({ outputKind: 'shared' }));
    await h.state.create(A.create('1', { str: 'mine', int: 1 }));
    const report = await h.runtime.converge();
    expect(report.errors).toBe(0);
    expect(report.controllers[0]?.failingItems).toEqual([]);
    expect((await out('1')).spec.out).toBe('theirs');
  });

  // Ported from cosi-project/runtime pkg/controller/generic/qtransform/qtransform.go reconcileTearingDown (only NotFound releases the input)
  it('keeps the finalizer of a tearing-down input whose output another controller owns, and reports the conflict', async () => {
    await h.state.create(B.create('transformed-1', { out: 'theirs', count: 0 }), {
      owner: 'OtherController',
    });
    await h.runtime.register(abController({ outputKind: 'shared' }));
    await h.state.create(A.create('1', { str: 'mine', int: 1 }));
    await h.runtime.converge();
    expect(await finalizersOf('1')).toEqual([NAME]);

    await h.state.teardown(A.pointer('1'));
    const report = await h.runtime.converge({ maxAttempts: 3 });
    expect(report.controllers[0]?.failingItems.map((f) => f.pointer.id)).toEqual(['1']);
    expect(report.controllers[0]?.lastError?.message).toMatch(/owned by "OtherController"/);
    expect(await finalizersOf('1')).toEqual([NAME]);
    expect((await out('1')).spec.out).toBe('theirs');
  });

  it('lets two queue transforms write one output type declared shared', async () => {
    const prefixed = (name: string, prefix: string) =>
      createQTransformController<ASpec, BSpec>(
        {
          name,
          input: A,
          output: B,
          mapMetadata: (a) => B.create(`${prefix}-${a.metadata.id}`),
          unmapMetadata: (b) => A.pointer(b.metadata.id.slice(prefix.length + 1)),
          transform: (_ctx, a, b) => {
            b.spec.out = `${prefix}:${a.spec.str}`;
          },
        },
        { outputKind: 'shared' },
      );
    await h.runtime.register(prefixed('X', 'x'), prefixed('Y', 'y'));
    await h.state.create(A.create('1', { str: 'one', int: 1 }));
    await h.runtime.converge();
    const outputs = await h.state.list<BSpec>(B.kind());
    expect(outputs.map((b) => [b.metadata.id, b.metadata.owner, b.spec.out])).toEqual([
      ['x-1', 'X', 'x:one'],
      ['y-1', 'Y', 'y:one'],
    ]);
    expect(await finalizersOf('1')).toEqual(['X', 'Y']);
  });

  it('reconciles the input an extra mapped input maps to', async () => {
    await h.runtime.register(
      abController(
        { extraMappedInputs: [{ type: C, mapper: mapSameId(A) }] },
        {
          transform: async (ctx, a, b) => {
            const c = await ctx.reader.find<CSpec>(C.pointer(a.metadata.id));
            b.spec.out = `${a.spec.str}${c ? `-${c.spec.aux}` : ''}`;
          },
        },
      ),
    );
    await h.state.create(A.create('1', { str: 'foo', int: 1 }));
    await h.state.create(A.create('2', { str: 'bar', int: 2 }));
    await h.runtime.converge();
    await h.state.create(C.create('1', { aux: 11 }));
    await h.state.create(C.create('4', { aux: 44 }));
    await h.runtime.converge();
    expect([(await out('1')).spec.out, (await out('2')).spec.out]).toEqual(['foo-11', 'bar']);

    await h.state.destroy(C.pointer('1'));
    await h.runtime.converge();
    expect((await out('1')).spec.out).toBe('foo');
  });

  it('maps an extra input to the input named by one of its labels', async () => {
    await h.runtime.register(
      abController(
        { extraMappedInputs: [{ type: C, mapper: mapLabelValue(A, 'a') }] },
        {
          transform: async (ctx, a, b) => {
            const cs = await ctx.reader.list<CSpec>(C.kind());
            const mine = cs.filter((c) => c.metadata.labels.a === a.metadata.id);
            b.spec.out = [a.spec.str, ...mine.map((c) => c.spec.aux)].join('-');
          },
        },
      ),
    );
    await h.state.create(A.create('1', { str: 'foo', int: 1 }));
    await h.state.create(A.create('2', { str: 'bar', int: 2 }));
    await h.runtime.converge();
    await h.state.create(C.create('cA', { aux: 11 }, { labels: { a: '1' } }));
    await h.state.create(C.create('cB', { aux: 22 }, { labels: { a: '2' } }));
    await h.state.create(C.create('cC', { aux: 33 }, { labels: { a: '1' } }));
    await h.state.create(C.create('cD', { aux: 44 }));
    await h.runtime.converge();
    expect([(await out('1')).spec.out, (await out('2')).spec.out]).toEqual(['foo-11-33', 'bar-22']);

    await h.state.destroy(C.pointer('cB'));
    await h.runtime.converge();
    expect((await out('2')).spec.out).toBe('bar');
  });

  it('maps a mappedDestroyReady extra input only once it is tearing down without finalizers', async () => {
    const mapped: string[] = [];
    await h.runtime.register(
      abController({
        extraMappedInputs: [
          {
            type: C,
            kind: 'mappedDestroyReady',
            mapper: (md) => {
              mapped.push(`${md.id} ${md.phase}`);
              return [A.pointer(md.id)];
            },
          },
        ],
      }),
    );
    await h.state.create(A.create('1'));
    await h.state.create(C.create('1', undefined, { finalizers: ['hold'] }));
    await h.runtime.converge();
    await h.state.teardown(C.pointer('1'));
    await h.runtime.converge();
    expect(mapped).toEqual([]);

    await h.state.removeFinalizer(C.pointer('1'), 'hold');
    await h.runtime.converge();
    expect(mapped).toEqual(['1 tearingDown']);
  });

  it('refuses two mappers for one kind', () => {
    expect(() =>
      abController({
        extraMappedInputs: [
          { type: C, mapper: mapSameId(A) },
          { type: C, mapper: mapLabelValue(A, 'a') },
        ],
      }),
    ).toThrow(/Cs\.test\.cosi\.dev is mapped twice/);
  });

  it('leaves an input alone, without a failure, when transform throws skip()', async () => {
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
    expect(report.controllers[0]?.metrics.skips).toBeGreaterThan(0);
    expect(report.controllers[0]?.failingItems).toEqual([]);
    expect(await ids(h, B.kind())).toEqual([]);
  });

  describe('ignoring teardown', () => {
    const phaseOf = async (id: string) => (await out(id)).metadata.phase;

    /** Tears the input down and waits for it to be released, then destroys it: rtestutils.Destroy. */
    const destroyInput = async (id: string) => {
      await h.state.teardown(A.pointer(id));
      await h.runtime.converge();
      expect(await finalizersOf(id)).toEqual([]);
      await h.state.destroy(A.pointer(id));
    };

    // Ported from cosi-project/runtime pkg/controller/generic/qtransform/qtransform_test.go TestDestroyWithIgnoreTeardownUntil
    it('keeps the output of a tearing-down input until only the listed finalizers are left', async () => {
      await h.runtime.register(abController({ ignoreTeardownUntil: ['vm.backup'] }));
      for (const id of ['1', '2', '3']) await h.state.create(A.create(id));
      await h.runtime.converge();
      expect(await ids(h, B.kind())).toEqual(['transformed-1', 'transformed-2', 'transformed-3']);

      // Without other finalizers the teardown goes through at once.
      await destroyInput('1');
      await h.runtime.converge();
      expect(await ids(h, B.kind())).toEqual(['transformed-2', 'transformed-3']);

      await h.state.addFinalizer(A.pointer('2'), 'vm.backup', 'vm.dns', 'vm.monitoring');
      await h.state.teardown(A.pointer('2'));
      await h.runtime.converge();
      expect(await phaseOf('2')).toBe('running');

      await h.state.removeFinalizer(A.pointer('2'), 'vm.dns');
      await h.runtime.converge();
      expect(await phaseOf('2')).toBe('running');

      await h.state.removeFinalizer(A.pointer('2'), 'vm.monitoring');
      const report = await h.runtime.converge();
      expect(report.errors).toBe(0);
      expect(await ids(h, B.kind())).toEqual(['transformed-3']);
      expect(await finalizersOf('2')).toEqual(['vm.backup']);

      await h.state.removeFinalizer(A.pointer('2'), 'vm.backup');
      await h.state.destroy(A.pointer('2'));
    });

    it('with an empty list, keeps the output until its own finalizer is the last one', async () => {
      await h.runtime.register(abController({ ignoreTeardownUntil: [] }));
      await h.state.create(A.create('1'));
      await h.runtime.converge();
      await h.state.addFinalizer(A.pointer('1'), 'vm.dns');
      await h.state.teardown(A.pointer('1'));
      await h.runtime.converge();
      expect(await phaseOf('1')).toBe('running');

      await h.state.removeFinalizer(A.pointer('1'), 'vm.dns');
      await h.runtime.converge();
      expect(await ids(h, B.kind())).toEqual([]);
      expect(await finalizersOf('1')).toEqual([]);
    });

    // Ported from cosi-project/runtime pkg/controller/generic/qtransform/qtransform_test.go TestDestroyWithIgnoreTeardownWhile
    it('keeps the output of a tearing-down input while a listed finalizer is on it', async () => {
      await h.runtime.register(abController({ ignoreTeardownWhile: ['vm.backup'] }));
      for (const id of ['1', '2', '3']) await h.state.create(A.create(id));
      await h.runtime.converge();

      await destroyInput('1');
      await h.runtime.converge();
      expect(await ids(h, B.kind())).toEqual(['transformed-2', 'transformed-3']);

      await h.state.addFinalizer(A.pointer('2'), 'vm.backup', 'vm.dns');
      await h.state.teardown(A.pointer('2'));
      await h.runtime.converge();
      expect(await phaseOf('2')).toBe('running');

      await h.state.removeFinalizer(A.pointer('2'), 'vm.backup');
      const report = await h.runtime.converge();
      expect(report.errors).toBe(0);
      expect(await ids(h, B.kind())).toEqual(['transformed-3']);
      expect(await finalizersOf('2')).toEqual(['vm.dns']);

      await h.state.removeFinalizer(A.pointer('2'), 'vm.dns');
      await h.state.destroy(A.pointer('2'));
    });
  });

  describe('destroyOutput()', () => {
    const destroying = () =>
      abController(
        {},
        {
          transform: (_ctx, a, b) => {
            if (a.spec.str.startsWith('destroy-output')) throw destroyOutput();
            b.spec.out = a.spec.str;
          },
        },
      );

    const setStr = (str: string) =>
      h.state.modify(A.create('1'), (d) => {
        d.spec.str = str;
      });

    it('tears the output down and destroys it', async () => {
      await h.runtime.register(destroying());
      await h.state.create(A.create('1', { str: 'before', int: 0 }));
      await h.runtime.converge();
      await setStr('destroy-output');
      const report = await h.runtime.converge();
      expect(report.errors).toBe(0);
      expect(await ids(h, B.kind())).toEqual([]);
      expect(await finalizersOf('1')).toEqual([NAME]);
    });

    it('writes a new output only once the torn-down one is destroyed', async () => {
      await h.runtime.register(destroying());
      await h.state.create(A.create('1', { str: 'before', int: 0 }));
      await h.runtime.converge();
      await h.state.addFinalizer(B.pointer('transformed-1'), 'some-finalizer');
      await setStr('destroy-output');
      await h.runtime.converge();
      expect((await out('1')).metadata.phase).toBe('tearingDown');

      await setStr('after');
      await h.runtime.converge();
      expect((await out('1')).metadata.phase).toBe('tearingDown');
      expect((await out('1')).spec.out).toBe('before');

      await h.state.removeFinalizer(B.pointer('transformed-1'), 'some-finalizer');
      await h.runtime.converge();
      expect((await out('1')).metadata.phase).toBe('running');
      expect((await out('1')).spec.out).toBe('after');
    });

    it('does nothing, without a failure, when there is no output to destroy', async () => {
      await h.runtime.register(destroying());
      await h.state.create(A.create('1', { str: 'destroy-output', int: 0 }));
      const report = await h.runtime.converge();
      expect(report.converged).toBe(true);
      expect(report.errors).toBe(0);
      expect(await ids(h, B.kind())).toEqual([]);
    });
  });

  describe('requeue', () => {
    /** Records the (virtual) time of each call, fills the output in, then throws `next.error`. */
    const requeueing = (calls: number[], next: { error?: Error }) =>
      abController(
        {},
        {
          transform: (_ctx, a, b) => {
            calls.push(h.clock.now());
            b.spec.out = a.spec.str;
            b.spec.count++;
            const error = next.error;
            next.error = undefined;
            if (error) throw error;
          },
        },
      );

    const setStr = (str: string) =>
      h.state.modify(A.create('1'), (d) => {
        d.spec.str = str;
      });

    it('writes the output, then reconciles again after the interval of a plain requeue', async () => {
      const calls: number[] = [];
      const next: { error?: Error } = {};
      await h.runtime.register(requeueing(calls, next));
      await h.state.create(A.create('1', { str: 'foo', int: 1 }));
      await h.runtime.converge();
      calls.length = 0;

      const events = await recordEvents(h, B.kind());
      next.error = requeueAfter(1000);
      await setStr('bar');
      const report = await h.runtime.converge();
      expect(report.errors).toBe(0);
      expect(calls[1]! - calls[0]!).toBe(1000);
      // Written by the requeued call, then again by the one after the interval.
      expect(events).toEqual(['updated transformed-1', 'updated transformed-1']);
      expect((await out('1')).spec.out).toBe('bar');
      expect(report.controllers[0]?.metrics.requeues).toBe(1);
    });

    it('does not write the output when a requeue carries an error, and reports the error', async () => {
      const calls: number[] = [];
      const next: { error?: Error } = {};
      await h.runtime.register(requeueing(calls, next));
      await h.state.create(A.create('1', { str: 'foo', int: 1 }));
      await h.runtime.converge();
      calls.length = 0;
      const events = await recordEvents(h, B.kind());

      next.error = new RequeueError(100, new Error('first error'));
      await setStr('bar');
      const report = await h.runtime.converge();
      expect(report.controllers[0]?.lastError?.message).toBe('first error');
      expect(calls[1]! - calls[0]!).toBe(100);
      // One write only: the retry's.
      expect(events).toEqual(['updated transformed-1']);
      expect((await out('1')).spec.out).toBe('bar');
    });
  });
});
