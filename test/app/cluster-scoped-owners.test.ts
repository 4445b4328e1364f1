/**
 * A project's builder controller on Kubernetes kinds: a cluster-scoped object (a ClusterRole)
 * may not be owned by a namespaced one (a ConfigMap), as controller-runtime refuses it, though
 * cosi keeps both in the namespace `default`. The project tells the runtime each kind's scope,
 * from its definitions or, for a kind it neither defines nor watches, the built-in kinds.
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestProject, type TestProject } from '../../src/testing/index.js';
import {
  controllerManagedBy,
  defineResource,
  findById,
  setControllerReference,
  type OwnerReference,
  type Runtime,
} from '../../src/index.js';

const REPO = path.resolve(import.meta.dirname, '../..');

const ConfigMap = defineResource<Record<string, unknown>>({ type: 'ConfigMaps.core' });
const ClusterRole = defineResource<Record<string, unknown>>({
  type: 'ClusterRoles.rbac.authorization.k8s.io',
});

const CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata: { name: b, namespace: default }
data: { x: "1" }
`;

/** `for(ConfigMap).owns(ClusterRole)`: a ClusterRole `cm-<id>` per ConfigMap, referencing `owner(cm)`. */
function setup(owner: (cm: { metadata: { id: string } }) => OwnerReference | 'controller') {
  return (runtime: Runtime) =>
    controllerManagedBy(runtime)
      .named('roles')
      .for(ConfigMap)
      .owns(ClusterRole)
      .complete(async ({ client }, request) => {
        const cm = await findById(client, ConfigMap, request.id, request.namespace);
        if (!cm) return;
        await client.modify(ClusterRole.create(`cm-${cm.metadata.id}`, { rules: [] }), (role) => {
          const ref = owner(cm);
          if (ref === 'controller') setControllerReference(cm, role);
          else role.metadata.ownerReferences = [ref];
        });
      });
}

const open: TestProject[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

describe('owner references of cluster-scoped Kubernetes kinds in a project', () => {
  it('refuses a ClusterRole controlled by a ConfigMap of the same placeholder namespace', async () => {
    const p = await createTestProject({
      cwd: REPO,
      config: { setup: setup(() => 'controller') },
      manifests: CONFIG_MAP,
    });
    open.push(p);

    const report = await p.converge();

    expect(report.converged).toBe(false);
    const roles = report.controllers.find((c) => c.name === 'roles');
    expect(roles?.lastError?.message).toBe(
      'controller "roles" may not modify ClusterRoles.rbac.authorization.k8s.io "cm-b": cluster-scoped resource must not have a namespace-scoped owner (its owner reference names ConfigMaps.core "b")',
    );
    expect(await p.list(ClusterRole)).toEqual([]);
  });

  it('lets a ClusterRole reference a Namespace, a built-in cluster-scoped kind the project does not define', async () => {
    const p = await createTestProject({
      cwd: REPO,
      config: { setup: setup(() => ({ type: 'Namespaces.core', id: 'team-a' })) },
      manifests: CONFIG_MAP,
    });
    open.push(p);

    const report = await p.converge();

    expect(report.converged).toBe(true);
    const [role] = await p.list(ClusterRole);
    expect(role?.metadata.ownerReferences).toEqual([{ type: 'Namespaces.core', id: 'team-a' }]);
  });
});
