import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Resource } from '../../../src/engine/resource/resource.js';
import { findInSnapshot, typeRange } from '../../../src/engine/state/state-snapshot.js';
import { compareResources } from '../../../src/engine/state/snapshot-tracker.js';

const resource = ([type, namespace, id]: [string, string, string]): Resource =>
  ({ metadata: { type, namespace, id } }) as Resource;

/** Resources of a few types, namespaces and ids, sorted as a snapshot holds them. */
const snapshotResources = fc
  .uniqueArray(
    fc.tuple(fc.constantFrom('A', 'B', 'Bb', 'c'), fc.constantFrom('', 'x', 'y'), fc.string()),
    { selector: (t) => t.join('\0'), maxLength: 30 },
  )
  .map((tuples) => tuples.map(resource).sort(compareResources));

describe("a snapshot's resources, found by binary search", () => {
  it('typeRange holds exactly the resources of the type, in order', () => {
    fc.assert(
      fc.property(snapshotResources, fc.constantFrom('A', 'B', 'Bb', 'c', 'Z', ''), (all, type) => {
        const { start, end } = typeRange(all, type);
        expect(all.slice(start, end)).toEqual(all.filter((r) => r.metadata.type === type));
      }),
    );
  });

  it('findInSnapshot finds the resource at a pointer, and nothing where there is none', () => {
    fc.assert(
      fc.property(
        snapshotResources,
        fc.tuple(fc.constantFrom('A', 'B', 'Z'), fc.constantFrom('', 'x'), fc.string()),
        (all, [type, namespace, id]) => {
          for (const r of all) expect(findInSnapshot(all, r.metadata)).toBe(r);
          const pointer = { type, namespace, id };
          expect(findInSnapshot(all, pointer)).toBe(
            all.find(
              (r) =>
                r.metadata.type === type &&
                r.metadata.namespace === namespace &&
                r.metadata.id === id,
            ),
          );
        },
      ),
    );
  });
});
