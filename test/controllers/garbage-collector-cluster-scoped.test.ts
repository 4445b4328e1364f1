/**
 * The garbage collector with a cluster-scoped owner (a Namespace, a ClusterIssuer): it owns
 * objects in any namespace, and is found where cosi keeps its kind, not in the dependent's
 * namespace.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  controllerManagedBy,
  createGarbageCollector,
  createInMemoryState,
  createRuntime,
  defineResource,
  setControllerReference,
  setOwnerReference,
  SimulatedClock,
  type KubernetesKind,
  type Runtime,
} from '../../src/index.js';
import type { Harness } from '../support/harness.js';
import { ids } from './harness.js';

/** A cluster-scoped kind: its objects are kept in `default`, and are in no namespace. */
const Tenant = defineResource<{ namespaces: string[] }>({
  type: 'Tenants.scope.test',
  defaultSpec: () => ({ namespaces: [] }),
});
/** A namespaced kind, one per namespace a tenant names. */
const Quota = defineResource<{ tenant: string }>({
  type: 'Quotas.scope.test',
  defaultSpec: () => ({ tenant: '' }),
});
/** Cluster-scoped, like a PersistentVolume. */
const Volume = defineResource({ type: 'Volumes.scope.test' });
const NAMESPACES = ['team-a', 'team-b'];

const KINDS: Readonly<Record<string, KubernetesKind>> = {
  [Tenant.type]: { apiVersion: 'scope.test/v1', kind: 'Tenant', namespaced: false },
  [Quota.type]: { apiVersion: 'scope.test/v1', kind: 'Quota', namespaced: true },
  [Volume.type]: { apiVersion: 'scope.test/v1', kind: 'Volume', namespaced: false },
};

let h: Harness;
beforeEach(() => {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  const runtime: Runtime = createRuntime(state, { clock, kubernetesKind: (t) => KINDS[t] });
  h = { state, clock, runtime };
});
afterEach(async () => {
  await h.runtime.stop();
});

/** Each tenant makes a quota in every namespace it names, as their controller. */
async function project(blockOwnerDeletion = false): Promise<void> {
  let builder = controllerManagedBy(h.runtime).for(Tenant);
  for (const namespace of NAMESPACES) builder = builder.owns(Quota, { namespace });
  await builder.complete(async ({ client }, request) => {
    const tenant = await client.find(Tenant.pointer(request.id, request.namespace));
    if (!tenant || tenant.metadata.phase === 'tearingDown') return;
    for (const namespace of tenant.spec.namespaces) {
      await client.modify(Quota.create(request.id, undefined, { namespace }), (quota) => {
        quota.spec.tenant = request.id;
        setControllerReference(tenant, quota, { scheme: client, blockOwnerDeletion });
      });
    }
  });
  await h.runtime.register(
    createGarbageCollector({
      owners: [Tenant],
      dependents: NAMESPACES.map((n) => Quota.kind(n)),
    }),
  );
}

const quotas = async (): Promise<string[]> =>
  (
    await Promise.all(
      NAMESPACES.map(async (n) => (await ids(h, Quota.kind(n))).map((id) => `${n}/${id}`)),
    )
  ).flat();

describe('garbage collector, cluster-scoped owners', () => {
  it('keeps the objects of a running cluster-scoped owner in every namespace', async () => {
    await project();
    await h.state.create(Tenant.create('acme', { namespaces: NAMESPACES }));
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(0);
    expect(await quotas()).toEqual(['team-a/acme', 'team-b/acme']);
  });

  it('collects them in every namespace once the owner is destroyed (background)', async () => {
    await project();
    await h.state.create(Tenant.create('acme', { namespaces: NAMESPACES }));
    await h.state.create(Tenant.create('other', { namespaces: ['team-a'] }));
    await h.runtime.converge();
    await h.state.teardown(Tenant.pointer('acme'));
    await h.state.destroy(Tenant.pointer('acme'));
    const report = await h.runtime.converge();
    expect(report.converged).toBe(true);
    expect(report.errors).toBe(0);
    expect(await quotas()).toEqual(['team-a/other']);
  });

  it('holds the owner until its blocking objects in other namespaces are gone (foreground)', async () => {
    await project(true);
    await h.state.create(Tenant.create('acme', { namespaces: NAMESPACES }));
    await h.runtime.converge();
    expect((await h.state.get(Tenant.pointer('acme'))).metadata.finalizers).toEqual([
      'cosi.dev/garbage-collector',
    ]);
    await h.state.addFinalizer(Quota.pointer('acme', 'team-b'), 'drain');
    await h.state.teardown(Tenant.pointer('acme'));
    await h.runtime.converge();
    expect(await quotas()).toEqual(['team-b/acme']);
    expect((await h.state.get(Tenant.pointer('acme'))).metadata.finalizers).toEqual([
      'cosi.dev/garbage-collector',
    ]);

    await h.state.removeFinalizer(Quota.pointer('acme', 'team-b'), 'drain');
    await h.runtime.converge();
    expect(await quotas()).toEqual([]);
    expect((await h.state.get(Tenant.pointer('acme'))).metadata.finalizers).toEqual([]);
  });

  it('collects an object with plain references once every cluster-scoped owner is gone', async () => {
    await project();
    await h.state.create(Tenant.create('a'));
    await h.state.create(Tenant.create('b'));
    const shared = Quota.create('shared', undefined, { namespace: 'team-a' });
    setOwnerReference(await h.state.get(Tenant.pointer('a')), shared, { scheme: h.runtime });
    setOwnerReference(await h.state.get(Tenant.pointer('b')), shared, { scheme: h.runtime });
    await h.state.create(shared);
    await h.runtime.converge();
    await h.state.teardown(Tenant.pointer('a'));
    await h.state.destroy(Tenant.pointer('a'));
    await h.runtime.converge();
    expect(await quotas()).toEqual(['team-a/shared']);

    await h.state.teardown(Tenant.pointer('b'));
    await h.state.destroy(Tenant.pointer('b'));
    await h.runtime.converge();
    expect(await quotas()).toEqual([]);
  });

  it('never follows the reference of a cluster-scoped object to a namespaced kind (unresolvable)', async () => {
    await h.runtime.register(
      createGarbageCollector({ owners: [Quota.kind()], dependents: [Volume] }),
    );
    // Written by hand: a controller could not (its write is refused), a user's tool might.
    await h.state.create(
      Volume.create('pv-1', undefined, {
        ownerReferences: [{ type: Quota.type, id: 'gone', controller: true }],
      }),
    );
    await h.state.create(
      Volume.create('pv-2', undefined, { ownerReferences: [{ type: Quota.type, id: 'gone' }] }),
    );
    const report = await h.runtime.converge();
    expect(report.errors).toBe(0);
    expect(await ids(h, Volume.kind())).toEqual(['pv-1', 'pv-2']);
  });
});
