import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { diffAgainstState } from '../../src/app/state-diff.js';
import { pointerKey } from '../../src/engine/resource/pointer.js';
import { newResource, type Resource } from '../../src/engine/resource/resource.js';
import { createInMemoryState } from '../../src/engine/state/in-memory-state.js';
import { takeSnapshot } from '../../src/engine/state/state-snapshot.js';
import { formatChangeDiff } from '../../src/cli/render/resource-diff.js';

const vm = (id: string, spec: unknown, labels: Record<string, string> = {}) =>
  newResource({ namespace: 'default', type: 'VMs.example.org', id }, spec, { labels });

/** A state holding manifests (no owner) and a controller's output, as `cosi run` leaves it. */
async function liveState(): Promise<readonly Resource[]> {
  const state = createInMemoryState();
  await state.create(vm('same', { cpus: 1 }, { tier: 'web' }));
  await state.create(vm('spec-edit', { cpus: 1 }));
  await state.create(vm('label-edit', { cpus: 1 }, { tier: 'web' }));
  await state.create(vm('gone', { cpus: 1 }));
  await state.create(vm('leaving', { cpus: 1 }));
  await state.addFinalizer(vm('leaving', {}).metadata, 'someone');
  await state.teardown(vm('leaving', {}).metadata);
  await state.create(
    newResource({ namespace: 'default', type: 'Placements.example.org', id: 'p' }, {}),
    { owner: 'placement' },
  );
  return (await takeSnapshot(state)).resources;
}

describe('diffAgainstState', () => {
  it('lists creates, spec and label changes and removed manifests; never unchanged ones, outputs or what is tearing down', async () => {
    const live = await liveState();
    const changes = diffAgainstState(
      [
        vm('same', { cpus: 1 }, { tier: 'web' }),
        vm('spec-edit', { cpus: 2 }),
        vm('label-edit', { cpus: 1 }, { tier: 'db' }),
        vm('new', { cpus: 3 }),
      ],
      live,
    );
    expect(changes.map((c) => [c.action, c.id])).toEqual([
      ['remove', 'gone'],
      ['change', 'label-edit'],
      ['create', 'new'],
      ['change', 'spec-edit'],
    ]);
    const specEdit = changes.find((c) => c.id === 'spec-edit');
    expect(specEdit?.live?.spec).toEqual({ cpus: 1 });
    expect(specEdit?.desired?.spec).toEqual({ cpus: 2 });
  });

  it('no manifests removes every manifest resource, and nothing else', async () => {
    const changes = diffAgainstState([], await liveState());
    expect(changes.map((c) => c.id)).toEqual(['gone', 'label-edit', 'same', 'spec-edit']);
    expect(changes.every((c) => c.action === 'remove')).toBe(true);
  });

  it('with removes: false, lists creates and changes only', async () => {
    const changes = diffAgainstState([vm('spec-edit', { cpus: 2 })], await liveState(), {
      removes: false,
    });
    expect(changes.map((c) => [c.action, c.id])).toEqual([['change', 'spec-edit']]);
  });

  it("shows an owner reference the last run's manifest named and this one dropped as removed, and keeps a controller's", async () => {
    const state = createInMemoryState();
    const owned = (...ids: string[]) =>
      newResource(
        { namespace: 'default', type: 'VMs.example.org', id: 'web' },
        { cpus: 1 },
        {
          ownerReferences: ids.map((id) => ({ type: 'Hosts.example.org', id })),
        },
      );
    await state.create(owned('node-a', 'by-controller'));
    const live = (await takeSnapshot(state)).resources;
    const key = pointerKey(owned().metadata);
    const recorded = { labels: {}, annotations: {} };
    // Not recorded (an applied set of an earlier version): a new run keeps both, no change.
    expect(diffAgainstState([owned()], live, { lastApplied: () => undefined })).toEqual([]);
    // The last run's manifest named node-a: it goes; the controller's stays.
    const [change] = diffAgainstState([owned()], live, {
      lastApplied: (k) =>
        k === key
          ? { ...recorded, ownerReferences: [{ type: 'Hosts.example.org', id: 'node-a' }] }
          : undefined,
    });
    expect(change).toMatchObject({
      action: 'change',
      live: {
        metadata: {
          ownerReferences: [
            { type: 'Hosts.example.org', id: 'node-a' },
            { type: 'Hosts.example.org', id: 'by-controller' },
          ],
        },
      },
      desired: {
        metadata: { ownerReferences: [{ type: 'Hosts.example.org', id: 'by-controller' }] },
      },
    });
  });
});

describe('formatChangeDiff', () => {
  const plain = new Chalk({ level: 0 });

  it('prints a unified diff of the YAML with context, control characters escaped', async () => {
    const [change] = diffAgainstState(
      [vm('spec-edit', { cpus: 2, note: 'a\u001b[2Jb' })],
      (await liveState()).filter((r) => r.metadata.id === 'spec-edit'),
    );
    expect(change).toBeDefined();
    const text = formatChangeDiff(change!, plain);
    expect(text).not.toContain('\u001b');
    expect(text.split('\n').slice(0, 4)).toEqual([
      'diff -u -N live/VMs.example.org/default/spec-edit desired/VMs.example.org/default/spec-edit',
      '--- live/VMs.example.org/default/spec-edit',
      '+++ desired/VMs.example.org/default/spec-edit',
      '@@ -3,4 +3,5 @@',
    ]);
    expect(text).toContain('\n-  cpus: 1\n+  cpus: 2\n+  note: ');
  });

  it('quotes a string a YAML 1.1 reader (kubectl) takes for something else, as cosi get -o yaml does', async () => {
    const state = createInMemoryState();
    await state.create(vm('web', { cpus: 1, power: 'no' }));
    const live = (await takeSnapshot(state)).resources;
    const desired = newResource(
      { namespace: 'default', type: 'VMs.example.org', id: 'web' },
      { cpus: 1, power: 'on' },
      { annotations: { keep: 'yes' } },
    );
    const [change] = diffAgainstState([desired], live);
    const text = formatChangeDiff(change!, plain);
    expect(text).toContain('\n+  annotations:\n+    keep: "yes"\n');
    expect(text).toContain('\n-  power: "no"\n+  power: "on"\n');
  });

  it("shows no change for what a controller added that the manifest never set (labels, a Kubernetes kind's status)", async () => {
    const state = createInMemoryState();
    const instance = (spec: unknown, labels: Record<string, string> = {}) =>
      newResource({ namespace: 'default', type: 'WebApps.kro.run', id: 'shop' }, spec, { labels });
    await state.create(
      instance({ spec: { port: 80 }, status: { state: 'ACTIVE' } }, { 'kro.run/owned': 'true' }),
    );
    const live = (await takeSnapshot(state)).resources;
    const keptSpecFields = (type: string) => (type === 'WebApps.kro.run' ? ['status'] : []);
    expect(diffAgainstState([instance({ spec: { port: 80 } })], live, { keptSpecFields })).toEqual(
      [],
    );
    // A real edit is shown, over what the controller added.
    const [change] = diffAgainstState([instance({ spec: { port: 81 } })], live, { keptSpecFields });
    expect(change?.action).toBe('change');
    expect(change?.desired).toMatchObject({
      metadata: { labels: { 'kro.run/owned': 'true' } },
      spec: { spec: { port: 81 }, status: { state: 'ACTIVE' } },
    });
  });
});
