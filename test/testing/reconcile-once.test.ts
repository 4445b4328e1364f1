/**
 * `reconcileOnce`: one controller's code run once over the state as it is, as
 * controller-runtime's unit tests call `Reconcile` on a fake client seeded with objects, without
 * converging the whole project (which ran every controller to a fixpoint).
 */
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createTestProject,
  expectConverged,
  expectNoResource,
  expectResource,
  type TestProject,
} from '../../src/testing/index.js';
import { type QController } from '../../src/index.js';
import { Counter, Echo, ECHO, POLLER, counters, echoConfig, pollerConfig } from './echo-project.js';

const REPO = path.resolve(import.meta.dirname, '../..');

const open: TestProject[] = [];
async function project(options: Parameters<typeof createTestProject>[0]): Promise<TestProject> {
  const p = await createTestProject({ cwd: REPO, ...options });
  open.push(p);
  return p;
}
afterEach(async () => {
  await Promise.all(open.splice(0).map((p) => p.close()));
});

const c = (id: string) => ({ namespace: 'default', type: 'Counters.test.cosi.dev', id });
const echo = (id: string) => ({ namespace: 'default', type: 'Echoes.test.cosi.dev', id });

describe('reconcileOnce of a queue controller', () => {
  it('reconciles the one item named, and writes only its output', async () => {
    const p = await project({ config: echoConfig, manifests: counters(3, 4) });
    const result = await p.reconcileOnce(ECHO, 'counter', 'c2');
    expect(result).toEqual({
      controller: ECHO,
      item: c('c2'),
      created: [echo('c2')],
      updated: [],
      tornDown: [],
      destroyed: [],
      requeued: false,
    });
    await expectResource(p, Echo, 'c2', { value: 4 });
    // c1 was not reconciled: nothing converged.
    await expectNoResource(p, Echo, 'c1');
    // Run again over what it wrote: no change.
    expect((await p.reconcileOnce(ECHO, Counter, 'c2')).updated).toEqual([]);
  });

  it('answers the requeue it asked for instead of acting on it', async () => {
    const p = await project({ config: pollerConfig, manifests: counters(1) });
    const result = await p.reconcileOnce(POLLER, 'counter', 'c1');
    expect(result.requeued).toBe(true);
    expect(result.requeueAfter).toBe(10_000);
    expect(result.created.map((r) => r.type)).toEqual(['Visits.test.cosi.dev']);
    // Nothing was scheduled: the clock did not move, and a second call visits once more.
    await p.reconcileOnce(POLLER, 'counter', 'c1');
    expect((await p.get<{ count: number }>('Visits.test.cosi.dev', 'c1'))?.spec.count).toBe(2);
    expect(p.now()).toBe(Date.UTC(2025, 0, 1));
  });

  it('returns what it threw, with where in the project code, not retried', async () => {
    const p = await project({ manifests: 'fixtures/cli/failing-controller' });
    const result = await p.reconcileOnce('EchoController', 'counter', 'start');
    expect(result.error?.message).toBe('cannot echo start: one is a lonely number');
    expect(result.location).toMatchObject({
      file: 'fixtures/cli/failing-controller/cosi.config.ts',
      line: 15,
    });
    expect(result.created).toEqual([]);
  });

  it('answers a reconcile that never settles as an error after stallTimeout', async () => {
    const hanging: QController = {
      name: 'HangingController',
      settings: {
        inputs: [{ namespace: Counter.namespace, type: Counter.type, kind: 'primary' }],
        outputs: [{ type: Echo.type, kind: 'exclusive' }],
      },
      reconcile: () => new Promise<void>(() => undefined),
      mapInput: async () => [],
    };
    const p = await project({
      config: { definitions: [Counter, Echo], controllers: [hanging] },
      manifests: counters(1),
      stallTimeout: 100,
    });
    const result = await p.reconcileOnce('HangingController', 'counter', 'c1');
    expect(result.error?.message).toContain(
      'HangingController was still running (on Counters.test.cosi.dev(default/c1)) after 100 ms',
    );
  });
});

describe('reconcileOnce of a whole-world controller (a transform)', () => {
  it('runs one pass over every input, and no other controller', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    const result = await p.reconcileOnce('vmnet.NetworkConfigController');
    expect(result.item).toBeUndefined();
    expect(result.error).toBeUndefined();
    expect(result.created.map((r) => `${r.type}/${r.id}`)).toEqual([
      'NetworkConfigs.example.org/db-1',
      'NetworkConfigs.example.org/web-1',
      'NetworkConfigs.example.org/web-2',
    ]);
    // Its finalizers on the VMs (inputFinalizers) are writes too.
    expect(result.updated.map((r) => r.type)).toEqual([
      'VMs.example.org',
      'VMs.example.org',
      'VMs.example.org',
    ]);
    await expectResource(p, 'NetworkConfig', 'web-1', { bridge: 'br-debian' });
    // The placement controller did not run.
    expect(await p.list('Placement')).toEqual([]);
    // The project converges from there as from the start.
    expectConverged(await p.converge());
    await expectResource(p, 'Placement', 'db-1', { host: 'node-b' });
  });

  it('holds the other controllers once the project has run, until the next converge', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    expectConverged(await p.converge());
    await p.edit<{ image: string }>('vm', 'web-1', (d) => {
      d.spec.image = 'alpine';
    });
    const result = await p.reconcileOnce('vmnet.NetworkConfigController');
    expect(result.updated).toEqual([
      { namespace: 'default', type: 'NetworkConfigs.example.org', id: 'web-1' },
    ]);
    expectConverged(await p.converge());
    await expectResource(p, 'NetworkConfig', 'web-1', { bridge: 'br-alpine' });
  });
});

describe('reconcileOnce misused', () => {
  it('names the controllers there are for an unknown name, and the item a kind takes', async () => {
    const p = await project({ manifests: 'fixtures/vm-network' });
    await expect(p.reconcileOnce('vmnet.NetworkController')).rejects.toThrow(
      'no controller is named "vmnet.NetworkController" (the controllers: vmnet.NetworkConfigController, PlacementController',
    );
    await expect(p.reconcileOnce('vmnet.NetworkConfigController', 'vm', 'web-1')).rejects.toThrow(
      'is a whole-world controller: each pass reconciles all its inputs; run it without an item',
    );
    const q = await project({ config: echoConfig, manifests: counters(1) });
    await expect(q.reconcileOnce(ECHO)).rejects.toThrow(
      'EchoController is a queue controller: it reconciles one item at a time; name the item',
    );
  });
});
