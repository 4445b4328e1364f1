import { afterEach, describe, expect, it } from 'vitest';
import { ALL_NAMESPACES, type OwnerReference } from '../../../src/index.js';
import { controllerManagedBy } from '../../../src/engine/builder/builder.js';
import type { ObjectLike, PartialObjectMetadata } from '../../../src/engine/builder/events.js';
import {
  enqueueRequestForObject,
  enqueueRequestsFromMapFunc,
  handlerFuncs,
} from '../../../src/engine/builder/handlers.js';
import { setControllerReference } from '../../../src/engine/builder/owner-references.js';
import { predicateFuncs } from '../../../src/engine/builder/predicates.js';
import { Config, createHarness, Disk, Host, recorder, VM, type Harness } from './fixtures.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

const ownedDisk = (id: string, refs: OwnerReference[], labels: Record<string, string> = {}) =>
  Disk.create(id, { size: 10 }, { ownerReferences: refs, labels });

const configToVMs = enqueueRequestsFromMapFunc((config: ReturnType<typeof Config.create>) =>
  config.spec.vms.map((id) => ({ namespace: config.metadata.namespace, id })),
);

/** Forgets the calls so far, so the next assertion sees only what the next change caused. */
function reset(calls: unknown[]): void {
  calls.length = 0;
}

describe('for', () => {
  it('reconciles every existing object of the for type at start, each with its own request', async () => {
    h = createHarness();
    await h.state.create(VM.create('a'));
    await h.state.create(VM.create('b'));
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    await h.runtime.converge();
    expect(r.calls.map(({ at: _, ...request }) => request)).toEqual([
      { namespace: 'default', id: 'a', type: VM.type },
      { namespace: 'default', id: 'b', type: VM.type },
    ]);
  });

  it('reconciles an object again when it changes', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    await h.runtime.converge();
    reset(r.calls);
    await h.state.modify(VM.create('web'), (d) => {
      d.spec.cpus = 4;
    });
    await h.runtime.converge();
    expect(r.ids()).toEqual(['web']);
  });

  it('reconciles an object once more when it is destroyed', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const seen: boolean[] = [];
    const r = recorder(h, async ({ client }, request) => {
      seen.push((await client.find(VM.pointer(request.id))) !== undefined);
      return undefined;
    });
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    await h.runtime.converge();
    await h.state.destroy(VM.pointer('web'));
    await h.runtime.converge();
    expect(r.ids()).toEqual(['web', 'web']);
    expect(seen).toEqual([true, false]);
  });

  it('reconciles objects of the type in every namespace, one that appears during the run too, as controller-runtime does', async () => {
    h = createHarness();
    await h.state.create(VM.create('web', undefined, { namespace: 'team-a' }));
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).complete(r);
    await h.runtime.converge();
    await h.state.create(VM.create('web', undefined, { namespace: 'team-b' }));
    await h.runtime.converge();
    expect(r.calls.map((c) => `${c.namespace}/${c.id}`)).toEqual(['team-a/web', 'team-b/web']);
  });

  it('with a namespace in its options, ignores objects of the type in other namespaces', async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM, { namespace: 'default' }).complete(r);
    await h.state.create(VM.create('elsewhere', undefined, { namespace: 'lab' }));
    await h.runtime.converge();
    expect(r.calls).toEqual([]);
  });
});

describe('owns', () => {
  it('reconciles the owner of an owned object in any namespace, reading and writing there', async () => {
    h = createHarness();
    const seen: string[] = [];
    await controllerManagedBy(h.runtime)
      .for(VM)
      .owns(Disk)
      .complete(async ({ client }, request) => {
        const vm = await client.find(VM.pointer(request.id, request.namespace));
        seen.push(`${request.namespace}/${request.id}`);
        if (!vm) return;
        await client.modify(
          Disk.create(`${vm.metadata.id}-root`, undefined, { namespace: vm.metadata.namespace }),
          (disk) => {
            setControllerReference(vm, disk);
          },
        );
      });
    for (const namespace of ['team-a', 'team-b']) {
      await h.state.create(VM.create('web', undefined, { namespace }));
    }
    const report = await h.runtime.converge();
    expect(report.errors).toBe(0);
    const disks = await h.state.list({ namespace: ALL_NAMESPACES, type: Disk.type });
    expect(disks.map((d) => `${d.metadata.namespace}/${d.metadata.id}`)).toEqual([
      'team-a/web-root',
      'team-b/web-root',
    ]);
    seen.length = 0;
    // An owned object changed in team-b: its owner there is reconciled, not team-a's.
    await h.state.addFinalizer(Disk.pointer('web-root', 'team-b'), 'backup');
    await h.runtime.converge();
    expect(seen).toEqual(['team-b/web']);
  });

  it('reconciles the owner when an owned object is created, changed and destroyed', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).owns(Disk).complete(r);
    await h.runtime.converge();
    reset(r.calls);
    await h.state.create(ownedDisk('root', [{ type: VM.type, id: 'web', controller: true }]));
    await h.runtime.converge();
    await h.state.modify(Disk.create('root'), (d) => {
      d.spec.size = 20;
    });
    await h.runtime.converge();
    await h.state.destroy(Disk.pointer('root'));
    await h.runtime.converge();
    expect(r.calls.map((c) => `${c.type}/${c.id}`)).toEqual([
      `${VM.type}/web`,
      `${VM.type}/web`,
      `${VM.type}/web`,
    ]);
  });

  it('does not reconcile anything for an object whose labels name the owner but has no owner reference', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).owns(Disk).complete(r);
    await h.runtime.converge();
    reset(r.calls);
    await h.state.create(ownedDisk('root', [], { vm: 'web', owner: 'web', app: 'web' }));
    await h.runtime.converge();
    expect(r.calls).toEqual([]);
  });

  it('follows only the controller reference by default', async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).owns(Disk).complete(r);
    await h.state.create(
      ownedDisk('shared', [
        { type: VM.type, id: 'a' },
        { type: VM.type, id: 'b', controller: true },
      ]),
    );
    await h.runtime.converge();
    expect(r.ids()).toEqual(['b']);
  });

  it('follows every reference of the for type with matchEveryOwner', async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).owns(Disk, { matchEveryOwner: true }).complete(r);
    await h.state.create(
      ownedDisk('shared', [
        { type: VM.type, id: 'a' },
        { type: Host.type, id: 'h1' },
        { type: VM.type, id: 'b', controller: true },
      ]),
    );
    await h.runtime.converge();
    expect(r.ids().sort()).toEqual(['a', 'b']);
  });

  it('reconciles both the old and the new owner when an object changes owner', async () => {
    h = createHarness();
    await h.state.create(ownedDisk('root', [{ type: VM.type, id: 'old', controller: true }]));
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).owns(Disk).complete(r);
    await h.runtime.converge();
    reset(r.calls);
    await h.state.modify(Disk.create('root'), (d) => {
      d.metadata.ownerReferences = [{ type: VM.type, id: 'new', controller: true }];
    });
    await h.runtime.converge();
    expect(r.ids().sort()).toEqual(['new', 'old']);
  });

  it('lets the reconciler write owned objects, which then reconcile their owner', async () => {
    h = createHarness();
    await h.state.create(VM.create('web', { cpus: 2, image: 'debian' }));
    const r = recorder(h, async ({ client }, request) => {
      const vm = await client.find<{ cpus: number }>(VM.pointer(request.id, request.namespace));
      if (!vm) return undefined;
      await client.modify(Disk.create(`${request.id}-root`), (disk) => {
        setControllerReference(vm, disk);
        disk.spec.size = vm.spec.cpus * 10;
      });
      return undefined;
    });
    await controllerManagedBy(h.runtime).for(VM).owns(Disk).complete(r);
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    const disk = await h.state.get<{ size: number }>(Disk.pointer('web-root'));
    expect(disk.spec.size).toBe(20);
    expect(disk.metadata.owner).toBe('vm');
    expect(disk.metadata.ownerReferences).toEqual([{ type: VM.type, id: 'web', controller: true }]);
    // Once for the VM, once more because the disk it wrote is owned by that VM.
    expect(r.ids()).toEqual(['web', 'web']);
  });
});

describe('watches', () => {
  it('reconciles the requests a map function returns, as requests of the for type', async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).watches(Config, configToVMs).complete(r);
    await h.state.create(Config.create('c', { vms: ['a', 'b'] }));
    await h.runtime.converge();
    expect(r.calls.map((c) => `${c.type}/${c.id}`)).toEqual([`${VM.type}/a`, `${VM.type}/b`]);
  });

  it('reconciles once per request when an update maps old and new to overlapping requests', async () => {
    h = createHarness();
    await h.state.create(Config.create('c', { vms: ['a', 'b'] }));
    const r = recorder(h);
    await controllerManagedBy(h.runtime).for(VM).watches(Config, configToVMs).complete(r);
    await h.runtime.converge();
    reset(r.calls);
    await h.state.modify(Config.create('c'), (d) => {
      d.spec.vms = ['b', 'c'];
    });
    await h.runtime.converge();
    expect(r.ids()).toEqual(['a', 'b', 'c']);
  });

  it('merges the requests every watch of a type makes for one event into one each', async () => {
    h = createHarness();
    const compiled = await controllerManagedBy(h.runtime)
      .for(VM)
      .watches(
        VM,
        enqueueRequestsFromMapFunc((vm: ObjectLike) => [
          { namespace: vm.metadata.namespace, id: vm.metadata.id },
          { namespace: vm.metadata.namespace, id: 'fleet' },
        ]),
      )
      .build(() => undefined);
    const [input] = compiled.settings.inputs;
    const web = await h.state.create(VM.create('web'));
    const pointers = compiled.mapEvent(input!, { type: 'created', resource: web });
    expect(pointers.map((p) => p.id)).toEqual(['web', 'fleet']);
  });

  it('with for, makes every request one of the for type, whatever type the handler names', async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime)
      .for(VM)
      .watches(Config, enqueueRequestForObject())
      .complete(r);
    await h.state.create(Config.create('web'));
    await h.runtime.converge();
    expect(r.calls.map(({ at: _, ...request }) => request)).toEqual([
      { namespace: 'default', id: 'web', type: VM.type },
    ]);
  });

  it('without for, reconciles requests of the type the handler targets', async () => {
    h = createHarness();
    const r = recorder(h);
    await controllerManagedBy(h.runtime)
      .named('config-audit')
      .watches(Config, enqueueRequestForObject())
      .complete(r);
    await h.state.create(Config.create('c'));
    await h.runtime.converge();
    expect(r.calls.map(({ at: _, ...request }) => request)).toEqual([
      { namespace: 'default', id: 'c', type: Config.type },
    ]);
  });

  it('lets the reconciler read watched types but not undeclared ones', async () => {
    h = createHarness();
    await h.state.create(Config.create('c', { vms: ['web'] }));
    await h.state.create(Host.create('h1'));
    const r = recorder(h, async ({ client }) => {
      await client.get(Config.pointer('c'));
      await client.get(Host.pointer('h1'));
      return undefined;
    });
    await controllerManagedBy(h.runtime).for(VM).watches(Config, configToVMs).complete(r);
    await h.runtime.converge({ maxAttempts: 1 });
    expect(h.runtime.status('vm')?.lastError).toMatchObject({ code: 'access-denied' });
    expect(h.runtime.status('vm')?.lastError?.message).toContain(Host.type);
  });

  it('refuses writes of types that are neither owned nor declared outputs', async () => {
    h = createHarness();
    await h.state.create(VM.create('web'));
    const r = recorder(h, async ({ client }) => {
      await client.create(Host.create('h1'));
      return undefined;
    });
    await controllerManagedBy(h.runtime).for(VM).owns(Disk).complete(r);
    await h.runtime.converge({ maxAttempts: 1 });
    expect(h.runtime.status('vm')?.lastError).toMatchObject({ code: 'access-denied' });
    await expect(h.state.get(Host.pointer('h1'))).rejects.toMatchObject({ code: 'not-found' });
  });
});

describe('metadata-only watches', () => {
  it('hand predicates and handlers the metadata without the spec', async () => {
    h = createHarness();
    const predicateSaw: ObjectLike[] = [];
    const handlerSaw: PartialObjectMetadata[] = [];
    await controllerManagedBy(h.runtime)
      .for(VM)
      .watchesMetadata(
        Config,
        handlerFuncs({
          create: (e, q) => {
            handlerSaw.push(e.object);
            q.add({ namespace: e.object.metadata.namespace, id: 'web' });
          },
        }),
        {
          predicates: [
            predicateFuncs({
              create: (e) => {
                predicateSaw.push(e.object);
                return true;
              },
            }),
          ],
        },
      )
      .complete(() => undefined);
    await h.state.create(Config.create('c', { vms: ['web'] }, { labels: { team: 'a' } }));
    await h.runtime.converge();
    expect(handlerSaw).toHaveLength(1);
    for (const object of [...predicateSaw, ...handlerSaw]) {
      expect(object.metadata).toMatchObject({ id: 'c', type: Config.type, labels: { team: 'a' } });
      expect('spec' in object).toBe(false);
    }
  });

  it('hand a for watch with onlyMetadata the metadata without the spec', async () => {
    h = createHarness();
    const saw: PartialObjectMetadata[] = [];
    const r = recorder(h);
    await controllerManagedBy(h.runtime)
      .for(VM, {
        onlyMetadata: true,
        predicates: [
          predicateFuncs({
            create: (e) => {
              saw.push(e.object);
              return true;
            },
          }),
        ],
      })
      .complete(r);
    await h.state.create(VM.create('web'));
    await h.runtime.converge();
    expect(r.ids()).toEqual(['web']);
    expect(saw.map((o) => o.spec)).toEqual([undefined]);
    expect(saw[0]?.metadata.id).toBe('web');
  });
});
