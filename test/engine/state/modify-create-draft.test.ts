/**
 * What `modify` hands its updater when it creates: `empty`'s own metadata and a copy of its spec
 * (see `draftOfEmpty`), and what it keeps of them: nothing. The caller's draft stays a writable
 * draft, and data it shares with stored resources is never written through.
 */
import { describe, expect, it } from 'vitest';
import { createInMemoryState, defineResource, type Draft } from '../../../src/index.js';

interface Spec {
  value: string;
  nested: { list: string[] };
}
const Item = defineResource<Spec>({
  type: 'Items.test.cosi.dev',
  defaultSpec: () => ({ value: '', nested: { list: [] } }),
});

describe('modify creating a resource', () => {
  it('fills the caller metadata but stores its own frozen copy, unstamped on the caller side', async () => {
    const state = createInMemoryState({ now: () => 42 });
    const empty = Item.create('a');
    const stored = await state.modifyWithResult(
      empty,
      (draft) => {
        expect(draft.metadata).toBe(empty.metadata);
        draft.metadata.labels.tier = 'web';
        draft.spec.value = 'one';
      },
      { owner: 'Writer' },
    );
    expect(stored.metadata).toMatchObject({
      version: 1,
      owner: 'Writer',
      created: 42,
      labels: { tier: 'web' },
    });
    expect(Object.isFrozen(stored.metadata)).toBe(true);
    expect(Object.isFrozen(stored.metadata.labels)).toBe(true);
    expect(Object.isFrozen(stored.spec.nested.list)).toBe(true);
    // The caller's draft is still a draft: nothing stamped, nothing frozen, its spec untouched.
    expect(stored.metadata).not.toBe(empty.metadata);
    expect(empty.metadata).toMatchObject({ version: 0, owner: '', created: 0 });
    expect(Object.isFrozen(empty.metadata)).toBe(false);
    expect(Object.isFrozen(empty.metadata.labels)).toBe(false);
    expect(empty.spec.value).toBe('');
    empty.metadata.labels.tier = 'db';
    expect((await state.get(Item.pointer('a'))).metadata.labels).toEqual({ tier: 'web' });
  });

  it('copies a spec that shares frozen data with a stored resource before the updater writes it', async () => {
    const state = createInMemoryState();
    const source = await state.create(
      Item.create('source', { value: 's', nested: { list: ['x'] } }),
    );
    // A shallow copy: `nested` is the stored resource's frozen object.
    const empty = Item.create('copy', { ...source.spec } as Spec);
    const stored = await state.modifyWithResult(empty, (draft) => {
      draft.spec.nested.list.push('y');
    });
    expect(stored.spec.nested.list).toEqual(['x', 'y']);
    expect((await state.get<Spec>(Item.pointer('source'))).spec.nested.list).toEqual(['x']);
  });

  it('copies metadata frozen anywhere before the updater writes it', async () => {
    const state = createInMemoryState();
    const source = await state.create(Item.create('source', undefined, { labels: { a: '1' } }));
    const drafts: Draft<Spec>[] = [
      // A stored resource as the empty: frozen throughout.
      source as unknown as Draft<Spec>,
      // Hand-built from a stored resource's metadata: frozen labels inside a fresh object.
      { metadata: { ...source.metadata, id: 'built' }, spec: Item.create('x').spec } as Draft<Spec>,
    ];
    await state.destroy(Item.pointer('source'));
    for (const empty of drafts) {
      const stored = await state.modifyWithResult(empty, (draft) => {
        draft.metadata.labels.b = '2';
      });
      expect(stored.metadata.labels).toEqual({ a: '1', b: '2' });
      expect(stored.metadata.version).toBe(1);
    }
    expect(source.metadata.labels).toEqual({ a: '1' });
  });

  it("copies metadata holding a stored resource's empty collection before the updater fills it", async () => {
    const state = createInMemoryState();
    const bare = (await state.create(Item.create('bare'))).metadata;
    // Empty but frozen: each is the one every stored resource without entries shares.
    const fills: Record<string, (md: Draft<Spec>['metadata']) => void> = {
      finalizers: (md) => md.finalizers.push('f'),
      labels: (md) => (md.labels.l = '1'),
      annotations: (md) => (md.annotations.a = '2'),
      ownerReferences: (md) =>
        md.ownerReferences.push({ type: 'Owners.test', id: 'o', controller: false }),
    };
    for (const [field, fill] of Object.entries(fills)) {
      const empty = Item.create(`with-${field}`);
      Object.assign(empty.metadata, { [field]: bare[field as keyof typeof bare] });
      const stored = await state.modifyWithResult(empty, (draft) => fill(draft.metadata));
      expect(stored.metadata[field as keyof typeof bare]).not.toEqual(
        bare[field as keyof typeof bare],
      );
    }
    expect(bare).toMatchObject({
      finalizers: [],
      labels: {},
      annotations: {},
      ownerReferences: [],
    });
  });
});
