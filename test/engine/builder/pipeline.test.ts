import { afterEach, describe, expect, it } from 'vitest';
import { controllerManagedBy } from '../../../src/engine/builder/builder.js';
import { enqueueRequestsFromMapFunc } from '../../../src/engine/builder/handlers.js';
import { setControllerReference } from '../../../src/engine/builder/owner-references.js';
import {
  newPredicateFuncs,
  predicateFuncs,
  specChanged,
  type Predicate,
} from '../../../src/engine/builder/predicates.js';
import type { ReconcileFunc } from '../../../src/engine/builder/reconciler.js';
import { channelSource } from '../../../src/engine/builder/source.js';
import { Config, createHarness, Disk, recorder, VM, type Harness } from './fixtures.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

/** Drops everything labelled `ignore: yes`. */
const notIgnored: Predicate = newPredicateFuncs((o) => o.metadata.labels.ignore !== 'yes');
const ignored = { labels: { ignore: 'yes' } };

const configToVMs = enqueueRequestsFromMapFunc((config: ReturnType<typeof Config.create>) =>
  config.spec.vms.map((id) => ({ namespace: config.metadata.namespace, id })),
);

/** Gives each VM a root disk and destroys the disk once the VM is gone. */
const rootDisks: ReconcileFunc = async ({ client }, request) => {
  const pointer = Disk.pointer(`${request.id}-root`, request.namespace);
  const vm = await client.find(VM.pointer(request.id, request.namespace));
  if (vm) {
    await client.modify(Disk.create(pointer.id), (disk) => setControllerReference(vm, disk));
  } else if (await client.find(pointer)) {
    await client.destroy(pointer);
  }
  return undefined;
};

describe('predicates before handlers', () => {
  it('cleans up the disk of a destroyed VM when deletes reach the reconciler', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    await controllerManagedBy(h.runtime).for(VM).owns(Disk).complete(rootDisks);
    await h.runtime.converge();
    await h.state.destroy(VM.pointer('web'));
    await h.runtime.converge();
    await expect(h.state.get(Disk.pointer('web-root'))).rejects.toMatchObject({
      code: 'not-found',
    });
  });

  it('suppresses the reconcile of a destroyed VM when a predicate drops deletes, leaving its disk behind', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, rootDisks);
    await controllerManagedBy(h.runtime)
      .for(VM, { predicates: [predicateFuncs({ delete: () => false })] })
      .owns(Disk)
      .complete(r);
    await h.runtime.converge();
    reset(r.calls);
    await h.state.destroy(VM.pointer('web'));
    await h.runtime.converge();
    expect(r.calls).toEqual([]);
    const orphan = await h.state.get(Disk.pointer('web-root'));
    expect(orphan.metadata.ownerReferences).toEqual([
      { type: VM.type, id: 'web', controller: true },
    ]);
  });

  it('never reconciles an existing object whose initial create a predicate drops', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h);
    await controllerManagedBy(h.runtime)
      .for(VM, { predicates: [predicateFuncs({ create: () => false })] })
      .complete(r);
    await h.runtime.converge();
    expect(r.calls).toEqual([]);
  });

  it('with specChanged, skips updates that touch only metadata', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).withEventFilter(specChanged).complete(r);
    await h.runtime.converge();
    reset(r.calls);
    await h.state.modify(VM.create('web'), (d) => {
      d.metadata.labels.tier = 'gold';
    });
    await h.runtime.converge();
    expect(r.calls).toEqual([]);
    await h.state.modify(VM.create('web'), (d) => {
      d.spec.cpus = 8;
    });
    await h.runtime.converge();
    expect(r.ids()).toEqual(['web']);
  });

  it('with specChanged, a finalizer holder sees the teardown and releases it', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const phases: string[] = [];
    await controllerManagedBy(h.runtime)
      .for(VM, { predicates: [specChanged] })
      .complete(async ({ client }, request) => {
        const pointer = VM.pointer(request.id, request.namespace);
        const vm = await client.find(pointer);
        if (!vm) return undefined;
        phases.push(vm.metadata.phase);
        if (vm.metadata.phase === 'tearingDown') await client.removeFinalizer(pointer, 'vm');
        else await client.addFinalizer(pointer, 'vm');
        return undefined;
      });
    await h.runtime.converge();
    expect(await h.state.teardown(VM.pointer('web'))).toBe(false);
    await h.runtime.converge();
    expect(phases).toContain('tearingDown');
    expect((await h.state.get(VM.pointer('web'))).metadata.finalizers).toEqual([]);
  });

  it("applies a watch's own predicates to that watch only", async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime)
      .for(VM)
      .owns(Disk, { predicates: [predicateFuncs({ create: () => false })] })
      .complete(r);
    await h.state.create(
      Disk.create('root', undefined, {
        ownerReferences: [{ type: VM.type, id: 'a', controller: true }],
      }),
    );
    await h.state.create(VM.create('b'));
    await h.runtime.converge();
    expect(r.ids()).toEqual(['b']);
  });

  it('runs the global predicates first, then the watch ones, stopping at the first refusal', async () => {
    h = createHarness();
    const order: string[] = [];
    const spy = (name: string, verdict: boolean): Predicate =>
      predicateFuncs({
        create: () => {
          order.push(name);
          return verdict;
        },
      });
    await controllerManagedBy(h.runtime)
      .for(VM, { predicates: [spy('local-1', true), spy('local-2', false), spy('local-3', true)] })
      .withEventFilter(spy('global-1', true))
      .withEventFilter(spy('global-2', true))
      .complete(() => undefined);
    await h.state.create(VM.create('web'));
    await h.runtime.converge();
    expect(order).toEqual(['global-1', 'global-2', 'local-1', 'local-2']);
  });
});

describe('withEventFilter', () => {
  it('filters the events of for', async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).withEventFilter(notIgnored).complete(r);
    await h.state.create(VM.create('hidden', undefined, ignored));
    await h.state.create(VM.create('seen'));
    await h.runtime.converge();
    expect(r.ids()).toEqual(['seen']);
  });

  it('filters the events of owns', async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).owns(Disk).withEventFilter(notIgnored).complete(r);
    const ref = (id: string) => [{ type: VM.type, id, controller: true }];
    await h.state.create(
      Disk.create('d1', undefined, { ...ignored, ownerReferences: ref('hidden') }),
    );
    await h.state.create(Disk.create('d2', undefined, { ownerReferences: ref('seen') }));
    await h.runtime.converge();
    expect(r.ids()).toEqual(['seen']);
  });

  it('filters the events of watches', async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime)
      .for(VM)
      .watches(Config, configToVMs)
      .withEventFilter(notIgnored)
      .complete(r);
    await h.state.create(Config.create('c1', { vms: ['hidden'] }, ignored));
    await h.state.create(Config.create('c2', { vms: ['seen'] }));
    await h.runtime.converge();
    expect(r.ids()).toEqual(['seen']);
  });

  it('does not filter the events of a raw source', async () => {
    h = createHarness();
    const r = recorder(h);
    const source = channelSource();
    await controllerManagedBy(h.runtime)
      .for(VM)
      .watchesRawSource(source)
      .withEventFilter(notIgnored)
      .complete(r);
    await h.runtime.start();
    source.send(VM.create('pushed', undefined, ignored));
    await h.runtime.converge();
    expect(r.ids()).toEqual(['pushed']);
  });
});

describe('raw sources', () => {
  it('reconciles what a channel source is sent once the controller runs', async () => {
    h = createHarness();
    const r = recorder(h);
    const source = channelSource();
    await controllerManagedBy(h.runtime).for(VM).watchesRawSource(source).complete(r);
    await h.runtime.start();
    source.send(VM.create('a'));
    source.send(VM.create('b'));
    await h.runtime.converge();
    expect(r.calls.map((c) => `${c.type}/${c.id}`)).toEqual([`${VM.type}/a`, `${VM.type}/b`]);
  });

  it('delivers what was sent before the controller started when it starts', async () => {
    h = createHarness();
    const r = recorder(h);
    const source = channelSource();
    source.send(VM.create('early'));
    await controllerManagedBy(h.runtime).for(VM).watchesRawSource(source).complete(r);
    expect(r.calls).toEqual([]);
    await h.runtime.converge();
    expect(r.ids()).toEqual(['early']);
  });

  it("applies the source's own predicates and handler", async () => {
    h = createHarness();
    const r = recorder(h);
    const source = channelSource<ReturnType<typeof Config.create>>({
      predicates: [notIgnored],
      handler: configToVMs,
    });
    await controllerManagedBy(h.runtime).for(VM).watchesRawSource(source).complete(r);
    await h.runtime.start();
    source.send(Config.create('c1', { vms: ['hidden'] }, ignored));
    source.send(Config.create('c2', { vms: ['x', 'y'] }));
    await h.runtime.converge();
    expect(r.ids()).toEqual(['x', 'y']);
  });

  it('drives a controller without for or any other watch', async () => {
    h = createHarness();
    const r = recorder(h);
    const source = channelSource();
    await controllerManagedBy(h.runtime).named('ticker').watchesRawSource(source).complete(r);
    await h.runtime.start();
    source.send(Config.create('tick'));
    await h.runtime.converge();
    expect(r.calls.map((c) => `${c.type}/${c.id}`)).toEqual([`${Config.type}/tick`]);
  });

  it('drops what is sent after the runtime stopped', async () => {
    h = createHarness();
    const r = recorder(h);
    const source = channelSource();
    await controllerManagedBy(h.runtime).for(VM).watchesRawSource(source).complete(r);
    await h.runtime.converge();
    await h.runtime.stop();
    source.send(VM.create('late'));
    await h.runtime.settle();
    expect(r.calls).toEqual([]);
  });
});

function reset(calls: unknown[]): void {
  calls.length = 0;
}
