/**
 * The API server keeps no `metadata.generation` for some kinds (ConfigMap, Secret, Service, ...):
 * on a cluster controller-runtime's `GenerationChangedPredicate` compares 0 with 0 and drops every
 * update of one, the well-known reason an `Owns(&ConfigMap{}, WithPredicates(GenerationChanged))`
 * never hears of a data change. cosi's state counts a generation for every resource; the builder,
 * told by the runtime which kinds have none, shows its predicates and handlers 0 for them.
 */
import { describe, expect, it } from 'vitest';
import {
  controllerManagedBy,
  createInMemoryState,
  createRuntime,
  defineResource,
  generationChanged,
  predicateFuncs,
  setControllerReference,
  SimulatedClock,
  type ResourceType,
} from '../../../src/index.js';

const App = defineResource<{ image: string }>({
  type: 'Apps.example.org',
  defaultSpec: () => ({ image: 'nginx' }),
  kubernetes: { apiVersion: 'example.org/v1', kind: 'App', namespaced: true },
});
/** Like a ConfigMap: no generation on a cluster. */
const Settings = defineResource<{ data: Record<string, string> }>({
  type: 'Settings.example.org',
  defaultSpec: () => ({ data: {} }),
  kubernetes: {
    apiVersion: 'example.org/v1',
    kind: 'Settings',
    namespaced: true,
    generation: false,
  },
});
/** Like a Deployment: a generation counted on every spec change. */
const Workload = defineResource<{ data: Record<string, string> }>({
  type: 'Workloads.example.org',
  defaultSpec: () => ({ data: {} }),
  kubernetes: { apiVersion: 'example.org/v1', kind: 'Workload', namespaced: true },
});

const KINDS: readonly ResourceType<unknown>[] = [App, Settings, Workload];

/**
 * `for(App).owns(owned, generationChanged)` on a runtime that knows the kinds (or not), with the
 * owned `web` of app `web`; returns the reconciles of `web` after a change of its data, and the
 * generations the owned watch's predicate saw on updates.
 */
async function reconcilesAfterDataChange(
  owned: ResourceType<{ data: Record<string, string> }>,
  knowsKinds = true,
): Promise<{ reconciles: number; generations: number[] }> {
  const clock = new SimulatedClock();
  const state = createInMemoryState({ now: () => clock.now() });
  const runtime = createRuntime(state, {
    clock,
    ...(knowsKinds
      ? {
          kubernetesKind: (type: string) =>
            KINDS.find((k) => k.type === type)?.definition.kubernetes,
        }
      : {}),
  });
  const generations: number[] = [];
  const seen = predicateFuncs({
    update: (e) => {
      generations.push(e.objectNew.metadata.generation);
      return true;
    },
  });
  let reconciles = 0;
  await controllerManagedBy(runtime)
    .for(App)
    .owns(owned, { predicates: [seen, generationChanged] })
    .complete(async () => {
      reconciles++;
    });
  const app = await state.create(App.create('web'));
  await state.create(
    (() => {
      const draft = owned.create('web');
      setControllerReference(app, draft);
      return draft;
    })(),
  );
  await runtime.converge();
  reconciles = 0;
  await state.modify(owned.create('web'), (d) => {
    d.spec.data = { level: 'debug' };
  });
  await runtime.converge();
  return { reconciles, generations };
}

describe('a builder watch of a kind without a generation', () => {
  it('sees generation 0, so generationChanged drops a data change, as on a cluster', async () => {
    expect(await reconcilesAfterDataChange(Settings)).toEqual({ reconciles: 0, generations: [0] });
  });

  it('of a kind with one sees the generation counted, and reconciles the owner', async () => {
    expect(await reconcilesAfterDataChange(Workload)).toEqual({ reconciles: 1, generations: [2] });
  });

  it('sees the state generation when the runtime does not know the kinds', async () => {
    expect(await reconcilesAfterDataChange(Settings, false)).toEqual({
      reconciles: 1,
      generations: [2],
    });
  });
});
