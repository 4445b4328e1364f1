import type { ResourceType } from '../resource/define-resource.js';
import { ALL_NAMESPACES } from '../resource/pointer.js';
import type { KubernetesKind } from '../resource/definition.js';
import type { Resource } from '../resource/resource.js';
import type { BackoffOptions } from '../runtime/backoff.js';
import type { Output } from '../runtime/controller.js';
import { isRegistrationError } from '../errors.js';
import type { Runtime } from '../runtime/runtime.js';
import {
  compileController,
  type CompiledController,
  type WatchSpec,
} from './compiled-controller.js';
import { didYouMean } from '../did-you-mean.js';
import { BuilderError } from './errors.js';
import type { ObjectLike, PartialObjectMetadata } from './events.js';
import { enqueueRequestForObject, enqueueRequestForOwner, type EventHandler } from './handlers.js';
import { Manager } from './manager.js';
import type { Predicate } from './predicates.js';
import { predicateProblem, predicatesProblem } from './predicate-problems.js';
import type { Reconciler } from './reconciler.js';
import type { Source } from './source.js';

/** Options of `watches` and `watchesMetadata`. */
export interface WatchesOptions<O extends ObjectLike> {
  /** This watch's predicates, run after the global ones (`withEventFilter`). */
  readonly predicates?: readonly Predicate<O>[];
  /**
   * The one namespace watched. Every namespace when omitted, as controller-runtime's cache
   * watches them all: an object of the type is seen wherever it is, and a namespace that gets
   * its first one during a run is watched too.
   */
  readonly namespace?: string;
}

/** Options of `for`. */
export interface ForOptions<O extends ObjectLike> extends WatchesOptions<O> {
  /** Deliver metadata without the spec to the predicates (controller-runtime's `OnlyMetadata`). */
  readonly onlyMetadata?: boolean;
}

/** Options of `owns`. */
export interface OwnsOptions<O extends ObjectLike> extends ForOptions<O> {
  /**
   * Reconcile every owner of the `for` type an object references, not only its controller
   * (controller-runtime's `MatchEveryOwner`).
   */
  readonly matchEveryOwner?: boolean;
}

/**
 * Options of the controller. Like controller-runtime's `WithOptions`, each call replaces the
 * options set before.
 */
export interface ControllerOptions {
  /**
   * Requests reconciled in parallel (never the same one twice at once); 1 by default, and, as in
   * controller-runtime, when 0 or less.
   */
  readonly maxConcurrentReconciles?: number;
  /** `true` (the default): a manager starts it only once this process leads. */
  readonly needLeaderElection?: boolean;
  /**
   * Types the reconciler writes besides the owned ones (which are shared outputs). A bare type is a
   * shared output; an `Output` says which kind. A type listed here and in `owns` takes this kind.
   */
  readonly outputs?: readonly (Output | ResourceType<unknown>)[];
  /**
   * The per-request backoff of failed reconciles and of `{ requeue: true }` (controller-runtime's
   * `RateLimiter`, without jitter). When omitted, failures back off as the runtime's `backoff`
   * says and `requeue` with COSI's default (500 ms, x1.5, at most 60 s). The two keep separate
   * counts: a failure does not lengthen the next `requeue` delay, nor the other way round.
   */
  readonly rateLimiter?: BackoffOptions;
  /**
   * Aborts the reconcile context's `signal` after this many ms on the runtime's clock
   * (controller-runtime's `ReconciliationTimeout`); no limit when omitted.
   */
  readonly reconciliationTimeout?: number;
}

/** What a watch of `ResourceType<S>` delivers: the resource, or only its metadata. */
export type Projected<S, M extends boolean> = M extends true ? PartialObjectMetadata : Resource<S>;

/** Where a built controller goes: straight into a runtime, or into a manager's groups. */
export type BuilderTarget = Runtime | Manager;

interface ForInput {
  readonly type: ResourceType<unknown>;
  readonly options: ForOptions<ObjectLike>;
}

interface OwnsInput {
  readonly type: ResourceType<unknown>;
  readonly options: OwnsOptions<ObjectLike>;
}

interface WatchesInput {
  readonly type: ResourceType<unknown>;
  readonly handler: EventHandler;
  readonly options: WatchesOptions<ObjectLike>;
  readonly onlyMetadata: boolean;
}

/**
 * controller-runtime's `Builder`: records what a controller watches and how, and compiles it into
 * a queue controller on `build()`. Nothing is checked until then, and nothing is registered
 * unless every check passes.
 *
 * @example
 * await controllerManagedBy(runtime)
 *   .for(VM)
 *   .owns(Disk)
 *   .withEventFilter(specChanged)
 *   .complete(async ({ client }, request) => {
 *     const vm = await client.find(VM.pointer(request.id, request.namespace));
 *     ...
 *   });
 */
export class Builder {
  readonly #target: BuilderTarget | undefined;
  #for: ForInput | undefined;
  #forError: BuilderError | undefined;
  /** The first `owns` / `watches` misuse, reported with the watches at build time. */
  #watchError: BuilderError | undefined;
  readonly #owns: OwnsInput[] = [];
  readonly #watches: WatchesInput[] = [];
  readonly #rawSources: Source[] = [];
  readonly #globalPredicates: Predicate[] = [];
  #options: ControllerOptions = {};
  #name = '';

  constructor(target: BuilderTarget | undefined) {
    this.#target = target;
  }

  /**
   * The type the controller reconciles: each of its events enqueues the object itself, and every
   * request is of this type. Once only.
   */
  for<S, M extends boolean = false>(
    type: ResourceType<S>,
    options?: ForOptions<Projected<S, M>> & { readonly onlyMetadata?: M },
  ): this;
  for(type: ResourceType<unknown>, options: ForOptions<ObjectLike> = {}): this {
    if (!isResourceType(type)) {
      this.#forError ??= invalidType('for', type);
      return this;
    }
    this.#checkPredicates(`for(${type.type})`, options.predicates);
    if (this.#for) {
      this.#forError ??= new BuilderError(
        'for-called-twice',
        'for() should only be called once: a controller reconciles one type',
      );
      return this;
    }
    this.#for = { type, options };
    return this;
  }

  /**
   * A type the controller makes: an event of one enqueues its owner of the `for` type, found
   * through `ownerReferences` (only the controller reference unless `matchEveryOwner`). The type
   * becomes a shared output.
   */
  owns<S, M extends boolean = false>(
    type: ResourceType<S>,
    options?: OwnsOptions<Projected<S, M>> & { readonly onlyMetadata?: M },
  ): this;
  owns(type: ResourceType<unknown>, options: OwnsOptions<ObjectLike> = {}): this {
    if (!isResourceType(type)) {
      this.#watchError ??= invalidType('owns', type);
      return this;
    }
    this.#checkPredicates(`owns(${type.type})`, options.predicates);
    this.#owns.push({ type, options });
    return this;
  }

  /** Any type, with the handler that turns its events into requests. */
  watches<S>(
    type: ResourceType<S>,
    handler: EventHandler<Resource<S>>,
    options: WatchesOptions<Resource<S>> = {},
  ): this {
    if (!isResourceType(type)) {
      this.#watchError ??= invalidType('watches', type);
      return this;
    }
    this.#checkPredicates(`watches(${type.type})`, options.predicates);
    this.#watches.push({
      type,
      handler,
      options,
      onlyMetadata: false,
    });
    return this;
  }

  /** `watches`, but the predicates and the handler get metadata without the spec. */
  watchesMetadata(
    type: ResourceType<unknown>,
    handler: EventHandler<PartialObjectMetadata>,
    options: WatchesOptions<PartialObjectMetadata> = {},
  ): this {
    if (!isResourceType(type)) {
      this.#watchError ??= invalidType('watchesMetadata', type);
      return this;
    }
    this.#checkPredicates(`watchesMetadata(${type.type})`, options.predicates);
    this.#watches.push({
      type,
      handler,
      options,
      onlyMetadata: true,
    });
    return this;
  }

  /**
   * An already configured source, such as a {@link channelSource}. The global predicates of
   * `withEventFilter` do not apply to it.
   */
  watchesRawSource(source: Source): this {
    this.#rawSources.push(source);
    return this;
  }

  /**
   * A predicate for every `for`, `owns` and `watches` event (not raw sources), run before their own
   * predicates; so it must make sense for every watched type.
   */
  withEventFilter(predicate: Predicate): this {
    const problem = predicateProblem(predicate);
    if (problem !== undefined) {
      this.#watchError ??= new BuilderError(
        'invalid-predicate',
        `withEventFilter() got ${problem}`,
      );
      return this;
    }
    this.#globalPredicates.push(predicate);
    return this;
  }

  /** Records the first unusable `predicates` option, reported with the watches at build time. */
  #checkPredicates(call: string, predicates: unknown): void {
    const problem = predicatesProblem(predicates);
    if (problem !== undefined) {
      this.#watchError ??= new BuilderError('invalid-predicate', `${call}: ${problem}`);
    }
  }

  /** The controller's name; by default the `for` type's display type, lower-cased. */
  named(name: string): this {
    this.#name = name;
    return this;
  }

  /** Replaces the controller options. */
  withOptions(options: ControllerOptions): this {
    this.#options = options;
    return this;
  }

  /**
   * Builds and registers the controller (with the runtime, or adds it to the manager).
   *
   * @throws BuilderError on misuse (see its codes); nothing is registered then.
   */
  async complete(reconciler: Reconciler): Promise<void> {
    await this.build(reconciler);
  }

  /**
   * Like {@link complete}, and resolves to the compiled controller.
   *
   * @throws BuilderError on misuse (see its codes); nothing is registered then.
   */
  async build(reconciler: Reconciler | undefined): Promise<CompiledController> {
    const target = this.#target;
    if (!reconciler) {
      throw new BuilderError('missing-reconciler', 'build() and complete() need a reconciler');
    }
    if (!isRuntime(target) && !isManager(target)) {
      throw new BuilderError(
        'missing-manager',
        'controllerManagedBy() needs a runtime or a manager to add the controller to',
      );
    }
    if (this.#forError) throw this.#forError;
    const forInput = this.#for;
    const name = this.#name || forInput?.type.definition.displayType.toLowerCase();
    if (!name) {
      throw new BuilderError(
        'missing-name',
        'one of for() or named() must be called, so that the controller has a name',
      );
    }
    // The controller (its name) before its watches, as controller-runtime's doController runs
    // before doWatch.
    const taken = isManager(target) ? target.has(name) : target.controllerNames().includes(name);
    if (taken) {
      throw new BuilderError(
        'duplicate-name',
        `a controller named ${JSON.stringify(name)} already exists: give this one another name with named()`,
      );
    }
    if (this.#watchError) throw this.#watchError;
    if (this.#owns.length > 0 && !forInput) {
      throw new BuilderError(
        'owns-without-for',
        `controller ${JSON.stringify(name)}: owns() can only be used together with for(), which names the owner type`,
      );
    }
    if (!forInput && this.#watches.length === 0 && this.#rawSources.length === 0) {
      throw new BuilderError(
        'no-watches',
        `controller ${JSON.stringify(name)} has no watches and would never be triggered: use for(), owns(), watches() or watchesRawSource()`,
      );
    }
    const wrongOptions = optionsProblems(this.#options);
    if (wrongOptions.length > 0) {
      throw new BuilderError(
        'invalid-options',
        `controller ${JSON.stringify(name)}: withOptions: ${wrongOptions.join('; ')}`,
      );
    }

    const runtime: Partial<Runtime> = isManager(target) ? target.runtime : target;
    // A runtime of another copy of cosi (a project's own) may not know Kubernetes kinds.
    const kindOf = (type: string): KubernetesKind | undefined =>
      typeof runtime.kubernetesKind === 'function' ? runtime.kubernetesKind(type) : undefined;
    const compiled = compileController({
      name,
      forType: forInput?.type.type,
      watches: this.#watchSpecs(forInput, kindOf).map((watch) =>
        kindOf(watch.type)?.generation === false ? { ...watch, withoutGeneration: true } : watch,
      ),
      rawSources: [...this.#rawSources],
      globalPredicates: [...this.#globalPredicates],
      outputs: this.#outputs(),
      concurrency:
        this.#options.maxConcurrentReconciles === undefined
          ? undefined
          : Math.max(1, this.#options.maxConcurrentReconciles),
      needLeaderElection: this.#options.needLeaderElection ?? true,
      reconciler,
      rateLimiter: this.#options.rateLimiter,
      reconciliationTimeout: this.#options.reconciliationTimeout,
      kubernetesKind: kindOf,
    });
    try {
      if (isManager(target)) await target.add(compiled);
      else await target.register(compiled);
    } catch (error) {
      if (!isRegistrationError(error)) throw error;
      throw new BuilderError(
        'registration',
        `controller ${JSON.stringify(name)}: ${error.message}`,
        {
          cause: error,
        },
      );
    }
    return compiled;
  }

  #watchSpecs(
    forInput: ForInput | undefined,
    kindOf: (type: string) => KubernetesKind | undefined,
  ): WatchSpec[] {
    const specs: WatchSpec[] = [];
    if (forInput) {
      // A cluster-scoped owner is in no namespace, whichever its dependents are in: its requests
      // name the namespace its objects are kept in (its type's), as `for`'s own do.
      const clusterScoped = kindOf(forInput.type.type)?.namespaced === false;
      const ownerNamespace = forInput.options.namespace ?? forInput.type.namespace;
      specs.push({
        role: 'for',
        namespace: forInput.options.namespace ?? ALL_NAMESPACES,
        type: forInput.type.type,
        handler: enqueueRequestForObject(),
        predicates: forInput.options.predicates ?? [],
        onlyMetadata: forInput.options.onlyMetadata ?? false,
      });
      for (const owned of this.#owns) {
        specs.push({
          role: 'owns',
          namespace: owned.options.namespace ?? ALL_NAMESPACES,
          type: owned.type.type,
          handler: enqueueRequestForOwner(forInput.type, {
            onlyControllerOwner: !(owned.options.matchEveryOwner ?? false),
            ...(clusterScoped ? { ownerNamespace } : {}),
          }),
          predicates: owned.options.predicates ?? [],
          onlyMetadata: owned.options.onlyMetadata ?? false,
        });
      }
    }
    for (const watch of this.#watches) {
      specs.push({
        role: 'watches',
        namespace: watch.options.namespace ?? ALL_NAMESPACES,
        type: watch.type.type,
        handler: watch.handler,
        predicates: watch.options.predicates ?? [],
        onlyMetadata: watch.onlyMetadata,
      });
    }
    return specs;
  }

  #outputs(): Output[] {
    const outputs = new Map<string, Output>();
    for (const owned of this.#owns)
      outputs.set(owned.type.type, { type: owned.type.type, kind: 'shared' });
    for (const output of this.#options.outputs ?? []) {
      const declared: Output =
        'definition' in output ? { type: output.type, kind: 'shared' } : output;
      outputs.set(declared.type, declared);
    }
    return [...outputs.values()];
  }
}

/**
 * A type given as a `ResourceType` (what `defineResource` returns). A type name such as
 * `'VMs.example.org'` is the usual slip: it names the type but carries no definition.
 */
function isResourceType(type: unknown): type is ResourceType<unknown> {
  return (
    typeof type === 'object' &&
    type !== null &&
    typeof (type as Partial<ResourceType<unknown>>).type === 'string' &&
    typeof (type as Partial<ResourceType<unknown>>).definition === 'object'
  );
}

function invalidType(call: string, type: unknown): BuilderError {
  const given = typeof type === 'string' ? `the string ${JSON.stringify(type)}` : String(type);
  return new BuilderError(
    'invalid-type',
    `${call}() needs a resource type from defineResource(), got ${given}: pass the ResourceType object, not its name`,
  );
}

/*
 * Shapes, not classes: a project's config may load its own copy of the engine, and its runtime
 * must still be accepted.
 */
function isManager(target: unknown): target is Manager {
  return (
    target instanceof Manager ||
    (typeof target === 'object' &&
      target !== null &&
      typeof (target as Partial<Manager>).add === 'function' &&
      typeof (target as Partial<Manager>).groupOf === 'function')
  );
}

function isRuntime(target: unknown): target is Runtime {
  return (
    typeof target === 'object' &&
    target !== null &&
    typeof (target as Partial<Runtime>).register === 'function' &&
    typeof (target as Partial<Runtime>).controllerNames === 'function'
  );
}

/**
 * Starts a builder for a controller managed by `target`: a runtime (the controller is registered
 * with it by `complete()`) or a manager (added to its groups).
 *
 * @example
 * await controllerManagedBy(runtime).for(VM).owns(Disk).complete(reconcileVM);
 */
export function controllerManagedBy(target: BuilderTarget): Builder {
  return new Builder(target);
}

const CONTROLLER_OPTION_KEYS = [
  'maxConcurrentReconciles',
  'needLeaderElection',
  'outputs',
  'rateLimiter',
  'reconciliationTimeout',
] as const;
const RATE_LIMITER_KEYS = ['initial', 'multiplier', 'max'] as const;

/**
 * What is wrong with the options of `withOptions`, as TypeScript would say it: an unknown key
 * (`maxConcurrentReconcile`, controller-runtime's `baseDelay` in `rateLimiter`) was ignored
 * without a word, so the option the user meant never applied. The values are the runtime's to
 * check (a backoff or a concurrency it refuses is a `registration` error).
 */
function optionsProblems(options: ControllerOptions): string[] {
  const unknownKeys = (given: object, known: readonly string[], where: string): string[] =>
    Object.keys(given)
      .filter((key) => !known.includes(key))
      .map((key) => {
        const near = didYouMean(key, known);
        return `unknown key ${JSON.stringify(`${where}${key}`)} (${near === undefined ? `it takes ${known.join(', ')}` : `did you mean ${where}${near}?`})`;
      });
  const problems = unknownKeys(options, CONTROLLER_OPTION_KEYS, '');
  const { maxConcurrentReconciles, rateLimiter, reconciliationTimeout } = options;
  if (maxConcurrentReconciles !== undefined && typeof maxConcurrentReconciles !== 'number') {
    // Math.max would take "3" as 3 and true as 1.
    problems.push(
      `maxConcurrentReconciles must be a number of requests, got ${JSON.stringify(maxConcurrentReconciles)}`,
    );
  }
  if (rateLimiter !== undefined) {
    problems.push(...unknownKeys(rateLimiter, RATE_LIMITER_KEYS, 'rateLimiter.'));
  }
  if (
    reconciliationTimeout !== undefined &&
    !(typeof reconciliationTimeout === 'number' && reconciliationTimeout >= 0)
  ) {
    problems.push(
      `reconciliationTimeout must be a number of ms, 0 or more (0: no limit), got ${String(reconciliationTimeout)}`,
    );
  }
  return problems;
}
