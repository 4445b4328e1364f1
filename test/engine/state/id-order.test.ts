import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IdOrder } from '../../../src/engine/state/id-order.js';
import { compareStrings } from '../../../src/engine/compare-strings.js';

/** A map of ids as the state keeps it, with its IdOrder told of every change. */
class Kind {
  readonly items = new Map<string, true>();
  readonly order = new IdOrder();

  create(id: string): void {
    if (this.items.has(id)) return;
    this.items.set(id, true);
    this.order.added(id);
  }

  destroy(id: string): void {
    if (!this.items.delete(id)) return;
    this.order.removed(id);
  }

  /** What a list returns, by either path. */
  list(): string[] {
    return [...(this.order.sortedIds(this.items.keys()) ?? this.items.keys())];
  }
}

const sorted = (ids: Iterable<string>): string[] => [...ids].sort(compareStrings);

describe("the order of a kind's list", () => {
  it('is sorted after any mix of creates, destroys and lists', () => {
    const op = fc.oneof(
      fc.record({ op: fc.constant('create' as const), id: fc.string({ maxLength: 3 }) }),
      fc.record({ op: fc.constant('destroy' as const), id: fc.string({ maxLength: 3 }) }),
      fc.record({ op: fc.constant('list' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 120 }), (ops) => {
        const kind = new Kind();
        for (const step of ops) {
          if (step.op === 'create') kind.create(step.id);
          else if (step.op === 'destroy') kind.destroy(step.id);
          else expect(kind.list()).toEqual(sorted(kind.items.keys()));
        }
        expect(kind.list()).toEqual(sorted(kind.items.keys()));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps no array while ids arrive in order, destroys included', () => {
    const kind = new Kind();
    for (const id of ['a', 'b', 'c', 'd']) kind.create(id);
    kind.destroy('b');
    kind.create('e');
    expect(kind.order.sortedIds(kind.items.keys())).toBeUndefined();
    expect(kind.list()).toEqual(['a', 'c', 'd', 'e']);
  });

  it('sorts once an id arrives out of order, and keeps it sorted after', () => {
    const kind = new Kind();
    for (const id of ['b', 'd']) kind.create(id);
    kind.create('a');
    expect(kind.order.sortedIds(kind.items.keys())).toEqual(['a', 'b', 'd']);
    kind.create('c');
    kind.destroy('d');
    kind.create('d');
    kind.destroy('a');
    kind.create('e');
    expect(kind.list()).toEqual(['b', 'c', 'd', 'e']);
  });
});
