/**
 * A small project for the tests of cosi/testing, given as a config object: counters echoed by a
 * queue controller (`EchoController`), and a poller that requeues every counter every 10 s and
 * counts its visits in a `Visits` resource.
 */
import { defineResource, requeueAfter, type QController } from '../../src/index.js';
import type { ProjectConfig } from '../../src/loaders/project-config.js';

export const Counter = defineResource<{ value: number }>({
  type: 'Counters.test.cosi.dev',
  defaultSpec: () => ({ value: 0 }),
});
export const Echo = defineResource<{ value: number }>({
  type: 'Echoes.test.cosi.dev',
  defaultSpec: () => ({ value: 0 }),
});
export const Visits = defineResource<{ count: number }>({
  type: 'Visits.test.cosi.dev',
  defaultSpec: () => ({ count: 0 }),
});

export const ECHO = 'EchoController';
export const POLLER = 'PollerController';

const echo: QController = {
  name: ECHO,
  settings: {
    inputs: [{ namespace: Counter.namespace, type: Counter.type, kind: 'primary' }],
    outputs: [{ type: Echo.type, kind: 'exclusive' }],
  },
  async reconcile(rt, pointer) {
    const counter = await rt.find<{ value: number }>(pointer);
    if (!counter) {
      await rt.destroy(Echo.create(pointer.id).metadata).catch(() => undefined);
      return;
    }
    await rt.modify(Echo.create(pointer.id), (d) => {
      d.spec.value = counter.spec.value;
    });
  },
  mapInput: async () => [],
};

const poller: QController = {
  name: POLLER,
  settings: {
    inputs: [{ namespace: Counter.namespace, type: Counter.type, kind: 'primary' }],
    outputs: [{ type: Visits.type, kind: 'exclusive' }],
  },
  async reconcile(rt, pointer) {
    if (!(await rt.find(pointer))) return;
    await rt.modify(Visits.create(pointer.id), (d) => {
      d.spec.count += 1;
    });
    throw requeueAfter(10_000);
  },
  mapInput: async () => [],
};

export const echoConfig: ProjectConfig = {
  definitions: [Counter, Echo, Visits],
  controllers: [echo],
};
export const pollerConfig: ProjectConfig = {
  definitions: [Counter, Echo, Visits],
  controllers: [poller],
};

export const counters = (...values: number[]): object[] =>
  values.map((value, i) => ({
    metadata: { type: 'counter', id: `c${i + 1}` },
    spec: { value },
  }));
