import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ALL_NAMESPACES,
  controllerManagedBy,
  createGarbageCollector,
  defineResource,
  setControllerReference,
  type ControllerReferenceOptions,
} from '../../src/index.js';
import { createHarness, ids, type Harness } from './harness.js';

/** A builder project: clusters own their nodes, as a Deployment owns its ReplicaSets. */
const Cluster = defineResource<{ size: number }>({
  type: 'Clusters.gc.test',
  defaultSpec: () => ({ size: 2 }),
});
const Node = defineResource<{ cluster: string }>({
  type: 'Nodes.gc.test',
  defaultSpec: () => ({ cluster: '' }),
});

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.runtime.stop();
});

/** Registers the cluster controller (nodes `<cluster>-<n>`) and the garbage collector. */
async function project(refs: ControllerReferenceOptions = {}): Promise<void> {
  await controllerManagedBy(h.runtime)
    .for(Cluster)
    .owns(Node)
    .complete(async ({ client }, request) => {
      const cluster = await client.find<{ size: number }>(Cluster.pointer(request.id));
      // A cluster on its way out makes no nodes (controller-runtime: deletionTimestamp is set).
      if (!cluster || cluster.metadata.phase === 'tearingDown') return;
      for (let n = 1; n <= cluster.spec.size; n++) {
        await client.modify(Node.create(`${request.id}-${n}`), (node) => {
          node.spec.cluster = request.id;
          setControllerReference(cluster, node, refs);
        });
      }
    });
  await h.runtime.register(createGarbageCollector({ owners: [Cluster], dependents: [Node] }));
}

async function destroyCluster(id: string): Promise<void> {
  await h.state.teardown(Cluster.pointer(id));
  await h.state.destroy(Cluster.pointer(id));
}

describe('garbage collector', () => {
  it('is a controller like any other, in the dependency graph', async () => {
    await project();
    const graph = h.runtime.dependencyGraph();
    expect(graph.controllers).toContainEqual({ name: 'GarbageCollector', kind: 'controller' });
    expect(graph.edges.filter((e) => e.controller === 'GarbageCollector')).toEqual([
      {
        controller: 'GarbageCollector',
        namespace: ALL_NAMESPACES,
        type: Cluster.type,
        kind: 'strong',
      },
      { controller: 'GarbageCollector', type: Node.type, kind: 'shared' },
      { controller: 'GarbageCollector', namespace: ALL_NAMESPACES, type: Node.type, kind: 'weak' },
    ]);
  });

  describe('background deletion', () => {
    it('tears down and destroys the objects of an owner that is destroyed', async () => {
      await project();
      await h.state.create(Cluster.create('a'));
      await h.state.create(Cluster.create('b'));
      await h.runtime.converge();
      expect(await ids(h, Node.kind())).toEqual(['a-1', 'a-2', 'b-1', 'b-2']);

      await destroyCluster('a');
      const report = await h.runtime.converge();
      expect(report.converged).toBe(true);
      expect(report.errors).toBe(0);
      expect(await ids(h, Node.kind())).toEqual(['b-1', 'b-2']);
    });

    it('keeps the objects of an owner that is only tearing down', async () => {
      await project();
      await h.state.create(Cluster.create('a', undefined, { finalizers: ['backup'] }));
      await h.runtime.converge();
      await h.state.teardown(Cluster.pointer('a'));
      await h.runtime.converge();
      expect(await ids(h, Node.kind())).toEqual(['a-1', 'a-2']);
      expect((await h.state.get(Cluster.pointer('a'))).metadata.finalizers).toEqual(['backup']);
    });

    it('waits for the finalizers on an object before destroying it', async () => {
      await project();
      await h.state.create(Cluster.create('a', { size: 1 }));
      await h.runtime.converge();
      await h.state.addFinalizer(Node.pointer('a-1'), 'drain');
      await destroyCluster('a');
      await h.runtime.converge();
      expect((await h.state.get(Node.pointer('a-1'))).metadata.phase).toBe('tearingDown');

      await h.state.removeFinalizer(Node.pointer('a-1'), 'drain');
      await h.runtime.converge();
      expect(await ids(h, Node.kind())).toEqual([]);
    });

    it('leaves alone objects without owner references, or whose owner kind it does not watch', async () => {
      await project();
      await h.state.create(Node.create('loose'));
      await h.state.create(
        Node.create('foreign', undefined, {
          ownerReferences: [{ type: 'Racks.gc.test', id: 'r1', controller: true }],
        }),
      );
      await h.state.create(
        Node.create('mixed', undefined, {
          ownerReferences: [
            { type: Cluster.type, id: 'gone' },
            { type: 'Racks.gc.test', id: 'r1' },
          ],
        }),
      );
      const report = await h.runtime.converge();
      expect(report.errors).toBe(0);
      expect(await ids(h, Node.kind())).toEqual(['foreign', 'loose', 'mixed']);
    });

    it('collects an object with only plain owner references once every owner is gone, as Kubernetes does', async () => {
      await project();
      await h.state.create(Cluster.create('a', { size: 0 }));
      await h.state.create(Cluster.create('b', { size: 0 }));
      await h.state.create(
        Node.create('shared', undefined, {
          ownerReferences: [
            { type: Cluster.type, id: 'a' },
            { type: Cluster.type, id: 'b' },
          ],
        }),
      );
      await h.runtime.converge();
      await destroyCluster('a');
      await h.runtime.converge();
      expect(await ids(h, Node.kind())).toEqual(['shared']);

      await destroyCluster('b');
      const report = await h.runtime.converge();
      expect(report.errors).toBe(0);
      expect(await ids(h, Node.kind())).toEqual([]);
    });
  });

  describe('foreground deletion (blockOwnerDeletion)', () => {
    it('holds the owner with a finalizer until its blocking objects are gone', async () => {
      await project({ blockOwnerDeletion: true });
      await h.state.create(Cluster.create('a'));
      await h.runtime.converge();
      expect((await h.state.get(Cluster.pointer('a'))).metadata.finalizers).toEqual([
        'cosi.dev/garbage-collector',
      ]);

      await h.state.teardown(Cluster.pointer('a'));
      const report = await h.runtime.converge();
      expect(report.errors).toBe(0);
      expect(await ids(h, Node.kind())).toEqual([]);
      expect((await h.state.get(Cluster.pointer('a'))).metadata.finalizers).toEqual([]);
      await h.state.destroy(Cluster.pointer('a'));
    });

    it('keeps the owner while another finalizer holds a blocking object', async () => {
      await project({ blockOwnerDeletion: true });
      await h.state.create(Cluster.create('a', { size: 1 }));
      await h.runtime.converge();
      await h.state.addFinalizer(Node.pointer('a-1'), 'drain');
      await h.state.teardown(Cluster.pointer('a'));
      await h.runtime.converge();
      expect((await h.state.get(Node.pointer('a-1'))).metadata.phase).toBe('tearingDown');
      expect((await h.state.get(Cluster.pointer('a'))).metadata.finalizers).toEqual([
        'cosi.dev/garbage-collector',
      ]);
      await expect(h.state.destroy(Cluster.pointer('a'))).rejects.toMatchObject({
        code: 'conflict',
      });

      await h.state.removeFinalizer(Node.pointer('a-1'), 'drain');
      await h.runtime.converge();
      expect(await ids(h, Node.kind())).toEqual([]);
      expect((await h.state.get(Cluster.pointer('a'))).metadata.finalizers).toEqual([]);
    });

    it('releases a running owner once it has no blocking objects left', async () => {
      await project({ blockOwnerDeletion: true });
      await h.state.create(Cluster.create('a', { size: 1 }));
      await h.runtime.converge();
      await h.state.modify(Cluster.create('a'), (c) => {
        c.spec.size = 0;
      });
      // The reconciler does not remove nodes: do it by hand, as the controller's owner would.
      await h.state.teardown(Node.pointer('a-1'), { owner: 'cluster' });
      await h.state.destroy(Node.pointer('a-1'), { owner: 'cluster' });
      await h.runtime.converge();
      expect((await h.state.get(Cluster.pointer('a'))).metadata.finalizers).toEqual([]);
    });
  });
  describe('its finalizer', () => {
    it('is domain-qualified, as Kubernetes wants one: cosi.dev/<name> for a named collector', async () => {
      await h.runtime.register(
        createGarbageCollector({ name: 'gc', owners: [Cluster], dependents: [Node] }),
      );
      await h.state.create(Cluster.create('a', { size: 0 }));
      await h.state.create(
        Node.create('n', undefined, {
          ownerReferences: [
            { type: Cluster.type, id: 'a', controller: true, blockOwnerDeletion: true },
          ],
        }),
      );
      await h.runtime.converge();
      expect((await h.state.get(Cluster.pointer('a'))).metadata.finalizers).toEqual([
        'cosi.dev/gc',
      ]);
    });

    it('refuses a finalizer that is not domain-qualified', () => {
      expect(() =>
        createGarbageCollector({ finalizer: 'gc', owners: [Cluster], dependents: [Node] }),
      ).toThrow(/"gc" is not a domain-qualified name/);
      expect(() =>
        createGarbageCollector({ name: 'my gc', owners: [Cluster], dependents: [Node] }),
      ).toThrow(/give one with the finalizer option/);
    });

    /** A cluster held by the finalizer cosi wrote before it was qualified, with a blocking node. */
    async function heldByAnOlderCosi(id: string): Promise<void> {
      await h.state.create(Cluster.create(id, { size: 0 }, { finalizers: ['GarbageCollector'] }));
      await h.state.create(
        Node.create(`${id}-1`, undefined, {
          ownerReferences: [{ type: Cluster.type, id, controller: true, blockOwnerDeletion: true }],
        }),
      );
    }

    it('swaps the unqualified finalizer an older cosi put on a running owner for its own', async () => {
      await project({ blockOwnerDeletion: true });
      await heldByAnOlderCosi('a');
      const report = await h.runtime.converge();
      expect(report.errors).toBe(0);
      expect((await h.state.get(Cluster.pointer('a'))).metadata.finalizers).toEqual([
        'cosi.dev/garbage-collector',
      ]);
    });

    it('releases an owner tearing down under the unqualified finalizer of an older cosi', async () => {
      await project({ blockOwnerDeletion: true });
      await heldByAnOlderCosi('a');
      await h.state.addFinalizer(Node.pointer('a-1'), 'drain');
      await h.state.teardown(Cluster.pointer('a'));
      await h.runtime.converge();
      // Still held: its blocking node waits for its own finalizer.
      expect((await h.state.get(Node.pointer('a-1'))).metadata.phase).toBe('tearingDown');
      expect((await h.state.get(Cluster.pointer('a'))).metadata.finalizers).toEqual([
        'GarbageCollector',
      ]);

      await h.state.removeFinalizer(Node.pointer('a-1'), 'drain');
      const report = await h.runtime.converge();
      expect(report.errors).toBe(0);
      expect(await ids(h, Node.kind())).toEqual([]);
      expect((await h.state.get(Cluster.pointer('a'))).metadata.finalizers).toEqual([]);
      await h.state.destroy(Cluster.pointer('a'));
    });
  });
  describe('namespaces', () => {
    /** A cluster and a node it controls in `namespace`. */
    async function ownedIn(namespace: string): Promise<void> {
      await h.state.create(Cluster.create('a', { size: 0 }, { namespace }));
      await h.state.create(
        Node.create('a-1', undefined, {
          namespace,
          ownerReferences: [{ type: Cluster.type, id: 'a', controller: true }],
        }),
      );
    }
    const nodes = async (): Promise<string[]> =>
      (await h.state.list({ namespace: ALL_NAMESPACES, type: Node.type })).map(
        (n) => `${n.metadata.namespace}/${n.metadata.id}`,
      );

    it('given resource types, collects in every namespace, one that appears during the run too', async () => {
      await h.runtime.register(createGarbageCollector({ owners: [Cluster], dependents: [Node] }));
      await ownedIn('team-a');
      await h.runtime.converge();
      await ownedIn('team-b');
      await h.runtime.converge();
      expect(await nodes()).toEqual(['team-a/a-1', 'team-b/a-1']);

      for (const namespace of ['team-a', 'team-b']) {
        await h.state.teardown(Cluster.pointer('a', namespace));
        await h.state.destroy(Cluster.pointer('a', namespace));
      }
      const report = await h.runtime.converge();
      expect(report.errors).toBe(0);
      expect(await nodes()).toEqual([]);
    });

    it('given kinds, collects in their namespaces only', async () => {
      await h.runtime.register(
        createGarbageCollector({
          owners: [Cluster.kind('team-a')],
          dependents: [Node.kind('team-a')],
        }),
      );
      await ownedIn('team-a');
      await ownedIn('team-b');
      for (const namespace of ['team-a', 'team-b']) {
        await h.state.teardown(Cluster.pointer('a', namespace));
        await h.state.destroy(Cluster.pointer('a', namespace));
      }
      await h.runtime.converge();
      expect(await nodes()).toEqual(['team-b/a-1']);
    });
  });
});
