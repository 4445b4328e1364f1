import { stat } from 'node:fs/promises';
import * as path from 'node:path';
import {
  RESOURCE_DEFINITION_TYPE,
  resourceDefinitionDefinition,
  type ResourceDefinition,
} from '../engine/resource/definition.js';
import { DefinitionRegistry } from '../engine/resource/definition-registry.js';
import { newResource } from '../engine/resource/resource.js';
import { applyResources } from '../engine/state/apply-resources.js';
import { createInMemoryState, type InMemoryState } from '../engine/state/in-memory-state.js';
import { SIMULATED_EPOCH, SimulatedClock } from '../engine/runtime/clock.js';
import type { ConvergenceReport } from '../engine/runtime/convergence.js';
import { isRegistrationError } from '../engine/runtime/errors.js';
import type { LogRecord } from '../engine/runtime/logger.js';
import { createRuntime, type Runtime } from '../engine/runtime/runtime.js';
import { hasErrors, type Finding } from '../loaders/finding.js';
import { ConfigError, findConfig, loadConfig, type LoadedConfig } from '../loaders/load-config.js';
import type { ManifestResource } from '../loaders/load-manifests.js';
import { readManifests } from '../loaders/manifest-reader.js';
import { CliError, EXIT } from './exit-codes.js';

/** What every command that loads a project takes. */
export interface ProjectOptions {
  /** Manifest files and directories (`-f`). */
  readonly files: readonly string[];
  /** `--config`; otherwise `cosi.config.*` in the first `-f` directory. */
  readonly config?: string;
  /** Start the simulated clock at a fixed epoch, so timestamps are reproducible. */
  readonly stable?: boolean;
  /** Virtual-time bound of the convergence run, ms. */
  readonly timeout?: number;
  readonly maxWrites?: number;
  /** Controller logs. */
  readonly onLog?: (record: LogRecord) => void;
  /** Load and validate only: do not run controllers. */
  readonly noRun?: boolean;
  /** Register the controllers (and run `setup`) but do not converge: enough for the graph. */
  readonly registerOnly?: boolean;
}

/** A loaded (and, unless told otherwise, converged) project. */
export interface ProjectRun {
  readonly findings: readonly Finding[];
  readonly files: readonly string[];
  readonly resources: readonly ManifestResource[];
  readonly registry: DefinitionRegistry;
  readonly state: InMemoryState;
  readonly runtime: Runtime;
  readonly config: LoadedConfig | undefined;
  /** Missing when the manifests had errors (controllers never ran), with `noRun` or `registerOnly`. */
  readonly report: ConvergenceReport | undefined;
  /** Wall-clock milliseconds of each step. */
  readonly timings: { readonly load: number; readonly converge: number };
}

/** The engine module, handed to configs as `cosi`. Imported lazily to keep the barrel acyclic. */
const engineModule = (): Promise<unknown> => import('../index.js');

/**
 * Loads the config and the manifests, puts the manifests in a fresh in-memory state, registers
 * the controllers and runs them to convergence on a simulated clock.
 *
 * @throws CliError (usage) when the config cannot be found, loaded or registered.
 */
export async function loadProject(options: ProjectOptions, cwd: string): Promise<ProjectRun> {
  const started = performance.now();
  const { file: configFile, config } = await loadProjectConfig(options, cwd);
  const read = await readManifests(options.files, {
    cwd,
    definitions: config?.definitions ?? [],
    ...(configFile ? { definitionsSource: displayPath(cwd, configFile) } : {}),
  });
  const registry = new DefinitionRegistry([
    resourceDefinitionDefinition,
    ...(config?.definitions ?? []),
    ...read.definitions,
  ]);

  const clock = new SimulatedClock(options.stable ? SIMULATED_EPOCH : Date.now());
  const state = createInMemoryState({ now: () => clock.now() });
  const runtime = createRuntime(state, {
    clock,
    ...(options.onLog ? { logSink: options.onLog } : {}),
  });
  const base = {
    findings: read.findings,
    files: read.files,
    resources: read.resources,
    registry,
    state,
    runtime,
    config,
  };
  const load = performance.now() - started;
  if (hasErrors(read.findings) || options.noRun) {
    return { ...base, report: undefined, timings: { load, converge: 0 } };
  }

  await storeDefinitions(state, registry.all());
  await applyResources(state, read.resources);
  await registerControllers(runtime, config, cwd);
  if (options.registerOnly) return { ...base, report: undefined, timings: { load, converge: 0 } };
  const converging = performance.now();
  const report = await runtime.converge({
    ...(options.timeout !== undefined ? { maxTime: options.timeout } : {}),
    maxWrites: options.maxWrites ?? defaultMaxWrites(read.resources.length),
  });
  await runtime.stop();
  return { ...base, report, timings: { load, converge: performance.now() - converging } };
}

/** The project's config file (if there is one) and what it exports. */
export interface ProjectConfigLoad {
  readonly file: string | undefined;
  readonly config: LoadedConfig | undefined;
}

/**
 * Finds (`--config`, or `cosi.config.*` in the first `-f` directory) and loads the config; a
 * fresh evaluation every time, so `watch` can call it again after an edit.
 *
 * @throws CliError (usage) when the config cannot be found or loaded.
 */
export async function loadProjectConfig(
  options: Pick<ProjectOptions, 'files' | 'config'>,
  cwd: string,
): Promise<ProjectConfigLoad> {
  const file = await resolveConfig(options, cwd);
  if (!file) return { file, config: undefined };
  try {
    return { file, config: await loadConfig(file, { modules: { cosi: await engineModule() } }) };
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new CliError(error.message.replace(file, displayPath(cwd, file)), EXIT.usage);
    }
    throw error;
  }
}

/** Enough for every resource to be rewritten many times, but a ping-pong still stops quickly. */
export function defaultMaxWrites(resources: number): number {
  return Math.max(10_000, resources * 50);
}

async function resolveConfig(
  options: Pick<ProjectOptions, 'files' | 'config'>,
  cwd: string,
): Promise<string | undefined> {
  if (options.config !== undefined) {
    const file = path.resolve(cwd, options.config);
    try {
      await stat(file);
    } catch {
      throw new CliError(`--config: ${options.config}: no such file`, EXIT.usage);
    }
    return file;
  }
  const first = options.files[0];
  if (first === undefined) return undefined;
  const dir = path.resolve(cwd, first);
  try {
    if (!(await stat(dir)).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  return findConfig(dir);
}

/** Definitions are resources too, in the `meta` namespace, as in COSI: `cosi get rd` lists them. */
export async function storeDefinitions(
  state: InMemoryState,
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

/**
 * Registers the config's controllers and runs its `setup`.
 * @throws CliError (usage) naming the config file when either fails.
 */
export async function registerControllers(
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
    if (isRegistrationError(error)) throw new CliError(`${file}: ${error.message}`, EXIT.usage);
    throw error;
  }
  try {
    await config.setup?.(runtime);
  } catch (error) {
    throw new CliError(`${file}: setup failed: ${(error as Error).message}`, EXIT.usage);
  }
}

/** A path as the user would write it: relative to the working directory when inside it. */
export function displayPath(cwd: string, file: string): string {
  const relative = path.relative(cwd, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative)
    ? relative
    : file;
}
