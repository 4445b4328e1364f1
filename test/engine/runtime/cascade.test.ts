import { afterEach, describe, expect, it } from 'vitest';
import {
  createHarness,
  Int,
  intToStr,
  Sentence,
  Str,
  strToSentence,
  type Harness,
} from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('a cascade of controllers', () => {
  it('turns ints into strings into sentences and converges', async () => {
    h = createHarness();
    await h.runtime.register(intToStr(), strToSentence());
    for (let i = 0; i < 5; i++) await h.state.create(Int.create(`i${i}`, { value: i * 10 }));
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(report.reason).toBe('quiescent');
    const sentences = await h.state.list<{ value: string }>(Sentence.kind());
    expect(sentences.map((s) => [s.metadata.id, s.spec.value])).toEqual([
      ['i0', '0 sentence'],
      ['i1', '10 sentence'],
      ['i2', '20 sentence'],
      ['i3', '30 sentence'],
      ['i4', '40 sentence'],
    ]);
    const str = await h.state.get(Str.pointer('i3'));
    expect(str.metadata.owner).toBe('IntToStrController');
    const int = await h.state.get(Int.pointer('i3'));
    expect(int.metadata.finalizers).toEqual(['IntToStrController']);
  });

  it('propagates an update through both stages', async () => {
    h = createHarness();
    await h.runtime.register(intToStr(), strToSentence());
    await h.state.create(Int.create('one', { value: 1 }));
    await h.runtime.converge();
    await h.state.modify(Int.create('one'), (d) => {
      d.spec.value = 2;
    });
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect((await h.state.get<{ value: string }>(Sentence.pointer('one'))).spec.value).toBe(
      '2 sentence',
    );
  });

  it('tears down through the strong input and destroyReady, then releases the input', async () => {
    h = createHarness();
    await h.runtime.register(intToStr(), strToSentence());
    await h.state.create(Int.create('gone', { value: 7 }));
    await h.runtime.converge();
    const ready = await h.state.teardown(Int.pointer('gone'));
    expect(ready).toBe(false);
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    await expect(h.state.get(Str.pointer('gone'))).rejects.toMatchObject({ code: 'not-found' });
    await expect(h.state.get(Sentence.pointer('gone'))).rejects.toMatchObject({
      code: 'not-found',
    });
    const int = await h.state.get(Int.pointer('gone'));
    expect(int.metadata.finalizers).toEqual([]);
    await h.state.destroy(Int.pointer('gone'));
  });
});
