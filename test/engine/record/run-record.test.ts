import { afterEach, describe, expect, it } from 'vitest';
import {
  createInMemoryState,
  createRuntime,
  RunRecord,
  SimulatedClock,
  type QController,
  type Runtime,
} from '../../../src/index.js';
import { Int, intToStr, Sentence, Str, strToSentence } from '../runtime/test-controllers.js';

let runtime: Runtime | undefined;
afterEach(async () => {
  await runtime?.stop();
  runtime = undefined;
});

/** A state and a runtime on a simulated clock, recording into `record` when given one. */
function setup(record?: RunRecord) {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  runtime = createRuntime(state, { clock, ...(record ? { recorder: record } : {}) });
  return { clock, state, runtime };
}

async function chain(record?: RunRecord) {
  const h = setup(record);
  await h.runtime.register(intToStr(), strToSentence());
  await h.state.create(Int.create('1', { value: 1 }));
  const first = await h.runtime.converge();
  await h.state.modify(Int.create('1'), (d) => {
    d.spec.value = 2;
  });
  const second = await h.runtime.converge();
  return { ...h, reports: [first, second] };
}

describe('the run record', () => {
  // Ported from cosi-project/runtime pkg/controller/runtime/runtime_test.go TestIntDoublerController
  it('names, for each version written, the reconcile that wrote it and what it read', async () => {
    const record = new RunRecord();
    await chain(record);
    const sentence = record.writeOf({ ...Sentence.pointer('1'), version: 2 });
    expect(sentence?.reconcile.controller).toBe('StrToSentenceController');
    expect(sentence?.write.fields).toEqual(['/spec/value']);
    const read = sentence?.reconcile.reads.find((r) => r.type === Str.type);
    expect(read).toMatchObject({ id: '1', version: 2 });
    const str = record.writeOf(read as NonNullable<typeof read>);
    expect(str?.reconcile.controller).toBe('IntToStrController');
    expect(str?.reconcile.reads).toContainEqual({ ...Int.pointer('1'), version: 3 });
    expect(str?.reconcile.triggers.map((t) => t.type)).toContain(Int.type);
  });

  it('records the triggers of a pass and how it ended', async () => {
    const record = new RunRecord();
    await chain(record);
    const passes = record.reconciles().filter((r) => r.controller === 'StrToSentenceController');
    expect(passes.every((p) => p.job === 'run' && p.outcome?.kind === 'ok')).toBe(true);
    const woken = passes.filter((p) => p.triggers.length > 0);
    expect(woken.flatMap((p) => p.triggers.map((t) => `${t.id}@${t.version}`))).toContain('1@2');
  });

  it('records a failing queue item with its error, and marks the last attempt as given up', async () => {
    const record = new RunRecord();
    const h = setup(record);
    const failing: QController = {
      name: 'Failing',
      settings: {
        inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
        outputs: [{ type: Str.type, kind: 'exclusive' }],
      },
      reconcile() {
        return Promise.reject(new Error('no luck'));
      },
      mapInput: () => Promise.resolve([]),
    };
    await h.runtime.register(failing);
    await h.state.create(Int.create('1', { value: 1 }));
    await h.runtime.converge({ maxAttempts: 3 });
    const outcomes = record.reconciles().map((r) => r.outcome);
    expect(outcomes).toEqual([
      { kind: 'error', message: 'no luck' },
      { kind: 'error', message: 'no luck' },
      { kind: 'error', message: 'no luck', gaveUp: true },
    ]);
    expect(record.reconciles()[0]?.item).toEqual(Int.pointer('1'));
  });

  it('gives each of the reconciles a queue controller runs at once its own reads and writes', async () => {
    const record = new RunRecord();
    const h = setup(record);
    const concurrent: QController = {
      name: 'Concurrent',
      settings: {
        inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'primary' }],
        outputs: [{ type: Str.type, kind: 'exclusive' }],
        concurrency: 4,
      },
      async reconcile(rt, pointer) {
        const int = await rt.get<{ value: number }>(pointer);
        // Every reconcile waits here, so all four run at once and interleave.
        await new Promise((resolve) => setImmediate(resolve));
        await rt.modify(Str.create(pointer.id), (d) => {
          d.spec.value = String(int.spec.value);
        });
      },
      mapInput: () => Promise.resolve([]),
    };
    await h.runtime.register(concurrent);
    for (const id of ['a', 'b', 'c', 'd']) await h.state.create(Int.create(id, { value: 1 }));
    await h.runtime.converge();
    const reconciles = record.reconciles();
    expect(reconciles).toHaveLength(4);
    for (const r of reconciles) {
      expect(r.reads.map((read) => read.id)).toEqual([r.item?.id]);
      expect(r.writes.map((w) => w.id)).toEqual([r.item?.id]);
    }
  });

  it('keeps at most its cap of reconciles and says it was truncated', async () => {
    const record = new RunRecord({ maxReconciles: 10 });
    const h = setup(record);
    await h.runtime.register(intToStr(), strToSentence());
    for (let i = 0; i < 20; i++) {
      await h.state.create(Int.create(String(i), { value: i }));
      await h.runtime.converge();
    }
    expect(record.reconciles().length).toBeLessThanOrEqual(10);
    expect(record.truncated).toBe(true);
    expect(record.dropped).toBeGreaterThan(0);
  });

  it('changes no report: a run with a recorder reports what a run without one does', async () => {
    const without = await chain();
    const withRecord = await chain(new RunRecord());
    expect(JSON.stringify(withRecord.reports)).toBe(JSON.stringify(without.reports));
    expect(await withRecord.state.list(Sentence)).toEqual(await without.state.list(Sentence));
  });
});

describe('the run record, asked during a run', () => {
  it("lists a resource's writes oldest first, the ones recorded after an earlier question too", () => {
    const record = new RunRecord();
    const pointer = Str.pointer('1');
    const first = record.start('A', 'run', undefined, []);
    record.wrote(first, 'create', pointer, 1);
    record.wrote(first, 'create', Str.pointer('2'), 1);
    record.end(first, { kind: 'ok' });
    expect(record.writesTo(pointer).map((w) => w.write.version)).toEqual([1]);
    const second = record.start('B', 'run', undefined, []);
    record.wrote(second, 'update', pointer, 2);
    record.end(second, { kind: 'ok' });
    const writes = record.writesTo(pointer);
    expect(writes.map((w) => [w.reconcile.controller, w.write.op, w.write.version])).toEqual([
      ['A', 'create', 1],
      ['B', 'update', 2],
    ]);
    // The answer is the caller's: changing it changes nothing the record keeps.
    writes.length = 0;
    expect(record.writesTo(pointer)).toHaveLength(2);
  });
});
