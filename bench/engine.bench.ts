/**
 * The engine against a hand-written loop: inputs (100,000 and 1,000,000; --quick: 10,000 and 50,000) through a two-stage chain of
 * whole-world controllers (Int -> Str -> Sentence), to convergence on the simulated clock. Prints
 * time and heap per resource next to a loop doing the same transformation in the same run, and
 * how the time grows with the size.
 */
import type { ControllerRuntime, Kind } from '../src/index.js';
import {
  loadBuiltCosi,
  printScaling,
  quick,
  retainedHeap,
  sizes,
  type CosiModule,
  type TimeAndHeap,
} from './harness.js';

/** Inputs per run; the growth between sizes shows whether the engine stays linear. */
const SIZES = sizes([100_000, 1_000_000], [10_000, 50_000]);

/**
 * Timed runs of each side per size, alternating; the best time of each counts, as in `compare`.
 * A single run per size moved the 100k ratio between 3.9x and 5.6x from one process to the next
 * on this kind of shared machine; the best of five is steady to a few tenths.
 */
const RUNS = quick ? 3 : 5;
/** At 1M one run of the engine takes seconds: three then. */
const RUNS_AT_1M = 3;

export async function run(): Promise<void> {
  const cosi = await loadBuiltCosi();
  // Warm-up of both, so the JIT has seen the code.
  await engine(cosi, 2_000);
  handLoop(2_000);
  const runs = [];
  for (const n of SIZES) {
    // The heap runs come first, untimed: they also warm both sides up at this size (a 2,000
    // warm-up left the first 100k run of the engine partly cold).
    const loopHeap = handLoop(n).bytesPerResource;
    const engineHeap = (await engine(cosi, n)).bytesPerResource;
    let loopMs = Number.POSITIVE_INFINITY;
    let engineMs = Number.POSITIVE_INFINITY;
    for (let i = 0; i < (n >= 1_000_000 ? RUNS_AT_1M : RUNS); i++) {
      loopMs = Math.min(loopMs, handLoop(n, 'time').ms);
      engineMs = Math.min(engineMs, (await engine(cosi, n, false, 'time')).ms);
    }
    runs.push({
      n,
      loop: { ms: loopMs, bytesPerResource: loopHeap },
      cosi: { ms: engineMs, bytesPerResource: engineHeap },
    });
  }
  printScaling(
    'engine: inputs through a two-stage controller chain (whole-world controllers)',
    'engine',
    runs,
  );
}

/** What a run measures: its time only, or its time and the heap it retains. */
type Measure = 'time' | 'heap';

/** The retained heap when the run measures it; otherwise one collection, so that the run starts clean. */
function heapAt(measure: Measure): number {
  if (measure === 'heap') return retainedHeap();
  if (typeof gc === 'function') gc();
  return 0;
}

/** The chain run to convergence; with `record`, a run record is installed (bench/record.bench.ts). */
export async function engine(
  cosi: CosiModule,
  n: number,
  record = false,
  measure: Measure = 'heap',
): Promise<TimeAndHeap> {
  const Int = cosi.defineResource<{ value: number }>({ type: 'Ints.bench.cosi.dev' });
  const Str = cosi.defineResource<{ value: string }>({ type: 'Strs.bench.cosi.dev' });
  const Sentence = cosi.defineResource<{ value: string }>({ type: 'Sentences.bench.cosi.dev' });
  const stage = (
    name: string,
    from: typeof Int | typeof Str,
    to: typeof Str,
    fn: (spec: unknown) => string,
  ) => ({
    name,
    inputs: [{ namespace: from.namespace, type: from.type, kind: 'weak' as const }],
    outputs: [{ type: to.type, kind: 'exclusive' as const }],
    async run(rt: ControllerRuntime) {
      for await (const _ of rt.events()) {
        // Either stage's input: a kind of any spec (the stage's `fn` reads it as unknown).
        const kind: Kind = from.kind();
        for (const input of await rt.list(kind)) {
          await rt.modify(to.create(input.metadata.id), (draft) => {
            draft.spec.value = fn(input.spec);
          });
        }
        rt.resetRestartBackoff();
      }
    },
  });
  const clock = new cosi.SimulatedClock();
  const state = cosi.createInMemoryState({ now: () => clock.now() });
  const runtime = cosi.createRuntime(state, {
    clock,
    ...(record ? { recorder: new cosi.RunRecord({ now: () => clock.now() }) } : {}),
  });
  await runtime.register(
    stage('IntToStr', Int, Str, (s) => String((s as { value: number }).value)),
    stage('StrToSentence', Str, Sentence, (s) => `${(s as { value: string }).value} is a number`),
  );
  for (let i = 0; i < n; i++) await state.create(Int.create(`r${i}`, { value: i }));
  const before = heapAt(measure);
  const start = performance.now();
  const report = await runtime.converge({ maxWrites: Number.POSITIVE_INFINITY });
  const ms = performance.now() - start;
  const after = measure === 'heap' ? retainedHeap() : before;
  if (!report.converged || (await state.list(Sentence.kind())).length !== n) {
    throw new Error('engine benchmark did not converge');
  }
  await runtime.stop();
  return { ms, bytesPerResource: (after - before) / n };
}

interface Record_ {
  readonly metadata: { readonly id: string; readonly version: number };
  readonly spec: { readonly value: unknown };
}

function handLoop(n: number, measure: Measure = 'heap'): TimeAndHeap {
  const ints = new Map<string, Record_>();
  for (let i = 0; i < n; i++) {
    ints.set(
      `r${i}`,
      Object.freeze({
        metadata: Object.freeze({ id: `r${i}`, version: 1 }),
        spec: Object.freeze({ value: i }),
      }),
    );
  }
  const before = heapAt(measure);
  const start = performance.now();
  const strs = new Map<string, Record_>();
  for (const [id, r] of ints) {
    strs.set(
      id,
      Object.freeze({
        metadata: Object.freeze({ id, version: 1 }),
        spec: Object.freeze({ value: String(r.spec.value) }),
      }),
    );
  }
  const sentences = new Map<string, Record_>();
  for (const [id, r] of strs) {
    sentences.set(
      id,
      Object.freeze({
        metadata: Object.freeze({ id, version: 1 }),
        spec: Object.freeze({ value: `${String(r.spec.value)} is a number` }),
      }),
    );
  }
  const ms = performance.now() - start;
  const after = measure === 'heap' ? retainedHeap() : before;
  // Both maps stay reachable until the heap was measured, as the engine keeps both stages.
  if (sentences.size !== n || strs.size !== n) throw new Error('loop lost items');
  return { ms, bytesPerResource: (after - before) / n };
}
