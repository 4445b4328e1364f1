import { describe, expect, it } from 'vitest';
import { DefinitionRegistry } from '../../src/engine/resource/definition-registry.js';
import { createDefinition } from '../../src/engine/resource/definition.js';
import { freezeResource, newResource } from '../../src/engine/resource/resource.js';
import { createInMemoryState } from '../../src/engine/state/in-memory-state.js';
import { SnapshotTracker } from '../../src/engine/state/snapshot-tracker.js';
import { SelectionChanges } from '../../src/app/selection-changes.js';

const registry = new DefinitionRegistry([
  createDefinition({ type: 'VMs.example.org' }),
  createDefinition({ type: 'Hosts.example.org' }),
]);
const project = { registry };
const vm = (id: string, cpus: number, labels: Record<string, string> = {}) =>
  freezeResource(
    newResource({ namespace: 'default', type: 'VMs.example.org', id }, { cpus }, { labels }),
  );
const ids = (changes: readonly { type: string; resource: { metadata: { id: string } } }[]) =>
  changes.map((c) => `${c.type} ${c.resource.metadata.id}`);

describe('the changes of a selection from one watch round to the next', () => {
  it('says what was added, modified and deleted among the selected types only', async () => {
    const state = createInMemoryState();
    await state.create(newResource({ namespace: 'default', type: 'VMs.example.org', id: 'a' }, {}));
    await state.create(newResource({ namespace: 'default', type: 'VMs.example.org', id: 'b' }, {}));
    const tracker = new SnapshotTracker(state);
    const changes = new SelectionChanges({ type: 'vm' });
    const first = changes.start({ project, snapshot: await tracker.take() });
    expect(first.flatMap((g) => g.resources.map((r) => r.metadata.id))).toEqual(['a', 'b']);
    const a = await state.get({ namespace: 'default', type: 'VMs.example.org', id: 'a' });
    await state.update({ ...a, spec: { cpus: 2 } });
    await state.destroy({ namespace: 'default', type: 'VMs.example.org', id: 'b' });
    await state.create(newResource({ namespace: 'default', type: 'VMs.example.org', id: 'c' }, {}));
    await state.create(
      newResource({ namespace: 'default', type: 'Hosts.example.org', id: 'h' }, {}),
    );
    const round = changes.round({ project, snapshot: await tracker.take() });
    expect(ids(round)).toEqual(['MODIFIED a', 'DELETED b', 'ADDED c']);
    expect(round[0]?.definition?.type).toBe('VMs.example.org');
    // Nothing changed: nothing to print.
    expect(changes.round({ project, snapshot: await tracker.take() })).toEqual([]);
    tracker.stop();
  });

  it('a resource whose labels start or stop matching the selector is added or deleted', () => {
    const changes = new SelectionChanges({ type: 'vm', selector: (l) => l.tier === 'web' });
    const from = { project, snapshot: { resources: [], definitions: [] } };
    changes.start(from);
    const [before, after] = [vm('a', 1, { tier: 'db' }), vm('a', 1, { tier: 'web' })];
    expect(changes.change(from, undefined, before)).toBeUndefined();
    expect(changes.change(from, before, after)?.type).toBe('ADDED');
    expect(changes.change(from, after, before)?.type).toBe('DELETED');
  });

  it('after a restart on a fresh state, only what differs but for its timestamps', () => {
    const changes = new SelectionChanges({ type: 'vm' });
    const stamped = (id: string, cpus: number, at: number) => {
      const r = vm(id, cpus);
      return { ...r, metadata: { ...r.metadata, version: 1, created: at, updated: at } };
    };
    changes.start({
      project,
      snapshot: { resources: [stamped('a', 1, 1), stamped('b', 1, 1)], definitions: [] },
    });
    // No list of changes (a new project): the whole selection is compared.
    const round = changes.round({
      project,
      snapshot: { resources: [stamped('a', 1, 99), stamped('b', 3, 99)], definitions: [] },
    });
    expect(ids(round)).toEqual(['MODIFIED b']);
  });
});
