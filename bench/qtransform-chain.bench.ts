/**
 * The generic queue transform against a hand-written loop: inputs (10,000 and 100,000; --quick: 2,000 and 10,000) through a two-stage
 * chain of qtransform controllers (Int -> Str -> Sentence), to convergence on the simulated clock.
 * Prints time and heap per resource next to a loop doing the same transformation in the same run.
 * Each side runs five times at each size, the two alternating so that a busy machine slows both
 * alike, and keeps its best time: at 10k the loop takes some 15 ms, too short for one run to be a
 * steady baseline. The heap is measured in a run of its own, and a timed run forces no collection:
 * after a forced full collection (one, let alone the eight that measuring the heap takes) the next
 * run of the engine took four times as long as one without, as if its code had gone cold.
 *
 * A qtransform also puts its finalizer on every input, so the loop does that too: it replaces each
 * input with a copy that carries the finalizer, as the engine's write does.
 */
import {
  loadBuiltCosi,
  printScaling,
  retainedHeap,
  sizes,
  type CosiModule,
  type TimeAndHeap,
} from './harness.js';

/** Inputs per run; the growth between sizes shows whether the engine stays linear. */
const SIZES = sizes([10_000, 100_000], [2_000, 10_000]);

/**
 * Runs of each side per size; the best time counts. Five: on a shared machine, three often left
 * each side's best run a slowed one, and the ratio moved by a whole x from one run to the next.
 */
const RUNS = 5;

export async function run(): Promise<void> {
  const cosi = await loadBuiltCosi();
  // Warm-up of both, so the JIT has seen the code.
  for (let i = 0; i < 3; i++) {
    await engine(cosi, 2_000, 'time');
    handLoop(2_000, 'time');
  }
  const runs = [];
  for (const n of SIZES) {
    const loopHeap = handLoop(n, 'heap').bytesPerResource;
    const engineHeap = (await engine(cosi, n, 'heap')).bytesPerResource;
    const loopMs: number[] = [];
    const engineMs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      loopMs.push(handLoop(n, 'time').ms);
      engineMs.push((await engine(cosi, n, 'time')).ms);
    }
    runs.push({
      n,
      loop: { ms: Math.min(...loopMs), bytesPerResource: loopHeap },
      cosi: { ms: Math.min(...engineMs), bytesPerResource: engineHeap },
    });
  }
  printScaling('qtransform: inputs through a two-stage queue transform chain', 'qtransform', runs);
}

/** What a run measures: its time or the heap it retains. */
export type Measure = 'time' | 'heap';

/** The retained heap, when the run measures it. */
const heapAt = (measure: Measure): number => (measure === 'heap' ? retainedHeap() : 0);

/**
 * The chain run to convergence; `runtimeOptions` are given to the runtime beside its clock
 * (bench/heartbeat.bench.ts installs the worker's heartbeat).
 */
export async function engine(
  cosi: CosiModule,
  n: number,
  measure: Measure,
  runtimeOptions: Omit<Parameters<CosiModule['createRuntime']>[1] & object, 'clock'> = {},
): Promise<TimeAndHeap> {
  const Int = cosi.defineResource<{ value: number }>({ type: 'Ints.bench.cosi.dev' });
  const Str = cosi.defineResource<{ value: string }>({ type: 'Strs.bench.cosi.dev' });
  const Sentence = cosi.defineResource<{ value: string }>({ type: 'Sentences.bench.cosi.dev' });
  const intToStr = cosi.createQTransformController({
    name: 'IntToStr',
    input: Int,
    output: Str,
    mapMetadata: (int) => Str.create(int.metadata.id),
    unmapMetadata: (str) => Int.pointer(str.metadata.id),
    transform: (_ctx, int, str) => {
      str.spec.value = String(int.spec.value);
    },
  });
  const strToSentence = cosi.createQTransformController({
    name: 'StrToSentence',
    input: Str,
    output: Sentence,
    mapMetadata: (str) => Sentence.create(str.metadata.id),
    unmapMetadata: (sentence) => Str.pointer(sentence.metadata.id),
    transform: (_ctx, str, sentence) => {
      sentence.spec.value = `${str.spec.value} is a number`;
    },
  });
  const clock = new cosi.SimulatedClock();
  const state = cosi.createInMemoryState({ now: () => clock.now() });
  const runtime = cosi.createRuntime(state, { ...runtimeOptions, clock });
  await runtime.register(intToStr, strToSentence);
  for (let i = 0; i < n; i++) await state.create(Int.create(`r${i}`, { value: i }));
  const before = heapAt(measure);
  const start = performance.now();
  const report = await runtime.converge({ maxWrites: Number.POSITIVE_INFINITY });
  const ms = performance.now() - start;
  const after = heapAt(measure);
  if (!report.converged || (await state.list(Sentence.kind())).length !== n) {
    throw new Error('qtransform benchmark did not converge');
  }
  await runtime.stop();
  return { ms, bytesPerResource: (after - before) / n };
}

interface Record_ {
  readonly metadata: {
    readonly id: string;
    readonly version: number;
    readonly finalizers: readonly string[];
  };
  readonly spec: { readonly value: unknown };
}

const record = (id: string, version: number, finalizers: string[], value: unknown): Record_ =>
  Object.freeze({
    metadata: Object.freeze({ id, version, finalizers: Object.freeze(finalizers) }),
    spec: Object.freeze({ value }),
  });

/** One stage: mark the input with the stage's finalizer, then write its output. */
function stage(
  name: string,
  inputs: Map<string, Record_>,
  fn: (value: unknown) => string,
): Map<string, Record_> {
  const outputs = new Map<string, Record_>();
  for (const [id, r] of inputs) {
    inputs.set(
      id,
      record(id, r.metadata.version + 1, [...r.metadata.finalizers, name], r.spec.value),
    );
    outputs.set(id, record(id, 1, [], fn(r.spec.value)));
  }
  return outputs;
}

function handLoop(n: number, measure: Measure): TimeAndHeap {
  const ints = new Map<string, Record_>();
  for (let i = 0; i < n; i++) ints.set(`r${i}`, record(`r${i}`, 1, [], i));
  const before = heapAt(measure);
  const start = performance.now();
  const strs = stage('IntToStr', ints, (v) => String(v));
  const sentences = stage('StrToSentence', strs, (v) => `${String(v)} is a number`);
  const ms = performance.now() - start;
  const after = heapAt(measure);
  // Every map stays reachable until the heap was measured, as the engine keeps every stage.
  if (sentences.size !== n || strs.size !== n || ints.size !== n) {
    throw new Error('loop lost items');
  }
  return { ms, bytesPerResource: (after - before) / n };
}
