/**
 * A transform with writes in flight (`RuntimeOptions.writesInFlight`, as on etcd) transforms
 * several inputs at once, at most that many, yet reports its errors in the order of the inputs
 * and writes an output two inputs map to in the inputs' order, as one write after another would.
 */
import { describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  createTransformController,
  SimulatedClock,
  type Runtime,
  type State,
  type TransformSettings,
} from '../../src/index.js';
import { A, B, type ASpec, type BSpec } from './harness.js';

const turns = async (n: number): Promise<void> => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

async function run(
  settings: Omit<TransformSettings<ASpec, BSpec>, 'name' | 'input' | 'output'>,
  inputs: readonly [string, ASpec][],
  writesInFlight: number,
  then?: (state: State, runtime: Runtime) => Promise<void>,
) {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  const runtime = createRuntime(state, { clock, writesInFlight });
  for (const [id, spec] of inputs) await state.create(A.create(id, spec));
  await runtime.register(
    createTransformController<ASpec, BSpec>(
      { name: 'AToB', input: A, output: B, ...settings },
      { inputFinalizers: true },
    ),
  );
  let report = await runtime.converge({ maxAttempts: 1 });
  if (then) {
    await then(state, runtime);
    report = await runtime.converge({ maxAttempts: 1 });
  }
  await runtime.stop();
  return { state, report };
}

describe('a transform with writes in flight', () => {
  it('transforms at most writesInFlight inputs at once, and every one of them', async () => {
    let running = 0;
    let most = 0;
    const inputs = Array.from({ length: 12 }, (_, i): [string, ASpec] => [
      `a${String(i).padStart(2, '0')}`,
      { str: `s${i}`, int: i },
    ]);
    const { state, report } = await run(
      {
        mapMetadata: (a) => B.create(a.metadata.id),
        transform: async (_ctx, a, b) => {
          running++;
          most = Math.max(most, running);
          await turns(3 + (a.spec.int % 4));
          running--;
          b.spec.out = a.spec.str;
        },
      },
      inputs,
      4,
    );
    expect(report.converged).toBe(true);
    expect(most).toBe(4);
    for (const [id, spec] of inputs) {
      expect((await state.get<BSpec>(B.pointer(id))).spec.out).toBe(spec.str);
      expect((await state.get(A.pointer(id))).metadata.finalizers).toEqual(['AToB']);
    }
  });

  it('reports the errors of a pass in the order of its inputs', async () => {
    const { report } = await run(
      {
        mapMetadata: (a) => B.create(a.metadata.id),
        transform: async (_ctx, a) => {
          // The first failure takes longest: done in order of finishing, it would come last.
          await turns(a.spec.int);
          throw new Error(`broken ${a.metadata.id}`);
        },
      },
      [
        ['a', { str: 'a', int: 30 }],
        ['b', { str: 'b', int: 1 }],
        ['c', { str: 'c', int: 10 }],
      ],
      8,
    );
    const message = report.controllers.find((c) => c.name === 'AToB')?.lastError?.message ?? '';
    expect(message).toMatch(/broken a.*broken b.*broken c/);
  });

  it('writes an output two inputs map to in the order of the inputs', async () => {
    const { state } = await run(
      {
        mapMetadata: () => B.create('shared'),
        transform: async (_ctx, a, b) => {
          // The first input is the slowest: written in order of finishing, it would win.
          await turns(a.spec.int);
          b.spec.out = a.metadata.id;
        },
      },
      [
        ['first', { str: '', int: 40 }],
        ['second', { str: '', int: 1 }],
      ],
      8,
    );
    expect((await state.get<BSpec>(B.pointer('shared'))).spec.out).toBe('second');
  });

  it('cleans up the outputs of torn-down inputs several at once, and releases every input', async () => {
    let releasing = 0;
    let most = 0;
    const inputs = Array.from({ length: 10 }, (_, i): [string, ASpec] => [
      `a${i}`,
      { str: `s${i}`, int: i },
    ]);
    const { state, report } = await run(
      {
        mapMetadata: (a) => B.create(a.metadata.id),
        transform: (_ctx, a, b) => {
          b.spec.out = a.spec.str;
        },
        finalizerRemoval: async () => {
          releasing++;
          most = Math.max(most, releasing);
          await turns(3);
          releasing--;
        },
      },
      inputs,
      4,
      async (s) => {
        for (const [id] of inputs) await s.teardown(A.pointer(id));
      },
    );
    expect(report.converged).toBe(true);
    expect(most).toBe(4);
    expect(await state.list(B)).toEqual([]);
    for (const [id] of inputs) {
      const input = await state.get(A.pointer(id));
      expect(input.metadata.phase).toBe('tearingDown');
      expect(input.metadata.finalizers).toEqual([]);
    }
  });
});
