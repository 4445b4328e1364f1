import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdOrder } from '../../../src/engine/state/id-order.js';
import { compareStrings } from '../../../src/engine/compare-strings.js';

/** A map of ids as the state keeps it, with its IdOrder told of every change. */
class Kind {
  items = new Map<string, number>();
  readonly order = new IdOrder();

  create(id: string, value = 0): void {
    if (this.items.has(id)) return;
    this.items.set(id, value);
    this.order.added(id);
  }

  update(id: string, value: number): void {
    if (this.items.has(id)) this.items.set(id, value);
  }

  destroy(id: string): void {
    if (!this.items.delete(id)) return;
    this.order.removed(id);
  }

  /** What a list returns: the map, rebuilt sorted if it was not, walked in its own order. */
  list(): string[] {
    this.items = this.order.sorted(this.items);
    return [...this.items.keys()];
  }
}

const sorted = (ids: Iterable<string>): string[] => [...ids].sort(compareStrings);

describe("the order of a kind's list", () => {
  it('is sorted after any mix of creates, updates, destroys and lists, and so is the map', () => {
    const id = fc.string({ maxLength: 3 });
    const op = fc.oneof(
      fc.record({ op: fc.constant('create' as const), id, value: fc.nat(9) }),
      fc.record({ op: fc.constant('update' as const), id, value: fc.nat(9) }),
      fc.record({ op: fc.constant('destroy' as const), id }),
      fc.record({ op: fc.constant('list' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const kind = new Kind();
        const model = new Map<string, number>();
        const check = (): void => {
          expect(kind.list()).toEqual(sorted(model.keys()));
          // The rebuilt map holds what the model holds, in sorted order, and stays as it is.
          expect([...kind.items]).toEqual(sorted(model.keys()).map((k) => [k, model.get(k)]));
          expect(kind.order.sorted(kind.items)).toBe(kind.items);
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
      }),
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

  it('rebuilds the map sorted once an id arrives out of order, and keeps it after', () => {
    const kind = new Kind();
    for (const id of ['b', 'd']) kind.create(id, 1);
    kind.create('a', 2);
    const before = kind.items;
    expect(kind.list()).toEqual(['a', 'b', 'd']);
    const rebuilt = kind.items;
    expect(rebuilt).not.toBe(before);
    expect([...rebuilt]).toEqual([
      ['a', 2],
      ['b', 1],
      ['d', 1],
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
    expect([...kind.items.values()]).toEqual([4, 3, 0, 0]);
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
});
