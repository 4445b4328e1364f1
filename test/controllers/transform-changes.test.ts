/**
 * A transform pass told what changed visits only that: its work is counted in reads of the
 * state, never timed. Its result is the one a full pass gives.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  createTransformController,
  SimulatedClock,
  skip,
  type InMemoryState,
  type Resource,
  type Runtime,
  type TransformOptions,
} from '../../src/index.js';
import { A, B, type ASpec, type BSpec } from './harness.js';

const NAME = 'TransformAB';

interface Counted {
  readonly state: InMemoryState;
  readonly runtime: Runtime;
  /** Resources of A and B the runtime read (listed or got) since the last reset. */
  reads: number;
}

/** A runtime on a state that counts the resources it hands out. */
function countingHarness(): Counted {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  const counted = { reads: 0 };
  const counting = new Proxy(state, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== 'function') return value;
      const method = (value as (...args: unknown[]) => unknown).bind(target);
      if (prop === 'list') {
        return async (...args: unknown[]) => {
          const found = (await method(...args)) as Resource[];
          counted.reads += found.length;
          return found;
        };
      }
      if (prop === 'get') {
        return async (...args: unknown[]) => {
          counted.reads++;
          return method(...args);
        };
      }
      return method;
    },
  });
  const runtime = createRuntime(counting, { clock });
  return Object.assign(counted, { state, runtime });
}

const exists = (state: InMemoryState, pointer: Parameters<InMemoryState['get']>[0]) =>
  state.get(pointer).then(
    () => true,
    () => false,
  );

let harnesses: Counted[] = [];
afterEach(async () => {
  for (const h of harnesses) await h.runtime.stop();
  harnesses = [];
});

/** A -> B; an input whose str is `skip` is skipped, one whose str is `none` maps to nothing. */
function transform(options: TransformOptions = {}) {
  return createTransformController<ASpec, BSpec>(
    {
      name: NAME,
      input: A,
      output: B,
      mapMetadata: (a) => (a.spec.str === 'none' ? undefined : B.create(`out-${a.metadata.id}`)),
      transform: (_ctx, a, b) => {
        if (a.spec.str === 'skip') throw skip();
        b.spec.out = `${a.spec.str}-${a.spec.int}`;
      },
      finalizerRemoval: () => {},
    },
    options,
  );
}

async function start(options: TransformOptions = {}, inputs = 1000): Promise<Counted> {
  const h = countingHarness();
  harnesses.push(h);
  await h.runtime.register(transform(options));
  for (let i = 0; i < inputs; i++) {
    await h.state.create(A.create(String(i), { str: `s${i}`, int: i }));
  }
  expect((await h.runtime.converge()).converged).toBe(true);
  // Once more: the pass that follows the bootstrap is told every input.
  await h.state.modify(A.create('0'), (d) => {
    d.spec.int = -1;
  });
  expect((await h.runtime.converge()).converged).toBe(true);
  h.reads = 0;
  return h;
}

describe('transform controller, told what changed', () => {
  it('reads a handful of resources after one edit among 1,000 inputs, not all of them', async () => {
    const h = await start({ inputFinalizers: true });
    await h.state.modify(A.create('500'), (d) => {
      d.spec.str = 'edited';
    });
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect((await h.state.get<BSpec>(B.pointer('out-500'))).spec.out).toBe('edited-500');
    // The input and its output, on the pass of the edit and on the one its own write causes.
    expect(h.reads).toBeLessThan(10);
  });

  it('reads a handful after an input is destroyed, and still cleans up its output', async () => {
    const h = await start({ inputFinalizers: true });
    await h.state.teardown(A.pointer('7'));
    expect((await h.runtime.converge()).converged).toBe(true);
    expect(await exists(h.state, A.pointer('7'))).toBe(true);
    await h.state.destroy(A.pointer('7'));
    expect((await h.runtime.converge()).converged).toBe(true);
    expect(await exists(h.state, B.pointer('out-7'))).toBe(false);
    expect(h.reads).toBeLessThan(30);
  });

  it('writes what a full pass writes, through creates, edits, skips, unmapped inputs, teardowns and tampering', async () => {
    // The same story twice: told what changed, and listing everything (list options turn the
    // changes off).
    const told = await start({ inputFinalizers: true }, 60);
    const full = await start({ inputFinalizers: true, inputListOptions: {} }, 60);
    const story = async (h: Counted) => {
      const writes: number[] = [];
      const step = async (fn: () => Promise<unknown>) => {
        await fn();
        const report = await h.runtime.converge();
        expect(report.converged).toBe(true);
        writes.push(report.writes);
      };
      const str = (id: string, value: string) =>
        h.state.modify(A.create(id), (d) => {
          d.spec.str = value;
        });
      await step(() => str('3', 'skip'));
      await step(() => str('4', 'none'));
      await step(() => str('5', 'edited'));
      // A skipped or unmapped input is visited again on the next pass, whatever woke it.
      await step(() => str('3', 'back'));
      await step(() => str('4', 'mapped again'));
      await step(() => h.state.create(A.create('new', { str: 'fresh', int: 1 })));
      await step(() => h.state.teardown(A.pointer('9')));
      await step(() => h.state.destroy(A.pointer('9')));
      // Someone else changes and destroys outputs: a pass undoes it.
      await step(() =>
        h.state.modify(B.create('out-11'), (d) => void (d.spec.out = 'tampered'), { owner: NAME }),
      );
      await step(() => h.state.destroy(B.pointer('out-12'), { owner: NAME }));
      await step(() => h.state.create(B.create('out-orphan'), { owner: NAME }));
      await step(() => str('13', 'last'));
      return writes;
    };
    const toldWrites = await story(told);
    const fullWrites = await story(full);
    expect(toldWrites).toEqual(fullWrites);
    const outputs = async (h: Counted) =>
      (await h.state.list<BSpec>(B.kind())).map((b) => [
        b.metadata.id,
        b.spec.out,
        b.metadata.phase,
      ]);
    expect(await outputs(told)).toEqual(await outputs(full));
    expect((await told.state.get<BSpec>(B.pointer('out-11'))).spec.out).toBe('s11-11');
    expect(await exists(told.state, B.pointer('out-orphan'))).toBe(false);
  });
});
