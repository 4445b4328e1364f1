/**
 * The in-memory state's lists come back sorted by id whatever order the ids were written in, and
 * a kind created in random order is walked in its map's own order after the first list (no
 * lookup per id: at scale that lookup is a cache miss per resource).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createInMemoryState,
  labelEqual,
  labelQuery,
  newResource,
  type Pointer,
} from '../../../src/index.js';
import { compareStrings } from '../../../src/engine/compare-strings.js';
import { LOOKUPS_BELOW, MERGES_BEFORE_REBUILD } from '../../../src/engine/state/id-order.js';

interface Spec {
  value: number;
}

const KIND = { namespace: 'default', type: 'Shelves.test.cosi.dev' };
const ptr = (id: string): Pointer => ({ ...KIND, id });
const sorted = (ids: Iterable<string>): string[] => [...ids].sort(compareStrings);

afterEach(() => {
  vi.restoreAllMocks();
});

describe('in-memory list order', () => {
  it('is sorted by id after creates, updates and destroys in any order, lists between', async () => {
    const id = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g');
    const op = fc.oneof(
      fc.record({ op: fc.constant('create' as const), id, value: fc.nat(9) }),
      fc.record({ op: fc.constant('update' as const), id, value: fc.nat(9) }),
      fc.record({ op: fc.constant('destroy' as const), id }),
      fc.record({ op: fc.constant('list' as const), odd: fc.boolean() }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 60 }), async (ops) => {
        const state = createInMemoryState();
        const model = new Map<string, number>();
        // Created in order first: a few of the ids below out of order are merged into a list.
        for (let i = 0; i < 40; i++) {
          const first = `m${String(i).padStart(2, '0')}`;
          const draft = newResource<Spec>(ptr(first), { value: 0 });
          draft.metadata.labels = { odd: 'false' };
          await state.create(draft);
          model.set(first, 0);
        }
        const check = async (odd: boolean): Promise<void> => {
          const all = await state.list<Spec>(KIND);
          expect(all.map((r) => [r.metadata.id, r.spec.value])).toEqual(
            sorted(model.keys()).map((k) => [k, model.get(k)]),
          );
          // A filtered list that matches most of the kind walks it in order too.
          const filtered = await state.list<Spec>(KIND, {
            labelQueries: [labelQuery(labelEqual('odd', String(odd)))],
          });
          expect(filtered.map((r) => r.metadata.id)).toEqual(
            sorted(model.keys()).filter((k) => (model.get(k)! % 2 === 1) === odd),
          );
        };
        for (const step of ops) {
          if (step.op === 'list') {
            await check(step.odd);
            continue;
          }
          const exists = model.has(step.id);
          if (step.op === 'create' && !exists) {
            const draft = newResource<Spec>(ptr(step.id), { value: step.value });
            draft.metadata.labels = { odd: String(step.value % 2 === 1) };
            await state.create(draft);
            model.set(step.id, step.value);
          } else if (step.op === 'update' && exists) {
            await state.updateWithConflicts<Spec>(ptr(step.id), (draft) => {
              draft.spec.value = step.value;
              draft.metadata.labels = { odd: String(step.value % 2 === 1) };
            });
            model.set(step.id, step.value);
          } else if (step.op === 'destroy' && exists) {
            await state.destroy(ptr(step.id));
            model.delete(step.id);
          }
        }
        await check(true);
      }),
      { numRuns: 200 },
    );
  });

  it('looks up no id in a list after the first, once random creates are sorted in', async () => {
    const state = createInMemoryState();
    const ids = Array.from({ length: 200 }, (_, i) => `shelf-${String((i * 7919) % 200)}`);
    for (const id of ids) await state.create(newResource<Spec>(ptr(id), { value: 0 }));
    const first = await state.list(KIND);
    expect(first.map((r) => r.metadata.id)).toEqual(sorted(ids));
    // Updates and destroys keep the order; so does a create after the greatest id.
    await state.updateWithConflicts<Spec>(ptr(ids[5]!), (draft) => {
      draft.spec.value = 1;
    });
    await state.destroy(ptr(ids[7]!));
    await state.create(newResource<Spec>(ptr('shelf-999'), { value: 0 }));

    const get = vi.spyOn(Map.prototype, 'get');
    const second = await state.list(KIND);
    // The kind's collection is looked up by type and namespace; no resource by its id.
    const byId = get.mock.calls.filter(
      ([key]) => typeof key === 'string' && key.startsWith('shelf-'),
    );
    expect(byId).toEqual([]);
    expect(second.map((r) => r.metadata.id)).toEqual(
      sorted([...ids.filter((id) => id !== ids[7]), 'shelf-999']),
    );
  });

  it('looks up only the few ids created out of order, until a list sorts them in', async () => {
    const state = createInMemoryState();
    for (let i = 0; i < 100; i++) {
      await state.create(
        newResource<Spec>(ptr(`shelf-${String(i * 2).padStart(3, '0')}`), { value: 0 }),
      );
    }
    await state.create(newResource<Spec>(ptr('shelf-101'), { value: 0 }));
    await state.create(newResource<Spec>(ptr('shelf-007'), { value: 0 }));
    const get = vi.spyOn(Map.prototype, 'get');
    const lookups: number[] = [];
    for (let i = 0; i <= MERGES_BEFORE_REBUILD + 1; i++) {
      get.mockClear();
      const listed = (await state.list(KIND)).map((r) => r.metadata.id);
      expect(listed).toEqual(sorted(listed));
      expect(listed).toHaveLength(102);
      lookups.push(get.mock.calls.filter(([key]) => String(key).startsWith('shelf-')).length);
    }
    // Merged: the two looked up in each list; rebuilt: both looked up once more; then none.
    expect(lookups).toEqual([...Array<number>(MERGES_BEFORE_REBUILD).fill(2), 2, 0]);
  });

  it('reads a large out-of-order tail as the map iterates, without a lookup per id', async () => {
    const state = createInMemoryState();
    // `shelf-0`, `shelf-1`, ..., `shelf-10` sorts before `shelf-2`: nearly all out of order.
    const n = LOOKUPS_BELOW * 20;
    for (let i = 0; i < n; i++) {
      await state.create(newResource<Spec>(ptr(`shelf-${i}`), { value: i }));
    }
    const get = vi.spyOn(Map.prototype, 'get');
    const listed = await state.list<Spec>(KIND);
    const byId = get.mock.calls.filter(([key]) => String(key).startsWith('shelf-'));
    expect(byId).toEqual([]);
    expect(listed.map((r) => r.metadata.id)).toEqual(
      sorted(Array.from({ length: n }, (_, i) => `shelf-${i}`)),
    );
    expect(listed.map((r) => r.spec.value)).toEqual(
      listed.map((r) => Number(r.metadata.id.slice('shelf-'.length))),
    );
  });
});
