/**
 * controller-runtime's `SetControllerReference` refuses a cluster-scoped object with a
 * namespace-scoped owner ("cluster-scoped resource must not have a namespace-scoped owner"). cosi
 * keeps a cluster-scoped kind in a placeholder namespace, so an owner in that namespace looked
 * like a same-namespace owner; the runtime, told each type's Kubernetes identity, refuses the write.
 */
import { describe, expect, it } from 'vitest';
import {
  controllerManagedBy,
  createInMemoryState,
  createRuntime,
  defineResource,
  setControllerReference,
  SimulatedClock,
  toDraft,
  type ReconcileContext,
} from '../../../src/index.js';

const Tenant = defineResource<{ team: string }>({
  type: 'Tenants.example.org',
  defaultSpec: () => ({ team: '' }),
  kubernetes: { apiVersion: 'example.org/v1', kind: 'Tenant', namespaced: false },
});
const Role = defineResource<{ rules: string[] }>({
  type: 'Roles.example.org',
  defaultSpec: () => ({ rules: [] }),
  kubernetes: { apiVersion: 'example.org/v1', kind: 'Role', namespaced: false },
});
const App = defineResource<{ image: string }>({
  type: 'Apps.example.org',
  defaultSpec: () => ({ image: 'nginx' }),
  kubernetes: { apiVersion: 'example.org/v1', kind: 'App', namespaced: true },
});

function setUp() {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  const runtime = createRuntime(state, {
    clock,
    kubernetesKind: (type) =>
      [Tenant, Role, App].find((t) => t.type === type)?.definition.kubernetes,
  });
  return { state, runtime };
}

type Write = (
  ctx: ReconcileContext,
  owner: Parameters<typeof setControllerReference>[0],
) => Promise<unknown>;

/** Makes the role `<owner id>-role` with a controller reference to the owner, as `write` says. */
const WRITES: Record<string, Write> = {
  modify: ({ client }, owner) =>
    client.modify(Role.create(`${owner.metadata.id}-role`), (role) => {
      setControllerReference(owner, role);
    }),
  create: ({ client }, owner) => {
    const role = Role.create(`${owner.metadata.id}-role`);
    setControllerReference(owner, role);
    return client.create(role);
  },
  update: async ({ client }, owner) => {
    const stored = await client.modifyWithResult(
      Role.create(`${owner.metadata.id}-role`),
      () => {},
    );
    const role = toDraft(stored);
    setControllerReference(owner, role);
    return client.update(role);
  },
};

describe('a cluster-scoped resource written by a controller', () => {
  it.each(Object.keys(WRITES))(
    'may not have a namespace-scoped owner: %s is refused, naming both, and nothing is stored with the reference',
    async (how) => {
      const { state, runtime } = setUp();
      const write = WRITES[how] as Write;
      await controllerManagedBy(runtime)
        .for(App)
        .owns(Role)
        .complete(async (ctx, request) => {
          const app = await ctx.client.find(App.pointer(request.id, request.namespace));
          if (app) await write(ctx, app);
        });
      await state.create(App.create('web'));

      const report = await runtime.converge();

      expect(report.converged).toBe(false);
      const [failing] = report.controllers.find((c) => c.name === 'app')?.failingItems ?? [];
      expect(failing?.error.code).toBe('access-denied');
      expect(failing?.error.message).toBe(
        `controller "app" may not ${how} Roles.example.org "web-role": cluster-scoped resource must not have a namespace-scoped owner (its owner reference names Apps.example.org "web")`,
      );
      const roles = await state.list(Role.kind());
      expect(roles.filter((r) => r.metadata.ownerReferences.length > 0)).toEqual([]);
    },
  );

  it('may have a cluster-scoped owner', async () => {
    const { state, runtime } = setUp();
    await controllerManagedBy(runtime)
      .for(Tenant)
      .owns(Role)
      .complete(async (ctx, request) => {
        const tenant = await ctx.client.find(Tenant.pointer(request.id, request.namespace));
        if (tenant) await WRITES.modify?.(ctx, tenant);
      });
    await state.create(Tenant.create('blue'));

    const report = await runtime.converge();

    expect(report.converged).toBe(true);
    const role = await state.get(Role.pointer('blue-role'));
    expect(role.metadata.ownerReferences).toEqual([
      { type: Tenant.type, id: 'blue', controller: true },
    ]);
  });

  it('is not checked without kubernetesKind: every type is namespaced then', async () => {
    const clock = new SimulatedClock();
    const state = createInMemoryState({ now: () => clock.now() });
    const runtime = createRuntime(state, { clock });
    await controllerManagedBy(runtime)
      .for(App)
      .owns(Role)
      .complete(async (ctx, request) => {
        const app = await ctx.client.find(App.pointer(request.id, request.namespace));
        if (app) await WRITES.modify?.(ctx, app);
      });
    await state.create(App.create('web'));

    expect((await runtime.converge()).converged).toBe(true);
    expect((await state.get(Role.pointer('web-role'))).metadata.ownerReferences).toHaveLength(1);
  });
});
