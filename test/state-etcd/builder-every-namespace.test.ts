/**
 * A builder controller and the garbage collector on etcd see their types in every namespace, as
 * controller-runtime's do on a cluster: Apps in two namespaces, one of them new while the runtime
 * runs, each get their ConfigMap, and the one of an App that goes is collected. A kind's keys are
 * under its namespace's on etcd, so this is the watch of the state's whole range at work.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ALL_NAMESPACES,
  controllerManagedBy,
  createEtcdState,
  createGarbageCollector,
  createRuntime,
  defineResource,
  findById,
  setControllerReference,
  SimulatedClock,
} from '../../src/index.js';
import { convergeUntilIdle } from '../support/converge-until-idle.js';
import { etcdAvailable, startEtcd, type EtcdServer } from '../support/etcd-server.js';

const App = defineResource<{ greeting: string }>({
  type: 'Apps.every.cosi.dev',
  defaultSpec: () => ({ greeting: '' }),
});
const Config = defineResource<{ greeting: string }>({
  type: 'Configs.every.cosi.dev',
  defaultSpec: () => ({ greeting: '' }),
});

describe.skipIf(!etcdAvailable)('the builder and the garbage collector on etcd', () => {
  vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });
  let server: EtcdServer;
  beforeAll(async () => {
    server = await startEtcd();
  });
  afterAll(async () => {
    await server.stop();
  });

  it('share one etcd watch among the watches of every namespace, whatever their types', async () => {
    const state = createEtcdState({ endpoints: [server.endpoint], prefix: '/every-shared' });
    /** The watchers etcd serves now (its own gauge). */
    const watchers = async (): Promise<number> => {
      const text = await (await fetch(`${server.endpoint}/metrics`)).text();
      return Number(/^etcd_debugging_mvcc_watcher_total (\d+)$/m.exec(text)?.[1]);
    };
    const stop = new AbortController();
    try {
      const before = await watchers();
      const seen: string[] = [];
      for (const type of [App.type, Config.type, 'Others.every.cosi.dev']) {
        await state.watchKind(
          { namespace: ALL_NAMESPACES, type },
          (event) => {
            if (event.type === 'created') seen.push(`${type} ${event.resource.metadata.id}`);
          },
          { signal: stop.signal, bootstrap: true },
        );
      }
      expect(await watchers()).toBe(before + 1);
      await state.create(Config.create('c', undefined, { namespace: 'team-z' }));
      await state.settled();
      await new Promise<void>((resolve) => setImmediate(resolve));
      expect(seen).toEqual([`${Config.type} c`]);
    } finally {
      stop.abort();
      await state.close();
    }
  });

  it('reconcile and collect in every namespace, one that appears while they run too', async () => {
    const state = createEtcdState({ endpoints: [server.endpoint], prefix: '/every-namespace' });
    const runtime = createRuntime(state, { clock: new SimulatedClock() });
    const configs = async (): Promise<string[]> =>
      (await state.list(Config.kind(ALL_NAMESPACES))).map(
        (c) => `${c.metadata.namespace}/${c.metadata.id} ${c.spec.greeting}`,
      );
    try {
      await state.create(App.create('web', { greeting: 'hello a' }, { namespace: 'team-a' }));
      await controllerManagedBy(runtime)
        .for(App)
        .owns(Config)
        .complete(async ({ client }, request) => {
          const app = await findById(client, App, request.id, request.namespace);
          if (!app || app.metadata.phase === 'tearingDown') return;
          const { namespace, id } = app.metadata;
          await client.modify(Config.create(id, undefined, { namespace }), (config) => {
            setControllerReference(app, config);
            config.spec.greeting = app.spec.greeting;
          });
        });
      await runtime.register(createGarbageCollector({ owners: [App], dependents: [Config] }));
      await convergeUntilIdle(runtime, () => state.settled());
      expect(await configs()).toEqual(['team-a/web hello a']);

      // A namespace the runtime has never seen a resource in.
      await state.create(App.create('web', { greeting: 'hello b' }, { namespace: 'team-b' }));
      await state.settled();
      await convergeUntilIdle(runtime, () => state.settled());
      expect(await configs()).toEqual(['team-a/web hello a', 'team-b/web hello b']);

      await state.teardown(App.pointer('web', 'team-a'));
      await state.destroy(App.pointer('web', 'team-a'));
      await state.settled();
      await convergeUntilIdle(runtime, () => state.settled());
      expect(await configs()).toEqual(['team-b/web hello b']);
    } finally {
      await runtime.stop();
      await state.close();
    }
  });
});
