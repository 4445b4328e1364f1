import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createInMemoryState, isNotFound, type Pointer } from '../../../src/index.js';

// The in-memory state remembers the collection it found last, so that a run of writes to one
// kind does not look the kind up twice per call. These check that the memory never answers for
// another kind: the same type in another namespace, the same namespace with another type, and a
// kind that had no collection yet when it was asked for.

const KINDS = [
  { namespace: 'default', type: 'Notes.test.cosi.dev' },
  { namespace: 'other', type: 'Notes.test.cosi.dev' },
  { namespace: 'default', type: 'Tasks.test.cosi.dev' },
  { namespace: 'other', type: 'Tasks.test.cosi.dev' },
] as const;
const IDS = ['a', 'b'] as const;

const pointer = (kind: number, id: string): Pointer => ({ ...KINDS[kind]!, id });
const draft = (kind: number, id: string, value: number) => ({
  metadata: {
    ...pointer(kind, id),
    version: 0,
    generation: 0,
    owner: '',
    phase: 'running' as const,
    finalizers: [],
    labels: {},
    annotations: {},
    created: 0,
    updated: 0,
    ownerReferences: [],
  },
  spec: { value },
});

type Op =
  | { op: 'create' | 'modify'; kind: number; id: string; value: number }
  | { op: 'destroy' | 'get' | 'peek'; kind: number; id: string }
  | { op: 'list'; kind: number };

const kind = fc.integer({ min: 0, max: KINDS.length - 1 });
const id = fc.constantFrom(...IDS);
const value = fc.integer({ min: 0, max: 9 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constantFrom('create' as const, 'modify' as const), kind, id, value }),
  fc.record({ op: fc.constantFrom('destroy' as const, 'get' as const, 'peek' as const), kind, id }),
  fc.record({ op: fc.constant('list' as const), kind }),
);

describe('looking kinds up in the in-memory state', () => {
  it('answers every call for its own kind, however calls on different kinds interleave', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 60 }), async (ops) => {
        const state = createInMemoryState();
        // The model: each kind's resources, id to spec value.
        const model = KINDS.map(() => new Map<string, number>());
        for (const step of ops) {
          const items = model[step.kind]!;
          switch (step.op) {
            case 'create': {
              const created = await state.create(draft(step.kind, step.id, step.value)).then(
                () => true,
                () => false,
              );
              expect(created).toBe(!items.has(step.id));
              if (created) items.set(step.id, step.value);
              break;
            }
            case 'modify': {
              const stored = await state.modifyWithResult(
                draft(step.kind, step.id, 0),
                (d: { spec: { value: number } }) => {
                  d.spec.value = step.value;
                },
              );
              expect(stored.metadata).toMatchObject(KINDS[step.kind]!);
              items.set(step.id, step.value);
              break;
            }
            case 'destroy': {
              const destroyed = await state.destroy(pointer(step.kind, step.id)).then(
                () => true,
                (error: unknown) => {
                  expect(isNotFound(error)).toBe(true);
                  return false;
                },
              );
              expect(destroyed).toBe(items.delete(step.id));
              break;
            }
            case 'get': {
              const found = await state.get(pointer(step.kind, step.id)).then(
                (r) => (r.spec as { value: number }).value,
                () => undefined,
              );
              expect(found).toBe(items.get(step.id));
              break;
            }
            case 'peek':
              expect(state.peekVersion(pointer(step.kind, step.id)) > 0).toBe(items.has(step.id));
              break;
            case 'list': {
              const listed = await state.list(KINDS[step.kind]!);
              expect(
                listed.map((r) => [r.metadata.id, (r.spec as { value: number }).value]),
              ).toEqual([...items].sort(([x], [y]) => (x < y ? -1 : 1)));
              break;
            }
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('finds a kind created after it was first asked for, and was empty then', async () => {
    const state = createInMemoryState();
    expect(await state.list(KINDS[1])).toEqual([]);
    expect(state.peekVersion(pointer(1, 'a'))).toBe(0);
    // The same type in the other namespace is created and read in between.
    await state.create(draft(0, 'a', 1));
    expect(state.peekVersion(pointer(0, 'a'))).toBe(1);
    await state.create(draft(1, 'a', 2));
    const found = await state.get(pointer(1, 'a'));
    expect(found.spec).toEqual({ value: 2 });
    expect((await state.list(KINDS[0])).map((r) => r.spec)).toEqual([{ value: 1 }]);
  });
});
