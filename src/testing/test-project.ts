import { compareStrings } from '../engine/compare-strings.js';
import {
  TypeResolutionError,
  type DefinitionRegistry,
} from '../engine/resource/definition-registry.js';
import { formatPointer, pointerKey, type Pointer } from '../engine/resource/pointer.js';
import type { ResourceDefinition } from '../engine/resource/definition.js';
import type { Resource } from '../engine/resource/resource.js';
import { SIMULATED_EPOCH, SimulatedClock } from '../engine/runtime/clock.js';
import type { ConvergenceReport } from '../engine/runtime/convergence.js';
import type { LogRecord } from '../engine/runtime/logger.js';
import { takeSnapshot } from '../engine/state/state-snapshot.js';
import type { Finding } from '../loaders/finding.js';
import { didYouMeanType } from '../loaders/did-you-mean.js';
import { rgdTypeNote } from '../loaders/kro/rgd-type-name.js';
import { observedStatusId } from '../engine/resource/observed-status.js';
import { resourceGraphOf } from '../loaders/kro/resource-graph-definition.js';
import { declaredTransformsOf } from '../loaders/transforms/transform-document.js';
import type { PriorState } from '../loaders/cel/prior-state.js';
import {
  parseKubernetesRelease,
  type KubernetesRelease,
} from '../loaders/kubernetes/kubernetes-release.js';
import type { LoadedConfig } from '../loaders/load-config.js';
import type { ManifestFile, ManifestResource } from '../loaders/manifest-resource.js';
import { explainResource, type Explanation } from '../app/explain/explain-resource.js';
import { resourceGraphsOf } from '../app/explain/template-origins.js';
import { parseDurationText } from '../app/parse-duration.js';
import type { Project } from '../app/project.js';
import { ProjectSession } from '../app/project-session.js';
import type { UserCodeMonitor } from '../app/user-code-site.js';
import { absenceTarget } from './absence-target.js';
import { appliedResources, type AppliedResources } from './applied-resources.js';
import { withConfigContext } from './config-context.js';
import { ControllerFaults } from './controller-faults.js';
import { createFaultyState, type FaultInjector } from './fault-state.js';
import { asMisuse, failAtCaller } from './assertion-error.js';
import {
  ManifestError,
  loadManifestFiles,
  loadManifestInput,
  manifestPaths,
  type LoadedInput,
  type LoadInputOptions,
  type ManifestInput,
} from './manifest-input.js';
import { projectFindings } from './project-findings.js';
import { changesBetween, versionsOf, type ReconcileResult } from './reconcile-once.js';
import { resolveTestConfig, type TestConfig } from './test-config.js';
import { typeName, type TypeRef } from './spec-expectation.js';

/** How long a test project's convergence waits on a stuck controller, wall ms. */
const DEFAULT_STALL_TIMEOUT = 2_000;

/** The `code` of the error {@link TestProject.edit} and {@link TestProject.destroy} throw for an id that is no manifest. */
export const NOT_A_MANIFEST = 'not-a-manifest';
/** The `code` of the error of an apply of an RGD or transform the project did not start with. */
export const DECLARED_CONTROLLER_CHANGED = 'declared-controller-changed';

/** An unknown type's error with the nearest type, alias or kind the project has, when one is near. */
function withSuggestedType(error: unknown, definitions: Iterable<ResourceDefinition>): unknown {
  if (!(error instanceof TypeResolutionError) || error.code !== 'unknown-type') return error;
  const rgd = rgdTypeNote(error.typeName);
  if (rgd !== undefined) {
    error.message += `: ${rgd}`;
    return error;
  }
  const guess = didYouMeanType(error.typeName, definitions);
  if (guess !== undefined) error.message += ` (did you mean ${JSON.stringify(guess)}?)`;
  return error;
}

/** Each RGD's and transform's source in a load, by a name that says which it is. */
function declaredSources(registry: DefinitionRegistry): Map<string, string> {
  const sources = new Map<string, string>();
  for (const definition of registry.all()) {
    const graph = resourceGraphOf(definition);
    if (graph !== undefined) {
      sources.set(`the ResourceGraphDefinition ${graph.name}`, JSON.stringify(graph.source));
    }
  }
  for (const transform of declaredTransformsOf(registry)) {
    sources.set(`the transform ${transform.name}`, JSON.stringify(transform.source));
  }
  return sources;
}

/** What {@link createTestProject} takes. */
export interface TestProjectOptions {
  /** The project's config: see {@link TestConfig}. */
  readonly config?: TestConfig;
  /**
   * The manifests it starts from: see {@link ManifestInput}. Omitted, those the config names
   * (`manifests: []` for none).
   */
  readonly manifests?: ManifestInput;
  /** Paths are relative to it, and findings name files relative to it (default: the process's). */
  readonly cwd?: string;
  /** The Kubernetes release of the built-in kinds (`'1.30'`; default: the newest cosi has). */
  readonly kubernetesVersion?: string;
  /** Write bound of each convergence (default: as `cosi apply`). */
  readonly maxWrites?: number;
  /**
   * Simulated ms each convergence may take (default 1 h). A controller stuck on a promise that
   * never settles is waited for in wall time, up to `stallTimeout` and never past this.
   */
  readonly timeout?: number;
  /**
   * Wall ms a convergence waits on a controller that nothing in the run moves (a reconcile
   * awaiting a promise that never settles) before it stops and names the controller and its
   * resource (default 2 s: within the 5 s a test may take in vitest and jest, so the test fails
   * with that name rather than the runner's bare timeout).
   */
  readonly stallTimeout?: number;
  /** Controller logs (default: none). */
  readonly onLog?: (record: LogRecord) => void;
}

/** What a project starts from: its options, and how its manifest paths are read. */
type StartOptions = TestProjectOptions &
  Pick<LoadInputOptions, 'ignore' | 'definitionPaths' | 'schemaLocations'>;

/** Which resource a call means: a type (or alias) and an id, in the type's default namespace. */
export interface ResourceOptions {
  readonly namespace?: string;
}

/** What an edit may change of a manifest: its labels, annotations and spec. */
export interface ManifestDraft<S = unknown> {
  labels: Record<string, string>;
  annotations: Record<string, string>;
  spec: S;
}

/**
 * A project for a test: the config's controllers over the manifests, on the in-memory state with
 * a simulated clock (backoffs and requeues cost no wall time, timestamps are reproducible), and
 * every reconcile recorded for {@link explain}. Made by {@link createTestProject}.
 *
 * Nothing runs until {@link converge} (or {@link advance}); {@link apply}, {@link edit} and
 * {@link destroy} change the manifests as a user would, and the next convergence reacts.
 */
export class TestProject {
  readonly #session: ProjectSession;
  readonly #clock: SimulatedClock;
  readonly #options: StartOptions & { readonly cwd: string };
  readonly #release: KubernetesRelease | undefined;
  /** The manifests applied, by key. */
  readonly #manifests = new Map<string, ManifestResource>();
  /** Every manifest applied, destroyed since or not: where absence checks may look. */
  readonly #applied = new Map<string, Pointer>();
  #loadFindings: readonly Finding[];
  /** The RGDs and transforms the project started with, whose controllers run: source by name. */
  readonly #declared: ReadonlyMap<string, string>;
  #report: ConvergenceReport | undefined;
  #reportOfSpan = false;
  #applies = 0;

  /** @internal Made by {@link createTestProject}. */
  constructor(
    session: ProjectSession,
    clock: SimulatedClock,
    loaded: LoadedInput,
    options: StartOptions & { readonly cwd: string },
    release: KubernetesRelease | undefined,
    /** Fault injection into the state's writes: fail, conflict or stall by predicate. */
    readonly faults: FaultInjector,
    /** Fault injection into controllers: make a controller's next reconcile throw. */
    readonly controllers: ControllerFaults,
  ) {
    this.#session = session;
    this.#clock = clock;
    this.#options = options;
    this.#release = release;
    this.#loadFindings = loaded.findings;
    this.#declared = declaredSources(loaded.registry);
    for (const r of loaded.resources) this.#keep(r);
  }

  /** The running project: its state, runtime, registry, clock. */
  get project(): Project {
    return this.#session.project;
  }

  /** The directory the project's relative paths are read from (its `cwd` option). */
  get cwd(): string {
    return this.#options.cwd;
  }

  /** The config the controllers come from (`undefined`: none). */
  get config(): LoadedConfig | undefined {
    return this.#session.config;
  }

  /** The simulated clock's time, ms since the epoch. */
  now(): number {
    return this.#clock.now();
  }

  /**
   * The report of the last convergence, or of the last {@link advance} or {@link step} (what the
   * controllers did meanwhile and how they are at its end: failing, still busy, settled);
   * `undefined` before the first.
   */
  get lastReport(): ConvergenceReport | undefined {
    return this.#report;
  }

  /**
   * Whether {@link lastReport} is of a span of simulated time the test chose (an {@link advance},
   * a wait's {@link step}), not of a convergence: its `max-time` is the span's end with work still
   * due (a poller's next visit), not a bound the controllers hit.
   */
  get lastReportIsOfSpan(): boolean {
    return this.#reportOfSpan;
  }

  /**
   * Runs the controllers until nothing is left to do or a bound is hit, on the simulated clock
   * (timers due meanwhile fire without wall time passing); manifests an apply dropped are
   * destroyed once released. The report says whether it converged, and why not.
   */
  async converge(): Promise<ConvergenceReport> {
    this.#report = await this.#session.converge();
    this.#reportOfSpan = false;
    return this.#report;
  }

  /**
   * Adds or replaces manifests (by type, namespace and id), as `kubectl apply` does; the others
   * stay. Nothing runs until the next {@link converge}.
   *
   * @throws ManifestError with every finding when the manifests have errors; nothing is applied.
   */
  async apply(input: ManifestInput): Promise<AppliedResources> {
    // Only the frame of the method is looked for on the stack: it is never called unbound.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    return await failAtCaller(TestProject.prototype.apply, async () =>
      this.#applyLoaded(
        await loadManifestInput(input, { ...this.#loadOptions(), label: this.#nextLabel() }),
      ),
    );
  }

  /**
   * {@link apply} of manifest files given as text, named as given: a scenario's inline documents,
   * at their file and line.
   */
  async applyFiles(files: readonly ManifestFile[]): Promise<AppliedResources> {
    return this.#applyLoaded(loadManifestFiles(files, this.#loadOptions()));
  }

  /**
   * Changes one manifest: `fn` edits a copy of its labels, annotations and spec; the result is
   * checked as a manifest is (schema, CEL rules) and applied. Nothing runs until the next
   * {@link converge}.
   *
   * @throws Error (`code` `'not-a-manifest'`) when there is no such manifest; ManifestError
   *   when the edit makes it invalid.
   */
  async edit<S = Record<string, unknown>>(
    type: TypeRef<S>,
    id: string,
    fn: (draft: ManifestDraft<S>) => void,
    options: ResourceOptions = {},
  ): Promise<AppliedResources> {
    // Only the frame of the method is looked for on the stack: it is never called unbound.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    return await failAtCaller(TestProject.prototype.edit, () => this.#edit(type, id, fn, options));
  }

  async #edit<S>(
    type: TypeRef<S>,
    id: string,
    fn: (draft: ManifestDraft<S>) => void,
    options: ResourceOptions,
  ): Promise<AppliedResources> {
    const manifest = await this.#manifest(type, id, options, 'edit');
    const { metadata, spec } = manifest.resource;
    const draft: ManifestDraft<S> = {
      labels: { ...metadata.labels },
      annotations: { ...metadata.annotations },
      spec: structuredClone(spec) as S,
    };
    fn(draft);
    const document = {
      metadata: {
        namespace: metadata.namespace,
        type: metadata.type,
        id: metadata.id,
        ...(Object.keys(draft.labels).length > 0 ? { labels: draft.labels } : {}),
        ...(Object.keys(draft.annotations).length > 0 ? { annotations: draft.annotations } : {}),
      },
      spec: draft.spec,
    };
    // The document is nowhere but here: its findings name the edit, not a line of it.
    const label = `edit ${formatPointer(manifest.resource.metadata)}`;
    let loaded: LoadedInput;
    try {
      loaded = await loadManifestInput([document], { ...this.#loadOptions(), label });
    } catch (error) {
      if (!(error instanceof ManifestError)) throw error;
      throw new ManifestError(
        error.findings.map((f) => (f.file === `<${label}>` ? { ...f, line: 0, col: 0 } : f)),
      );
    }
    return this.#applyLoaded(loaded);
  }

  /**
   * Removes manifests, as deleting them from the tree would: each is torn down now, and
   * destroyed by the next {@link converge} once the controllers have released it (their
   * finalizers removed). See `teardownAndDestroy` for a call that waits for that.
   *
   * @throws Error (`code` `'not-a-manifest'`) when one of them is not a manifest.
   */
  async destroy(
    type: TypeRef,
    ids: string | readonly string[],
    options: ResourceOptions = {},
  ): Promise<AppliedResources> {
    // Only the frame of the method is looked for on the stack: it is never called unbound.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    return await failAtCaller(TestProject.prototype.destroy, async () => {
      for (const id of typeof ids === 'string' ? [ids] : ids) {
        this.#manifests.delete((await this.#manifest(type, id, options, 'destroy')).key);
      }
      return appliedResources(
        await this.#session.applyEdit({ resources: [...this.#manifests.values()] }),
      );
    });
  }

  /** The resource, or `undefined` when there is none. */
  async get<S = unknown>(
    type: TypeRef<S>,
    id: string,
    options: ResourceOptions = {},
  ): Promise<Resource<S> | undefined> {
    try {
      return await this.project.state.get<S>(this.pointer(type, id, options));
    } catch (error) {
      if ((error as { code?: unknown }).code === 'not-found') return undefined;
      throw error;
    }
  }

  /** The resources of a type, sorted by id. */
  async list<S = unknown>(type: TypeRef<S>, options: ResourceOptions = {}): Promise<Resource<S>[]> {
    const { namespace, type: resolved } = this.pointer(type, '', options);
    return this.project.state.list<S>({ namespace, type: resolved });
  }

  /** Every resource of the state but the definitions, sorted by type, namespace and id. */
  async resources(): Promise<readonly Resource[]> {
    return (await takeSnapshot(this.project.state)).resources;
  }

  /**
   * Why a resource is as it is, or why it is missing: its lineage back to the manifests, its
   * versions, who set each field, as `cosi explain` shows it.
   */
  async explain(type: TypeRef, id: string, options: ResourceOptions = {}): Promise<Explanation> {
    const { project } = this;
    if (!project.record) throw new Error('the project records no run');
    const manifests = this.#manifests;
    const graphs = resourceGraphsOf(project.registry);
    return explainResource(
      {
        record: project.record,
        resources: await this.resources(),
        manifests: (key) => manifests.get(key),
        graph: project.runtime.dependencyGraph(),
        ...(this.#report ? { report: this.#report } : {}),
        resourceGraph: (controller) => graphs.get(controller),
      },
      this.pointer(type, id, options),
    );
  }

  /**
   * What `cosi check` would report now: the manifests' warnings, controllers that failed (or
   * recovered) in the last convergence, a convergence that did not settle.
   */
  findings(): Promise<readonly Finding<string>[]> {
    return projectFindings({
      config: this.config,
      cwd: this.#options.cwd,
      manifests: [...this.#manifests.values()],
      loadFindings: this.#loadFindings,
      project: this.project,
      report: this.#report,
    });
  }

  /**
   * Runs ONE controller's code once over the state as it is, as controller-runtime's unit tests
   * call `Reconcile` on a fake client: a queue controller's `reconcile` of the item `type`/`id`,
   * or, without an item, one pass of a whole-world controller (a transform's: every input). No
   * other controller runs, and nothing converges; its requeue or error is returned, not retried.
   * The others see what it wrote at the next {@link converge} or {@link advance}.
   *
   * @example
   * const result = await project.reconcileOnce('example.AppConfigController');
   * // result.created: [{ namespace: 'default', type: 'AppConfigs.example.org', id: 'web' }]
   * @throws Error when no controller has that name, or the item does not fit its kind (a queue
   *   controller needs one, a whole-world controller takes none).
   */
  async reconcileOnce(
    controller: string,
    type?: TypeRef,
    id?: string,
    options: ResourceOptions = {},
  ): Promise<ReconcileResult> {
    // Only the frame of the method is looked for on the stack: it is never called unbound.
    // eslint-disable-next-line @typescript-eslint/unbound-method
    return await failAtCaller(TestProject.prototype.reconcileOnce, async () => {
      if ((type === undefined) !== (id === undefined)) {
        throw asMisuse(new Error('reconcileOnce: name the item by both its type and its id'));
      }
      const item = type === undefined ? undefined : this.pointer(type, id ?? '', options);
      const before = versionsOf(await this.resources());
      const outcome = await this.project.runtime
        .reconcileOnce(controller, item, { maxStall: this.#stallTimeout })
        .catch((error: unknown) => {
          throw asMisuse(error as Error);
        });
      return {
        controller,
        ...(item === undefined ? {} : { item }),
        ...changesBetween(before, await this.resources()),
        ...outcome,
      };
    });
  }

  /**
   * Moves the simulated clock on by `duration` (ms, or `'30s'`, `'5m'`), firing every timer that
   * falls due in order and letting the controllers run after each, as that much time passing
   * would; what is scheduled later stays pending. Starts the controllers if no convergence has.
   * A reconcile still running after `stallTimeout` of wall time with nothing else to do ends it
   * early, named in {@link lastReport} as a convergence names it.
   */
  async advance(duration: number | string): Promise<void> {
    const ms = typeof duration === 'number' ? duration : parseDurationText(duration);
    // Finite too: the clock would be at Infinity for good, every later timestamp with it.
    if (ms === undefined || !(ms >= 0) || !Number.isFinite(ms)) {
      // A number as it is (`NaN`, `Infinity`): JSON has neither, and shows them as null.
      const shown = typeof duration === 'number' ? String(duration) : JSON.stringify(duration);
      throw new RangeError(
        `advance: invalid duration ${shown} (expected ms, or e.g. 30s, 10m, 1h)`,
      );
    }
    const { runtime } = this.project;
    await runtime.start();
    const mark = runtime.mark();
    runtime.resume();
    const target = this.#clock.now() + ms;
    const stall = this.#stallTimeout;
    // A reconcile that never ends (a promise that never settles) ends the span after
    // `stallTimeout`, named in the report, as it ends a convergence: not the runner's timeout.
    let settled = await runtime.settle(stall);
    while (settled) {
      const next = this.#clock.nextTimerAt();
      if (next === undefined || next > target) break;
      this.#clock.advanceTo(next);
      settled = await runtime.settle(stall);
    }
    if (settled) {
      this.#clock.advanceTo(target);
      await runtime.settle(stall);
    }
    this.#report = runtime.reportSince(mark);
    this.#reportOfSpan = true;
  }

  /**
   * Fires the next pending timer (a backoff, a requeue) if it is due by `deadline`, and lets the
   * controllers run; `false` when there is none. What waiting on the simulated clock is made of.
   */
  async step(deadline = Number.POSITIVE_INFINITY): Promise<boolean> {
    const { runtime } = this.project;
    await runtime.start();
    const mark = runtime.mark();
    runtime.resume();
    const settled = await runtime.settle(this.#stallTimeout);
    const next = this.#clock.nextTimerAt();
    // Work that never ends holds the project as it is: no timer moves it on.
    const moved = settled && next !== undefined && next <= deadline;
    if (moved) {
      this.#clock.advanceTo(next);
      await runtime.settle(this.#stallTimeout);
    }
    this.#report = runtime.reportSince(mark);
    this.#reportOfSpan = true;
    return moved;
  }

  /** Wall ms a span waits on work that nothing moves (the `stallTimeout` option). */
  get #stallTimeout(): number {
    return this.#options.stallTimeout ?? DEFAULT_STALL_TIMEOUT;
  }

  /** Stops the controllers. Idempotent. */
  close(): Promise<void> {
    return this.#session.close();
  }

  /** `close`, for `await using project = await createTestProject(...)`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /**
   * The pointer of a resource: its type resolved by any alias (a type no definition has, written
   * by controllers, by its exact name), in the type's default namespace unless given. A
   * cluster-scoped kind's namespace is ignored, as kubectl ignores `-n` for one.
   *
   * @throws TypeResolutionError for an unknown or ambiguous type.
   */
  pointer(typeRef: TypeRef, id: string, options: ResourceOptions = {}): Pointer {
    const type = typeName(typeRef);
    const { registry } = this.project;
    let resolved: string;
    let namespace = options.namespace;
    try {
      const definition = registry.resolve(type);
      resolved = definition.type;
      if (definition.kubernetes?.namespaced === false) namespace = undefined;
      namespace ??= definition.defaultNamespace;
    } catch (error) {
      if (!(error instanceof TypeResolutionError) || !type.includes('.')) {
        throw withSuggestedType(error, registry.all());
      }
      resolved = type;
    }
    return { namespace: namespace ?? 'default', type: resolved, id };
  }

  /**
   * {@link pointer} for a check that the resource is not there, which only means something for
   * a type and a namespace the project has had: a misspelt one would make it pass whatever
   * happens. What `expectNoResource`, `assertNoResource` and `not.toHaveResource` check first.
   *
   * @throws UnknownTargetError for a type no definition has and no resource ever had, or a
   *   namespace no resource ever lived in and no type defaults to (with the nearest known name).
   */
  async absentPointer(type: string, id: string, options: ResourceOptions = {}): Promise<Pointer> {
    const { registry, record } = this.project;
    return absenceTarget(type, (t) => this.pointer(t, id, options), {
      registry,
      resources: await this.resources(),
      manifests: this.#applied.values(),
      ...(record ? { record } : {}),
    });
  }

  #keep(manifest: ManifestResource): void {
    this.#manifests.set(manifest.key, manifest);
    this.#applied.set(manifest.key, manifest.resource.metadata);
  }

  async #manifest(
    type: TypeRef,
    id: string,
    options: ResourceOptions,
    verb: string,
  ): Promise<ManifestResource> {
    const pointer = this.pointer(type, id, options);
    const found = this.#manifests.get(pointerKey(pointer));
    if (found) return found;
    const ids = [...this.#manifests.values()]
      .filter((m) => m.resource.metadata.type === pointer.type)
      .map((m) => m.resource.metadata.id)
      .sort(compareStrings);
    // What an RGD renders is its controller's: what a cluster would report of it is an observed
    // status, which a step can apply or edit.
    const rendered = await this.get(pointer.type, id, pointer);
    const owner = rendered?.metadata.owner ?? '';
    const hint = owner.startsWith('ResourceGraph(')
      ? `; it is rendered by ${owner}: what a cluster would report of it is given as an observed status, applied as the object annotated cosi.dev/observed: "true" with its status, then edited as { type: observed, id: ${JSON.stringify(observedStatusId(pointer.type, id))} }`
      : '';
    throw asMisuse(
      Object.assign(
        new Error(
          `${verb}: ${pointer.type} ${pointer.namespace}/${id} is not a manifest of the project (its manifests of that type: ${ids.join(', ') || 'none'})${hint}`,
        ),
        { code: NOT_A_MANIFEST },
      ),
    );
  }

  #loadOptions() {
    // A later apply of paths reads them as the start did: the config's ignore, definition files
    // and schema locations (a scenario's and the config's).
    const { ignore, definitionPaths, schemaLocations } = this.#options;
    return {
      cwd: this.#options.cwd,
      config: this.config,
      ...(ignore ? { ignore } : {}),
      ...(definitionPaths ? { definitionPaths } : {}),
      ...(schemaLocations ? { schemaLocations } : {}),
      known: this.project.registry,
      ...(this.#release ? { kubernetesVersion: this.#release } : {}),
      previous: this.#previous,
    };
  }

  /**
   * The manifests applied so far as CEL transition rules see them: an apply of one is an update
   * of it, checked against it as the API server checks an update against the stored object.
   */
  readonly #previous: PriorState = {
    get: (key) => {
      const manifest = this.#manifests.get(key);
      return manifest === undefined ? undefined : { spec: manifest.resource.spec };
    },
  };

  #nextLabel(): string {
    return `apply ${++this.#applies}`;
  }

  async #applyLoaded(loaded: LoadedInput): Promise<AppliedResources> {
    // A controller cannot be added to a running project: an RGD or transform applied now would
    // define its kind and leave its instances unrendered, which no cluster does.
    for (const [name, source] of declaredSources(loaded.registry)) {
      const started = this.#declared.get(name);
      if (started === source) continue;
      throw asMisuse(
        Object.assign(
          new Error(
            `apply: ${name} is ${started === undefined ? 'not among' : 'changed from the one in'} the manifests the project started with: a test project runs the controllers of the RGDs and transforms it starts with, so its instances would never be rendered; give it in the project's (the scenario's) manifests`,
          ),
          { code: DECLARED_CONTROLLER_CHANGED },
        ),
      );
    }
    const { registry } = this.project;
    for (const definition of loaded.registry.all()) {
      if (!registry.has(definition.type)) registry.register(definition);
    }
    for (const r of loaded.resources) this.#keep(r);
    this.#loadFindings = [...this.#loadFindings, ...loaded.findings];
    return appliedResources(
      await this.#session.applyEdit({ resources: [...this.#manifests.values()] }),
    );
  }
}

/**
 * A project for a test, started and not yet run: the config's controllers registered over the
 * manifests, on an in-memory state whose writes can be made to fail ({@link TestProject.faults}),
 * on a simulated clock starting at 2025-01-01T00:00:00Z. Close it when done.
 *
 * @example
 * const project = await createTestProject({ manifests: 'fixtures/vm-network' });
 * try {
 *   expectConverged(await project.converge());
 *   await expectResource(project, 'NetworkConfig', 'web-1', { ip: '10.0.0.2' });
 * } finally {
 *   await project.close();
 * }
 * @throws ConfigError when the config cannot be loaded or registered; ManifestError when the
 *   manifests have errors.
 */
export async function createTestProject(options: TestProjectOptions = {}): Promise<TestProject> {
  const cwd = options.cwd ?? process.cwd();
  const config = await resolveTestConfig(options.config, {
    cwd,
    paths: manifestPaths(options.manifests),
  });
  // Manifests with errors fail at the test's call, their findings in the message.
  return await failAtCaller(createTestProject, () =>
    startTestProject(withConfigContext({ ...options, cwd }, config), config),
  );
}

/**
 * {@link createTestProject} with its config already loaded (`cosi test` finds a scenario's
 * config its own way), told to `monitor` when the project's code runs (in `cosi test`'s worker).
 */
export async function startTestProject(
  options: Omit<StartOptions, 'config'>,
  config: LoadedConfig | undefined,
  monitor?: UserCodeMonitor,
): Promise<TestProject> {
  const cwd = options.cwd ?? process.cwd();
  const release =
    options.kubernetesVersion === undefined
      ? undefined
      : parseKubernetesRelease(options.kubernetesVersion);
  const loaded = await loadManifestInput(options.manifests, {
    cwd,
    config,
    label: 'manifests',
    ...(release ? { kubernetesVersion: release } : {}),
    ...(options.ignore ? { ignore: options.ignore } : {}),
    ...(options.definitionPaths ? { definitionPaths: options.definitionPaths } : {}),
    ...(options.schemaLocations ? { schemaLocations: options.schemaLocations } : {}),
  });
  const clock = new SimulatedClock(SIMULATED_EPOCH);
  const state = createFaultyState({ clock });
  const controllers = new ControllerFaults();
  const session = await ProjectSession.open(
    config,
    { registry: loaded.registry, resources: loaded.resources },
    {
      cwd,
      stable: true,
      clock,
      state,
      record: true,
      onRuntime: (runtime) => {
        // Every controller, the config's, setup's (builder) and kro's, is registered through here.
        const register = runtime.register.bind(runtime);
        runtime.register = (...registered) =>
          register(...registered.map((c) => controllers.wrap(c)));
      },
      ...(release ? { kubernetesVersion: release } : {}),
      ...(options.maxWrites !== undefined ? { maxWrites: options.maxWrites } : {}),
      ...(options.timeout !== undefined ? { timeout: options.timeout } : {}),
      maxStall: options.stallTimeout ?? DEFAULT_STALL_TIMEOUT,
      // A later step may apply an observed status: the RGD controllers read them from the start.
      observeStatus: true,
      ...(options.onLog ? { onLog: options.onLog } : {}),
      ...(monitor ? { monitor } : {}),
    },
  );
  return new TestProject(
    session,
    clock,
    loaded,
    { ...options, cwd },
    release,
    state.faults,
    controllers,
  );
}
