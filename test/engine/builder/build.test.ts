import { afterEach, describe, expect, it } from 'vitest';
import {
  ALL_NAMESPACES,
  defineResource,
  RegistrationError,
  type Controller,
} from '../../../src/index.js';
import { controllerManagedBy } from '../../../src/engine/builder/builder.js';
import { BuilderError } from '../../../src/engine/builder/errors.js';
import type { ObjectLike } from '../../../src/engine/builder/events.js';
import { enqueueRequestsFromMapFunc } from '../../../src/engine/builder/handlers.js';
import { generationChanged } from '../../../src/engine/builder/predicates.js';
import { Config, createHarness, Disk, recorder, VM, type Harness } from './fixtures.js';

let h: Harness;
afterEach(async () => {
  await h.runtime.stop();
});

const toVMs = enqueueRequestsFromMapFunc((config: ObjectLike) => [
  { namespace: config.metadata.namespace, id: config.metadata.id },
]);

describe('build-time validation', () => {
  it('rejects a missing reconciler with missing-reconciler and registers nothing', async () => {
    h = createHarness();
    const build = controllerManagedBy(h.runtime).for(VM).build(undefined);
    await expect(build).rejects.toMatchObject({ name: 'BuilderError', code: 'missing-reconciler' });
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('rejects a builder without a runtime or manager with missing-manager', async () => {
    h = createHarness();
    const build = controllerManagedBy(undefined as never)
      .for(VM)
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({ code: 'missing-manager' });
  });

  it('rejects a second for() at build time with for-called-twice and registers nothing', async () => {
    h = createHarness();
    const builder = controllerManagedBy(h.runtime).for(VM).for(Disk);
    const build = builder.complete(() => undefined);
    await expect(build).rejects.toBeInstanceOf(BuilderError);
    await expect(build).rejects.toMatchObject({ code: 'for-called-twice' });
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('rejects a controller with neither for() nor named() with missing-name', async () => {
    h = createHarness();
    const build = controllerManagedBy(h.runtime)
      .watches(Config, toVMs)
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({ code: 'missing-name' });
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('rejects owns() without for() with owns-without-for', async () => {
    h = createHarness();
    const build = controllerManagedBy(h.runtime)
      .named('disks')
      .owns(Disk)
      .watches(Config, toVMs)
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({ code: 'owns-without-for' });
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('rejects a controller that watches nothing with no-watches', async () => {
    h = createHarness();
    const build = controllerManagedBy(h.runtime)
      .named('idle')
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({ code: 'no-watches' });
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('rejects options it does not take with invalid-options, naming the near key, and registers nothing', async () => {
    h = createHarness();
    const build = controllerManagedBy(h.runtime)
      .for(VM)
      .withOptions({
        maxConcurrentReconcile: 2,
        rateLimiter: { baseDelay: 5, max: 100 },
        reconciliationTimeout: Number.NaN,
      } as never)
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({
      name: 'BuilderError',
      code: 'invalid-options',
      message:
        'controller "vm": withOptions: unknown key "maxConcurrentReconcile" (did you mean maxConcurrentReconciles?); ' +
        'unknown key "rateLimiter.baseDelay" (it takes initial, multiplier, max); ' +
        'reconciliationTimeout must be a number of ms, 0 or more (0: no limit), got NaN',
    });
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('rejects a maxConcurrentReconciles that is no number with invalid-options, which Math.max would coerce', async () => {
    h = createHarness();
    for (const given of ['3', true]) {
      const build = controllerManagedBy(h.runtime)
        .for(VM)
        .withOptions({ maxConcurrentReconciles: given } as never)
        .complete(() => undefined);
      await expect(build).rejects.toMatchObject({
        code: 'invalid-options',
        message: `controller "vm": withOptions: maxConcurrentReconciles must be a number of requests, got ${JSON.stringify(given)}`,
      });
    }
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('checks in controller-runtime order: a missing reconciler before a second for()', async () => {
    h = createHarness();
    const build = controllerManagedBy(h.runtime).for(VM).for(Disk).build(undefined);
    await expect(build).rejects.toMatchObject({ code: 'missing-reconciler' });
  });

  it('rejects a second controller of the same name with duplicate-name and keeps the first', async () => {
    h = createHarness();
    await controllerManagedBy(h.runtime)
      .for(VM)
      .complete(() => undefined);
    const second = controllerManagedBy(h.runtime)
      .for(VM)
      .owns(Disk)
      .complete(() => undefined);
    await expect(second).rejects.toMatchObject({ code: 'duplicate-name' });
    expect(h.runtime.controllerNames()).toEqual(['vm']);
    expect(h.runtime.dependencyGraph().edges.some((e) => e.type === Disk.type)).toBe(false);
  });

  // Ported from kubernetes-sigs/controller-runtime pkg/builder/controller.go Build (doController runs before doWatch)
  it('checks in controller-runtime order: a taken name before owns() without for()', async () => {
    h = createHarness();
    await controllerManagedBy(h.runtime)
      .named('disks')
      .watches(Config, toVMs)
      .complete(() => undefined);
    const build = controllerManagedBy(h.runtime)
      .named('disks')
      .owns(Disk)
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({ code: 'duplicate-name' });
  });

  it('checks in controller-runtime order: a taken name before a controller that watches nothing', async () => {
    h = createHarness();
    await controllerManagedBy(h.runtime)
      .named('idle')
      .watches(Config, toVMs)
      .complete(() => undefined);
    const build = controllerManagedBy(h.runtime)
      .named('idle')
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({ code: 'duplicate-name' });
  });

  it('rejects a type name given to for() with invalid-type, not a TypeError', async () => {
    h = createHarness();
    const build = controllerManagedBy(h.runtime)
      .for('VMs.example.org' as never)
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({ name: 'BuilderError', code: 'invalid-type' });
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('rejects a type name given to owns() or watches() with invalid-type, and watches nothing', async () => {
    h = createHarness();
    const owns = controllerManagedBy(h.runtime)
      .for(VM)
      .owns('Disks.example.org' as never)
      .complete(() => undefined);
    await expect(owns).rejects.toMatchObject({ code: 'invalid-type' });
    const watches = controllerManagedBy(h.runtime)
      .named('configs')
      .watches(undefined as never, toVMs)
      .complete(() => undefined);
    await expect(watches).rejects.toMatchObject({ code: 'invalid-type' });
    expect(h.runtime.controllerNames()).toEqual([]);
    expect(h.runtime.dependencyGraph().edges).toEqual([]);
  });

  it('rejects a single predicate given for the list with invalid-predicate, where every event failed', async () => {
    h = createHarness();
    const build = controllerManagedBy(h.runtime)
      .for(VM, { predicates: generationChanged as never })
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({
      name: 'BuilderError',
      code: 'invalid-predicate',
      message: 'for(VMs.example.org): predicates must be a list: write [predicate]',
    });
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('rejects a plain function as a predicate of owns() or withEventFilter() with invalid-predicate', async () => {
    h = createHarness();
    const owns = controllerManagedBy(h.runtime)
      .for(VM)
      .owns(Disk, { predicates: [() => true] as never })
      .complete(() => undefined);
    await expect(owns).rejects.toMatchObject({
      code: 'invalid-predicate',
      message: expect.stringContaining(
        'owns(Disks.example.org): predicates[0] is a function, not a predicate: make one with newPredicateFuncs(filter)',
      ) as unknown,
    });
    const filtered = controllerManagedBy(h.runtime)
      .for(VM)
      .withEventFilter({ update: () => false } as never)
      .complete(() => undefined);
    await expect(filtered).rejects.toMatchObject({
      code: 'invalid-predicate',
      message: expect.stringContaining(
        'withEventFilter() got an object without the functions create, delete, generic',
      ) as unknown,
    });
    expect(h.runtime.controllerNames()).toEqual([]);
  });

  it('turns a refusal of the runtime into a registration error with the cause', async () => {
    h = createHarness();
    const diskWriter: Controller = {
      name: 'disk-writer',
      inputs: [],
      outputs: [{ type: Disk.type, kind: 'exclusive' }],
      async run() {},
    };
    await h.runtime.register(diskWriter);
    const build = controllerManagedBy(h.runtime)
      .for(VM)
      .owns(Disk)
      .complete(() => undefined);
    await expect(build).rejects.toMatchObject({ code: 'registration' });
    const error = (await build.catch((e: unknown) => e)) as BuilderError;
    expect(error.cause).toBeInstanceOf(RegistrationError);
    expect(h.runtime.controllerNames()).toEqual(['disk-writer']);
  });
});

describe('what build() produces', () => {
  it('complete() resolves to nothing once the controller is registered', async () => {
    h = createHarness();
    const done = await controllerManagedBy(h.runtime)
      .for(VM)
      .complete(async () => {});
    expect(done).toBeUndefined();
    expect(h.runtime.controllerNames()).toEqual(['vm']);
  });

  it('build() resolves to the compiled queue controller it registered', async () => {
    h = createHarness();
    const compiled = await controllerManagedBy(h.runtime)
      .for(VM)
      .build(() => undefined);
    expect(compiled.name).toBe('vm');
    expect(typeof compiled.reconcile).toBe('function');
    expect(h.runtime.dependencyGraph().controllers).toEqual([{ name: 'vm', kind: 'qcontroller' }]);
  });

  it("names the controller after the for type's display type, lower-cased", async () => {
    h = createHarness();
    const NetworkConfig = defineResource({ type: 'NetworkConfigs.example.org' });
    const a = await controllerManagedBy(h.runtime)
      .for(VM)
      .build(() => undefined);
    const b = await controllerManagedBy(h.runtime)
      .for(NetworkConfig)
      .build(() => undefined);
    expect([a.name, b.name]).toEqual(['vm', 'networkconfig']);
  });

  it('uses the name given to named() instead', async () => {
    h = createHarness();
    const compiled = await controllerManagedBy(h.runtime)
      .for(VM)
      .named('vm-sizer')
      .build(() => undefined);
    expect(compiled.name).toBe('vm-sizer');
    expect(h.runtime.controllerNames()).toEqual(['vm-sizer']);
  });

  it('lets two controllers for the same type coexist when one is named', async () => {
    h = createHarness();
    await controllerManagedBy(h.runtime)
      .for(VM)
      .complete(() => undefined);
    await controllerManagedBy(h.runtime)
      .for(VM)
      .named('vm-audit')
      .complete(() => undefined);
    expect(h.runtime.controllerNames()).toEqual(['vm', 'vm-audit']);
  });

  it('declares for as primary, owned and watched types as mapped inputs, owned types as shared outputs', async () => {
    h = createHarness();
    await controllerManagedBy(h.runtime)
      .for(VM)
      .owns(Disk)
      .watches(Config, toVMs)
      .complete(() => undefined);
    expect(h.runtime.dependencyGraph().edges).toEqual([
      { controller: 'vm', namespace: ALL_NAMESPACES, type: Config.type, kind: 'mapped' },
      { controller: 'vm', type: Disk.type, kind: 'shared' },
      { controller: 'vm', namespace: ALL_NAMESPACES, type: Disk.type, kind: 'mapped' },
      { controller: 'vm', namespace: ALL_NAMESPACES, type: VM.type, kind: 'primary' },
    ]);
  });

  it('declares a type watched twice once, as primary when it is also the for type', async () => {
    h = createHarness();
    const compiled = await controllerManagedBy(h.runtime)
      .for(VM)
      .watches(VM, toVMs)
      .build(() => undefined);
    expect(compiled.settings.inputs).toEqual([
      { namespace: ALL_NAMESPACES, type: VM.type, kind: 'primary' },
    ]);
  });

  it('watches the namespace given in the options instead of every one', async () => {
    h = createHarness();
    const compiled = await controllerManagedBy(h.runtime)
      .for(VM, { namespace: 'lab' })
      .owns(Disk, { namespace: 'lab' })
      .build(() => undefined);
    expect(compiled.settings.inputs.map((i) => i.namespace)).toEqual(['lab', 'lab']);
  });

  it('adds the outputs of withOptions, and an exclusive declaration of an owned type wins', async () => {
    h = createHarness();
    const compiled = await controllerManagedBy(h.runtime)
      .for(VM)
      .owns(Disk)
      .withOptions({ outputs: [Config, { type: Disk.type, kind: 'exclusive' }] })
      .build(() => undefined);
    expect(compiled.settings.outputs).toEqual([
      { type: Disk.type, kind: 'exclusive' },
      { type: Config.type, kind: 'shared' },
    ]);
  });

  it('passes maxConcurrentReconciles on as the concurrency', async () => {
    h = createHarness();
    const compiled = await controllerManagedBy(h.runtime)
      .for(VM)
      .withOptions({ maxConcurrentReconciles: 3 })
      .build(() => undefined);
    expect(compiled.settings.concurrency).toBe(3);
  });

  it('takes a maxConcurrentReconciles of 0 as the default of 1, as controller-runtime does', async () => {
    h = createHarness();
    const compiled = await controllerManagedBy(h.runtime)
      .for(VM)
      .withOptions({ maxConcurrentReconciles: 0 })
      .build(() => undefined);
    expect(compiled.settings.concurrency).toBe(1);
  });

  it('reconciles up to maxConcurrentReconciles requests at once', async () => {
    h = createHarness();
    let inFlight = 0;
    let most = 0;
    const slow = recorder(h, async () => {
      most = Math.max(most, ++inFlight);
      // A macrotask, not a timer: lets the other workers start before this one finishes.
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return undefined;
    });
    await controllerManagedBy(h.runtime)
      .for(VM)
      .withOptions({ maxConcurrentReconciles: 2 })
      .complete(slow);
    for (const id of ['a', 'b', 'c']) await h.state.create(VM.create(id));
    await h.runtime.converge();
    expect(slow.ids().sort()).toEqual(['a', 'b', 'c']);
    expect(most).toBe(2);
  });

  it('reconciles one request at a time by default', async () => {
    h = createHarness();
    let inFlight = 0;
    let most = 0;
    const slow = recorder(h, async () => {
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setImmediate(resolve));
      inFlight--;
      return undefined;
    });
    await controllerManagedBy(h.runtime).for(VM).complete(slow);
    for (const id of ['a', 'b', 'c']) await h.state.create(VM.create(id));
    await h.runtime.converge();
    expect(slow.calls).toHaveLength(3);
    expect(most).toBe(1);
  });

  it('replaces earlier options on every withOptions call', async () => {
    h = createHarness();
    const compiled = await controllerManagedBy(h.runtime)
      .for(VM)
      .withOptions({ maxConcurrentReconciles: 4 })
      .withOptions({ needLeaderElection: false })
      .build(() => undefined);
    expect(compiled.settings.concurrency).toBeUndefined();
    expect(compiled.needLeaderElection).toBe(false);
  });

  it('needs leader election unless told otherwise', async () => {
    h = createHarness();
    const compiled = await controllerManagedBy(h.runtime)
      .for(VM)
      .build(() => undefined);
    expect(compiled.needLeaderElection).toBe(true);
  });
});
