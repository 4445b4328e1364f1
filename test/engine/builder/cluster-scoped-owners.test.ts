/**
 * A cluster-scoped `for` type (a Namespace, a ClusterIssuer) owns objects in other namespaces:
 * `owns` enqueues the owner where its kind is kept (cosi's `default`), not in the namespace of
 * the object that changed, as controller-runtime's request for a cluster-scoped owner names no
 * namespace.
 */
import { describe, expect, it } from 'vitest';
import {
  controllerManagedBy,
  createInMemoryState,
  createRuntime,
  defineResource,
  enqueueRequestForOwner,
  SimulatedClock,
  type ReconcileRequest,
  type ResourceType,
} from '../../../src/index.js';

/** Cluster-scoped, as its definition says. */
const Tenant = defineResource({
  type: 'Tenants.example.org',
  kubernetes: { apiVersion: 'example.org/v1', kind: 'Tenant', namespaced: false },
});
const Quota = defineResource<{ limit: number }>({
  type: 'Quotas.example.org',
  defaultSpec: () => ({ limit: 1 }),
  kubernetes: { apiVersion: 'example.org/v1', kind: 'Quota', namespaced: true },
});
const KINDS: readonly ResourceType<unknown>[] = [Tenant, Quota];

describe('owns, cluster-scoped owner', () => {
  it('reconciles the owner in its own place when an object it owns in another namespace changes', async () => {
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    const runtime = createRuntime(state, {
      clock,
      kubernetesKind: (type) => KINDS.find((k) => k.type === type)?.definition.kubernetes,
    });
    // The handle the project uses need not carry the scope: the runtime knows it.
    const TenantHandle = defineResource({ type: Tenant.type });
    const requests: ReconcileRequest[] = [];
    await controllerManagedBy(runtime)
      .for(TenantHandle)
      .owns(Quota, { namespace: 'team-a' })
      .complete(async ({ client }, request) => {
        requests.push(request);
        // The request names the owner where it is: reading it must work.
        await client.get(TenantHandle.pointer(request.id, request.namespace));
      });
    try {
      await state.create(Tenant.create('acme'));
      await runtime.converge();
      requests.length = 0;
      await state.create(
        Quota.create('acme', undefined, {
          namespace: 'team-a',
          ownerReferences: [{ type: Tenant.type, id: 'acme', controller: true }],
        }),
      );
      const report = await runtime.converge();
      expect(report.errors).toBe(0);
      expect(requests).toEqual([{ namespace: 'default', id: 'acme', type: Tenant.type }]);
    } finally {
      await runtime.stop();
    }
  });
});

describe('watches with enqueueRequestForOwner, cluster-scoped owner', () => {
  it('finds the owner where it is kept, the handle telling no scope but the runtime does', async () => {
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    const runtime = createRuntime(state, {
      clock,
      kubernetesKind: (type) => KINDS.find((k) => k.type === type)?.definition.kubernetes,
    });
    const TenantHandle = defineResource({ type: Tenant.type });
    const requests: ReconcileRequest[] = [];
    await controllerManagedBy(runtime)
      .named('tenant-quotas')
      .watches(Quota, enqueueRequestForOwner(TenantHandle), { namespace: 'team-b' })
      .complete((_ctx, request) => {
        requests.push(request);
        return undefined;
      });
    try {
      // Before any reconcile: the handler knows the scope from the first event on.
      await state.create(
        Quota.create('acme', undefined, {
          namespace: 'team-b',
          ownerReferences: [{ type: Tenant.type, id: 'acme', controller: true }],
        }),
      );
      await runtime.converge();
      expect(requests).toEqual([{ namespace: 'default', id: 'acme', type: Tenant.type }]);
    } finally {
      await runtime.stop();
    }
  });
});

describe('enqueueRequestForOwner, cluster-scoped owner type', () => {
  const quota = {
    metadata: {
      namespace: 'team-b',
      type: Quota.type,
      id: 'q',
      ownerReferences: [{ type: Tenant.type, id: 'acme', controller: true }],
    },
  };
  const enqueued = (handler: ReturnType<typeof enqueueRequestForOwner>): unknown[] => {
    const requests: unknown[] = [];
    handler.create?.({ object: quota as never }, { add: (r) => requests.push(r) });
    return requests;
  };

  it('names the namespace the owner type keeps its objects in, from its definition', () => {
    expect(enqueued(enqueueRequestForOwner(Tenant))).toEqual([
      { namespace: 'default', id: 'acme', type: Tenant.type },
    ]);
  });

  it('names the namespace given, for a type known only by name', () => {
    expect(enqueued(enqueueRequestForOwner(Tenant.type, { ownerNamespace: 'cluster' }))).toEqual([
      { namespace: 'cluster', id: 'acme', type: Tenant.type },
    ]);
  });
});
