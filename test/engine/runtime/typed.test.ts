import { afterEach, describe, expect, it } from 'vitest';
import {
  findById,
  getById,
  labelEqual,
  labelQuery,
  listAll,
  modifyTyped,
  type Controller,
} from '../../../src/index.js';
import { createHarness, Int, Str, type Harness } from './test-controllers.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

describe('typed helpers', () => {
  it('read and write typed resources from a controller without casts', async () => {
    h = createHarness();
    await h.state.create(Int.create('a', { value: 1 }, { labels: { odd: 'yes' } }));
    await h.state.create(Int.create('b', { value: 2 }));
    await h.state.create(Int.create('c', { value: 3 }, { labels: { odd: 'yes' } }));
    const seen: unknown[] = [];
    const controller: Controller = {
      name: 'Typed',
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'weak' }],
      outputs: [{ type: Str.type, kind: 'exclusive' }],
      async run(rt) {
        for await (const _ of rt.events()) {
          const ints = await listAll(rt, Int);
          const odd = ints.filterLabelQuery(labelQuery(labelEqual('odd', 'yes')));
          // `spec.value` is a number here: the type flows from `Int`.
          const total = odd.map((i) => i.spec.value).reduce((x, y) => x + y, 0);
          const written = await modifyTyped(rt, Str, 'total', (d) => {
            d.spec.value = String(total);
          });
          seen.push(
            ints.length,
            odd.ids(),
            [...ints].map((i) => i.metadata.id),
            ints.get(1)?.spec.value,
            ints.find((i) => i.spec.value === 3)?.metadata.id,
            ints.pointers()[0],
            (await getById(rt, Int, 'b')).spec.value,
            await findById(rt, Int, 'zzz'),
            written.spec.value,
          );
        }
      },
    };
    await h.runtime.register(controller);
    await h.runtime.converge();
    expect(seen).toEqual([
      3,
      ['a', 'c'],
      ['a', 'b', 'c'],
      2,
      'c',
      Int.pointer('a'),
      2,
      undefined,
      '4',
    ]);
    expect((await h.state.get<{ value: string }>(Str.pointer('total'))).metadata.owner).toBe(
      'Typed',
    );
  });

  it("folds a list as an array folds (reduce, some, every, forEach): a newcomer's sum (review newuser54 #7)", async () => {
    h = createHarness();
    for (const [id, value] of [
      ['a', 1],
      ['b', 2],
      ['c', 3],
    ] as const) {
      await h.state.create(Int.create(id, { value }));
    }
    const seen: unknown[] = [];
    await h.runtime.register({
      name: 'Folds',
      inputs: [{ namespace: Int.namespace, type: Int.type, kind: 'weak' }],
      outputs: [],
      async run(rt) {
        for await (const _ of rt.events()) {
          const ints = await listAll(rt, Int);
          const visited: string[] = [];
          ints.forEach((i) => visited.push(i.metadata.id));
          seen.push(
            ints.reduce((sum, i) => sum + i.spec.value, 0),
            ints.reduce((ids, i) => `${ids}${i.metadata.id}`, ''),
            ints.some((i) => i.spec.value > 2),
            ints.every((i) => i.spec.value > 2),
            visited,
          );
        }
      },
    } satisfies Controller);
    await h.runtime.converge();
    expect(seen).toEqual([6, 'abc', true, false, ['a', 'b', 'c']]);
  });
});
