import {
  RESOURCE_DEFINITION_TYPE,
  resourceDefinitionDefinition,
  type ResourceDefinition,
} from '../engine/resource/definition.js';
import type { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { newResource } from '../engine/resource/resource.js';
import { isRegistrationError } from '../engine/errors.js';
import { SIMULATED_EPOCH, SimulatedClock } from '../engine/runtime/clock.js';
import type { LogRecord } from '../engine/runtime/logger.js';
import { createRuntime, type Runtime } from '../engine/runtime/runtime.js';
import { RunRecord } from '../engine/record/run-record.js';
import { createInMemoryState } from '../engine/state/in-memory-state.js';
import { ResourceApplier } from '../engine/state/resource-applier.js';
import type { State } from '../engine/state/state.js';
import { ConfigError, type LoadedConfig } from '../loaders/load-config.js';
import type { ManifestResource } from '../loaders/load-manifests.js';
import { displayPath } from './display-path.js';

/**
 * A started project: the manifests in a fresh in-memory state, the config's controllers
 * registered on a runtime over it, on a simulated clock. What `apply`, `get`, `check`, `graph`
 * and every `watch` round run on.
 */
export interface Project {
  readonly state: State;
  readonly runtime: Runtime;
  /** Every type the project knows: the built-in ones, the config's and the manifests'. */
  readonly registry: DefinitionRegistry;
  readonly clock: SimulatedClock;
  /** Keeps the manifests in the state: apply the next load to it, it writes the difference. */
  readonly applier: ResourceApplier;
  readonly config: LoadedConfig | undefined;
  /** With the `record` option: the record of everything the controllers did. */
  readonly record?: RunRecord;
}

/** The manifests a project starts from: a load without error findings. */
export interface ProjectManifests {
  /** The built-in types, the config's and the manifests' (the loader resolved types with it). */
  readonly registry: DefinitionRegistry;
  readonly resources: readonly ManifestResource[];
}

export interface OpenProjectOptions {
  /** Paths in error messages are shown relative to it. */
  readonly cwd: string;
  /** Start the simulated clock at a fixed epoch, so timestamps are reproducible. */
  readonly stable?: boolean;
  /** Controller logs. */
  readonly onLog?: (record: LogRecord) => void;
  /** Record every reconcile (for `cosi explain` and `--trace`): the project's `record`. */
  readonly record?: boolean;
}

/**
 * Starts a project: stores the definitions (as resources, so `cosi get rd` lists them) and the
 * manifests in a new state, and registers the config's controllers (and runs its `setup`). The
 * controllers do not run until the project converges.
 *
 * @throws ConfigError naming the config file when its controllers cannot be registered or its
 *   `setup` fails; nothing is left running then.
 */
export async function openProject(
  config: LoadedConfig | undefined,
  manifests: ProjectManifests,
  options: OpenProjectOptions,
): Promise<Project> {
  const { registry } = manifests;
  const clock = new SimulatedClock(options.stable ? SIMULATED_EPOCH : Date.now());
  const state = createInMemoryState({ now: () => clock.now() });
  const record =
    options.record === true
      ? new RunRecord({ now: () => clock.now(), wallNow: () => performance.now() })
      : undefined;
  const runtime = createRuntime(state, {
    clock,
    ...(options.onLog ? { logSink: options.onLog } : {}),
    ...(record ? { recorder: record } : {}),
  });
  const applier = new ResourceApplier(state);
  try {
    await storeDefinitions(state, registry.all());
    await applier.apply(manifests.resources);
    await registerControllers(runtime, config, options.cwd);
  } catch (error) {
    await runtime.stop();
    throw error;
  }
  return { state, runtime, registry, clock, applier, config, ...(record ? { record } : {}) };
}

/** Definitions are resources too, in the `meta` namespace, as in COSI. */
async function storeDefinitions(
  state: State,
  definitions: readonly ResourceDefinition[],
): Promise<void> {
  for (const d of definitions) {
    if (d.type === RESOURCE_DEFINITION_TYPE) continue;
    const { id, schema, ...spec } = d;
    await state.create(
      newResource(
        {
          namespace: resourceDefinitionDefinition.defaultNamespace,
          type: RESOURCE_DEFINITION_TYPE,
          id,
        },
        schema ? { ...spec, schema } : spec,
      ),
    );
  }
}

async function registerControllers(
  runtime: Runtime,
  loaded: LoadedConfig | undefined,
  cwd: string,
): Promise<void> {
  if (!loaded) return;
  const { config } = loaded;
  const file = displayPath(cwd, loaded.file);
  try {
    await runtime.register(...(config.controllers ?? []));
  } catch (error) {
    if (isRegistrationError(error)) throw new ConfigError(file, error.message, { cause: error });
    throw error;
  }
  try {
    await config.setup?.(runtime);
  } catch (error) {
    throw new ConfigError(file, `setup failed: ${(error as Error).message}`, { cause: error });
  }
}
