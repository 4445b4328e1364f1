import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdOrder, MERGES_BEFORE_REBUILD } from '../../../src/engine/state/id-order.js';
import { compareStrings } from '../../../src/engine/compare-strings.js';

interface Item {
  readonly id: string;
  readonly value: number;
}

/** A map of ids as the state keeps it, with its IdOrder told of every change. */
class Kind {
  items = new Map<string, Item>();
  readonly order = new IdOrder();
  /** How the last list came: from the map (in order, perhaps rebuilt) or merged. */
  lastList: 'map' | 'merged' | undefined;

  create(id: string, value = 0): void {
    if (this.items.has(id)) return;
    this.items.set(id, { id, value });
    this.order.added(id);
  }

  update(id: string, value: number): void {
    if (this.items.has(id)) this.items.set(id, { id, value });
  }

  destroy(id: string): void {
    if (!this.items.delete(id)) return;
    this.order.removed(id);
  }

  /** What a list returns: the map's values (rebuilt sorted if need be), or a merged array. */
  listItems(): Item[] {
    const sorted = this.order.sorted(this.items);
    if (sorted instanceof Map) {
      this.items = sorted;
      this.lastList = 'map';
      return [...sorted.values()];
    }
    this.lastList = 'merged';
    return sorted;
  }

  list(): string[] {
    return this.listItems().map((item) => item.id);
  }
}

const sorted = (ids: Iterable<string>): string[] => [...ids].sort(compareStrings);

describe("the order of a kind's list", () => {
  it('is sorted after any mix of creates, updates, destroys and lists, and so is the map', () => {
    const id = fc.string({ maxLength: 3 });
    const op = fc.oneof(
      {
        arbitrary: fc.record({ op: fc.constant('create' as const), id, value: fc.nat(9) }),
        weight: 3,
      },
      fc.record({ op: fc.constant('update' as const), id, value: fc.nat(9) }),
      fc.record({ op: fc.constant('destroy' as const), id }),
      fc.record({ op: fc.constant('list' as const) }),
    );
    fc.assert(
      // A kind created in order first, so that a few creates out of order are few of its ids.
      fc.property(
        fc.uniqueArray(id, { maxLength: 60 }),
        fc.array(op, { maxLength: 150 }),
        (initial, ops) => {
          const kind = new Kind();
          const model = new Map<string, number>();
          for (const first of sorted(initial)) {
            kind.create(first);
            model.set(first, 0);
          }
          const expected = (): Item[] =>
            sorted(model.keys()).map((k) => ({ id: k, value: model.get(k) as number }));
          const check = (): void => {
            expect(kind.listItems()).toEqual(expected());
            // A map handed back is in sorted order and holds what the model holds.
            if (kind.lastList === 'map') expect([...kind.items.values()]).toEqual(expected());
          };
          for (const step of ops) {
            if (step.op === 'create') {
              kind.create(step.id, step.value);
              if (!model.has(step.id)) model.set(step.id, step.value);
            } else if (step.op === 'update') {
              kind.update(step.id, step.value);
              if (model.has(step.id)) model.set(step.id, step.value);
            } else if (step.op === 'destroy') {
              kind.destroy(step.id);
              model.delete(step.id);
            } else check();
          }
          check();
          // Listed again and again, the map is rebuilt sorted, and kept as it is.
          for (let i = 0; i < MERGES_BEFORE_REBUILD; i++) check();
          expect(kind.lastList).toBe('map');
          expect([...kind.items.values()]).toEqual(expected());
          expect(kind.order.sorted(kind.items)).toBe(kind.items);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps the same map while ids arrive in order, destroys and updates included', () => {
    const kind = new Kind();
    const { items } = kind;
    for (const id of ['a', 'b', 'c', 'd']) kind.create(id);
    kind.destroy('b');
    kind.update('a', 1);
    kind.create('e');
    expect(kind.list()).toEqual(['a', 'c', 'd', 'e']);
    expect(kind.items).toBe(items);
  });

  it('rebuilds the map sorted after a few lists once an id arrives out of order, and keeps it after', () => {
    const kind = new Kind();
    for (const id of ['b', 'd']) kind.create(id, 1);
    kind.create('a', 2);
    const before = kind.items;
    for (let i = 0; i < MERGES_BEFORE_REBUILD; i++) {
      expect(kind.list()).toEqual(['a', 'b', 'd']);
      expect(kind.items).toBe(before);
    }
    expect(kind.list()).toEqual(['a', 'b', 'd']);
    const rebuilt = kind.items;
    expect(rebuilt).not.toBe(before);
    expect([...rebuilt.values()]).toEqual([
      { id: 'a', value: 2 },
      { id: 'b', value: 1 },
      { id: 'd', value: 1 },
    ]);
    // In order again: the rebuilt map is kept.
    kind.create('e');
    kind.update('b', 3);
    kind.destroy('d');
    expect(kind.list()).toEqual(['a', 'b', 'e']);
    expect(kind.items).toBe(rebuilt);
    // Out of order again, and a created id destroyed and created again before the list.
    kind.create('c');
    kind.destroy('c');
    kind.destroy('a');
    kind.create('a', 4);
    kind.create('f');
    expect(kind.list()).toEqual(['a', 'b', 'e', 'f']);
    for (let i = 0; i < MERGES_BEFORE_REBUILD; i++) kind.list();
    expect(kind.lastList).toBe('map');
    expect([...kind.items.values()].map((item) => item.value)).toEqual([4, 3, 0, 0]);
  });

  it('rebuilds a map whose every id arrived out of order', () => {
    const kind = new Kind();
    kind.create('m');
    kind.destroy('m');
    // 'm' stays the greatest id seen: every create below is out of order.
    for (const id of ['c', 'a', 'b']) kind.create(id);
    expect(kind.list()).toEqual(['a', 'b', 'c']);
    kind.create('d');
    expect(kind.list()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('merges a few ids out of order into a list, and rebuilds the map after a few lists', () => {
    const kind = new Kind();
    const ids = Array.from({ length: 40 }, (_, i) => `id-${String(i * 2).padStart(2, '0')}`);
    for (const id of ids) kind.create(id);
    const { items } = kind;
    kind.create('id-13');
    const expected = sorted([...ids, 'id-13']);
    for (let i = 0; i < MERGES_BEFORE_REBUILD; i++) {
      expect(kind.list()).toEqual(expected);
      expect(kind.lastList).toBe('merged');
      expect(kind.items).toBe(items);
    }
    expect(kind.list()).toEqual(expected);
    expect(kind.lastList).toBe('map');
    expect(kind.items).not.toBe(items);
    expect([...kind.items.keys()]).toEqual(expected);
  });

  it('rebuilds after a few lists even when every list follows a create out of order', () => {
    const kind = new Kind();
    for (let i = 0; i < 40; i++) kind.create(`id-${String(i * 2).padStart(2, '0')}`);
    const lists: (typeof kind.lastList)[] = [];
    for (let i = 0; i <= MERGES_BEFORE_REBUILD; i++) {
      kind.create(`id-${String(i * 2 + 1).padStart(2, '0')}`);
      expect(kind.list()).toEqual(sorted(kind.items.keys()));
      lists.push(kind.lastList);
    }
    expect(lists).toEqual([...Array<string>(MERGES_BEFORE_REBUILD).fill('merged'), 'map']);
    expect([...kind.items.keys()]).toEqual(sorted(kind.items.keys()));
  });

  it('merges even when most ids are out of order: a kind listed once never pays for a rebuild', () => {
    const kind = new Kind();
    for (const id of ['e', 'f', 'g', 'h', 'a', 'b', 'c', 'd']) kind.create(id);
    const { items } = kind;
    const lists: (typeof kind.lastList)[] = [];
    for (let i = 0; i <= MERGES_BEFORE_REBUILD; i++) {
      expect(kind.list()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
      lists.push(kind.lastList);
    }
    expect(lists).toEqual([...Array<string>(MERGES_BEFORE_REBUILD).fill('merged'), 'map']);
    expect(kind.items).not.toBe(items);
    expect([...kind.items.keys()]).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  });
});
