import { recordControllerSite } from '../engine/runtime/controller-sites.js';
import {
  formatPointer,
  kindKey,
  pointerKey,
  type Kind,
  type Pointer,
} from '../engine/resource/pointer.js';
import type { Draft, Resource } from '../engine/resource/resource.js';
import type {
  Input,
  Output,
  OutputKind,
  QController,
  QInputKind,
  QRuntime,
  ReducedMetadata,
} from '../engine/runtime/controller.js';
import type { Logger } from '../engine/runtime/logger.js';
import {
  DestroyOutputError,
  isDestroyOutput,
  isNotFound,
  isPhaseConflict,
  isRequeue,
  type RequeueError,
} from '../engine/errors.js';
import { isThenable } from '../engine/is-thenable.js';
import { createContext, type GenericContext } from './context.js';
import { isConflictOn } from './errors.js';
import { checkMappedOutput, TRANSFORM_SETTINGS, type TransformSettings } from './transform.js';
import { checkSettings } from './settings-check.js';

/** The functions of a queue transform controller: a transform plus the way back. */
export interface QTransformSettings<I, O> extends TransformSettings<I, O> {
  /**
   * The input an output comes from: how a change of an output (its finalizers going away) finds
   * the input to reconcile. The inverse of `mapMetadata`.
   */
  unmapMetadata(output: Resource<O>): Pointer;
  /**
   * Runs when an input tears down, before its output is torn down; throw to retry (with backoff)
   * or `skip()` to wait for the next event. The input's finalizer goes once this succeeded and the
   * output is destroyed.
   */
  finalizerRemoval?(ctx: GenericContext, input: Resource<I>): void | Promise<void>;
}

/** A secondary input whose changes map to the primary inputs they affect. */
export interface ExtraMappedInput {
  /** The resource type (or any kind: namespace and type) to watch. */
  readonly type: Kind;
  /** `mappedDestroyReady` maps only changes that leave a resource tearing down and finalizer-free. */
  readonly kind?: 'mapped' | 'mappedDestroyReady';
  /** The primary inputs (pointers of the input type) a change of this resource affects. */
  mapper(
    metadata: ReducedMetadata,
    rt: QRuntime,
    log: Logger,
  ): readonly Pointer[] | Promise<readonly Pointer[]>;
}

/** Options of a queue transform controller. */
export interface QTransformOptions {
  /** Inputs reconciled in parallel; 1 by default. */
  readonly concurrency?: number;
  readonly extraMappedInputs?: readonly ExtraMappedInput[];
  /** More outputs `transform` may write through `ctx.writer`. */
  readonly extraOutputs?: readonly Output[];
  /** How the primary output is declared; `exclusive` by default. */
  readonly outputKind?: OutputKind;
  /**
   * Treat a tearing-down input as running (its output stays) until only these finalizers, and
   * this controller's own, are left on it: so the output outlives the other controllers that
   * still work on the input. `[]` waits until this controller's finalizer is the last one.
   * COSI's `WithIgnoreTeardownUntil`.
   */
  readonly ignoreTeardownUntil?: readonly string[];
  /**
   * Treat a tearing-down input as running (its output stays) while any of these finalizers is
   * still on it. COSI's `WithIgnoreTeardownWhile`, the opposite of `ignoreTeardownUntil`.
   */
  readonly ignoreTeardownWhile?: readonly string[];
}

/**
 * The error to throw from a queue transform's `transform` when the input should have no output.
 *
 * @example
 * transform: (_ctx, vm, out) => {
 *   if (vm.spec.stopped) throw destroyOutput('stopped VMs have no network');
 *   out.spec.bridge = `br-${vm.spec.image}`;
 * }
 */
export const destroyOutput = (reason?: string): DestroyOutputError =>
  new DestroyOutputError(reason);

/**
 * A queue controller that turns every input into one output, COSI's `qtransform.QController`:
 * each input is reconciled on its own (with its own backoff, `concurrency` at a time). It always
 * puts a finalizer on its inputs: a tearing-down input runs `finalizerRemoval`, then its output
 * is torn down, destroyed once no other finalizer holds it, and only then the input is released
 * (an output owned by another controller keeps it held, and fails the item). An input that
 * `mapMetadata` no longer maps to an output likewise loses its output and then the finalizer. With
 * `ignoreTeardownUntil` / `ignoreTeardownWhile`, a tearing-down input is reconciled as a running
 * one while other controllers' finalizers say so.
 *
 * `transform` may throw `skip()` (leave it), `destroyOutput()` (tear the output down) or a
 * `requeueAfter(ms)` (write the output, then come back in `ms`).
 *
 * @example
 * const ctrl = createQTransformController({
 *   name: 'NetworkConfigQController',
 *   input: VM,
 *   output: NetworkConfig,
 *   mapMetadata: (vm) => NetworkConfig.create(vm.metadata.id),
 *   unmapMetadata: (net) => VM.pointer(net.metadata.id),
 *   transform: (_ctx, vm, out) => {
 *     out.spec.bridge = `br-${vm.spec.image}`;
 *   },
 * }, { concurrency: 4 });
 *
 * @throws Error when two mapped inputs share a kind, or one is the input or output kind.
 */
export function createQTransformController<I, O>(
  settings: QTransformSettings<I, O>,
  options: QTransformOptions = {},
): QController {
  // Where the project made it: the place of a reconcile of it that never ends.
  const site = new Error('controller defined here');
  checkSettings('createQTransformController settings', settings, {
    ...TRANSFORM_SETTINGS,
    unmapMetadata: { kind: 'function', required: true },
  });
  checkSettings('createQTransformController options', options, {
    concurrency: { kind: 'any' },
    extraMappedInputs: { kind: 'object' },
    extraOutputs: { kind: 'object' },
    outputKind: { kind: 'string' },
    ignoreTeardownUntil: { kind: 'object' },
    ignoreTeardownWhile: { kind: 'object' },
  });
  const { name, input, output } = settings;

  const mappers = new Map<string, ExtraMappedInput>();
  const reserved = new Set([kindKey(input), kindKey(output)]);
  const inputs: Input<QInputKind>[] = [
    { namespace: input.namespace, type: input.type, kind: 'primary' },
    { namespace: output.namespace, type: output.type, kind: 'mappedDestroyReady' },
  ];
  for (const extra of options.extraMappedInputs ?? []) {
    const key = kindKey(extra.type);
    if (reserved.has(key) || mappers.has(key)) {
      throw new Error(
        `queue transform controller ${JSON.stringify(name)}: ${extra.type.namespace}/${extra.type.type} is mapped twice (or is its input or output); give each kind one mapper`,
      );
    }
    mappers.set(key, extra);
    inputs.push({
      namespace: extra.type.namespace,
      type: extra.type.type,
      kind: extra.kind ?? 'mapped',
    });
  }

  const contexts = new ContextCache();
  const until = options.ignoreTeardownUntil && new Set(options.ignoreTeardownUntil);
  const whilePresent = options.ignoreTeardownWhile && new Set(options.ignoreTeardownWhile);
  /** Whether a tearing-down input with these finalizers is still treated as running. */
  const ignoresTeardown = (finalizers: readonly string[]): boolean =>
    finalizers.some(
      (f) =>
        f !== name && ((until !== undefined && !until.has(f)) || (whilePresent?.has(f) ?? false)),
    );

  // Called, not awaited, by `reconcile`: its promise is the reconcile's, one per item.
  const reconcileRunning = async (
    rt: QRuntime,
    ctx: GenericContext,
    item: Resource<I>,
    mapped: Draft<O>,
  ): Promise<void> => {
    // A tearing-down input reconciled as running (ignoreTeardown*) gets no new finalizer.
    if (item.metadata.phase === 'running' && !item.metadata.finalizers.includes(name)) {
      await rt.addFinalizer(item.metadata, name);
    }

    // The output is written without looking at it first (a read per item saved): one on its way
    // out refuses the write, before `transform` runs, and only then is it looked at. One async
    // function for both (a loop of at most two writes), not one more call per item.
    for (let replaced = false; ; replaced = true) {
      let requeue: RequeueError | undefined;
      // A plain requeue still writes the output; one with a cause is a failure.
      const keepRequeue = (error: unknown): void => {
        if (isRequeue(error) && error.cause === undefined) requeue = error;
        else throw error;
      };
      try {
        // Not an async function: a synchronous transform (the usual kind) then makes a
        // synchronous updater, which the state applies without a turn of the microtask queue.
        await rt.modifyWithResult(mapped, (draft): void | Promise<void> => {
          // modify may call this again after a version conflict: only the last call counts.
          requeue = undefined;
          let pending: void | Promise<void>;
          try {
            pending = settings.transform(ctx, item, draft);
          } catch (error) {
            keepRequeue(error);
            return;
          }
          if (isThenable(pending)) return Promise.resolve(pending).then(undefined, keepRequeue);
        });
      } catch (error) {
        if (isDestroyOutput(error)) {
          await tearDownAndDestroy(rt, mapped.metadata);
          return;
        }
        if (!isConflictOn(error, mapped.metadata)) throw error;
        // Refused as tearing down, the first time: see whose output it is.
        if (replaced || !isPhaseConflict(error)) return;
        const current = await rt.find<O>(mapped.metadata);
        // Tearing down but someone else's: left alone, as the write was.
        if (current?.metadata.phase !== 'tearingDown' || current.metadata.owner !== name) return;
        // Ours, on its way out (a previous input of this id, or destroyOutput): replaced only
        // once destroyed; mappedDestroyReady brings us back when its finalizers are gone.
        if (current.metadata.finalizers.length > 0) return;
        await rt.destroy(current.metadata);
        continue;
      }
      if (requeue) throw requeue;
      return;
    }
  };

  const reconcileTearingDown = async (
    rt: QRuntime,
    ctx: GenericContext,
    item: Resource<I>,
    mapped: Draft<O>,
  ): Promise<void> => {
    // Once released (our finalizer gone), the input's later changes need no removal work.
    if (item.metadata.finalizers.includes(name)) await settings.finalizerRemoval?.(ctx, item);
    let ready: boolean;
    try {
      ready = await rt.teardown(mapped.metadata);
    } catch (error) {
      // No output: nothing holds the input any more. Anything else, an output another controller
      // owns included, keeps the input held and fails the item, as COSI does.
      if (!isNotFound(error)) throw error;
      await rt.removeFinalizer(item.metadata, name);
      return;
    }
    if (!ready) return;
    await rt.destroy(mapped.metadata);
    await rt.removeFinalizer(item.metadata, name);
  };

  /**
   * An input that maps to no output now but holds our finalizer (it mapped to one before): the
   * outputs of ours that come from it (by `unmapMetadata`) are torn down and destroyed, then the
   * finalizer goes, which would otherwise keep the input from ever being destroyed. No
   * `finalizerRemoval`: the input is no longer this controller's. An output other finalizers
   * hold keeps it for now; mappedDestroyReady brings us back when they are gone.
   */
  const releaseUnmapped = async (rt: QRuntime, item: Resource<I>): Promise<void> => {
    const key = pointerKey(item.metadata);
    let held = false;
    for (const out of await rt.list<O>(output.kind())) {
      if (out.metadata.owner !== name || pointerKey(settings.unmapMetadata(out)) !== key) continue;
      if (await rt.teardown(out.metadata)) await rt.destroy(out.metadata);
      else held = true;
    }
    if (!held) await rt.removeFinalizer(item.metadata, name);
  };

  const controller: QController = {
    name,
    settings: {
      inputs,
      outputs: [
        { type: output.type, kind: options.outputKind ?? 'exclusive' },
        ...(options.extraOutputs ?? []),
      ],
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      // The finalizer this controller puts on an input changes nothing a reconcile reads (the
      // running branch reads the spec and labels, the tearing-down one is not reached by an
      // addFinalizer, which only a running input gets): see the adapter's argument.
      skipOwnFinalizerRequeue: true,
      // Nor does another controller's finalizer on a running input (the running branch reads
      // only whether ours is there; a tearing-down input is not skipped).
      skipFinalizerOnlyRequeue: true,
    },

    // Not an async function: the promise of the branch it takes is the reconcile's own, so an
    // item costs one async call fewer (and its turns of the microtask queue).
    reconcile(rt, pointer, log) {
      // As last seen, on a state behind I/O (etcd): the event that queued the item came with it,
      // and a newer version's event queues it again; a write from a stale one fails its
      // compare-and-swap and reads. Else `get`, not `find`: the input is nearly always there,
      // and a find looks it up twice (is it there, then read it); the rare missing one costs a
      // not-found error instead.
      const seen = rt.peek?.<I>(pointer);
      return (seen === undefined ? rt.get<I>(pointer) : Promise.resolve(seen)).then((item) => {
        const mapped = settings.mapMetadata(item);
        if (!mapped) {
          return item.metadata.finalizers.includes(name) ? releaseUnmapped(rt, item) : undefined;
        }
        const problem = checkMappedOutput(output, mapped);
        if (problem) throw problem;
        const ctx = contexts.of(rt, log);
        return item.metadata.phase === 'running' || ignoresTeardown(item.metadata.finalizers)
          ? reconcileRunning(rt, ctx, item, mapped)
          : reconcileTearingDown(rt, ctx, item, mapped);
      }, ignoreNotFound);
    },

    async mapInput(rt, metadata, log) {
      if (metadata.namespace === output.namespace && metadata.type === output.type) {
        const out = await rt.find<O>(metadata);
        return out ? [settings.unmapMetadata(out)] : [];
      }
      const extra = mappers.get(kindKey(metadata));
      if (!extra) {
        throw new Error(
          `queue transform controller ${JSON.stringify(name)} has no mapper for ${formatPointer(metadata)}`,
        );
      }
      return extra.mapper(metadata, rt, log);
    },
  };
  return recordControllerSite(controller, site);
}

/** A reconcile of an input that is gone (destroyed after it was queued): nothing to do. */
function ignoreNotFound(error: unknown): void {
  if (!isNotFound(error)) throw error;
}

/**
 * The context a reconcile hands to the controller's functions, made once per facade and logger
 * (the adapter passes the same two to every reconcile unless it records), not once per item.
 */
class ContextCache {
  #rt: QRuntime | undefined;
  #log: Logger | undefined;
  #ctx: GenericContext | undefined;

  of(rt: QRuntime, log: Logger): GenericContext {
    if (this.#ctx === undefined || this.#rt !== rt || this.#log !== log) {
      this.#ctx = createContext(rt, log);
      this.#rt = rt;
      this.#log = log;
    }
    return this.#ctx;
  }
}

async function tearDownAndDestroy(rt: QRuntime, pointer: Pointer): Promise<void> {
  try {
    if (await rt.teardown(pointer)) await rt.destroy(pointer);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
}

/** A mapper to the primary input of the same id: `C/x` changes reconcile input `x`. */
export function mapSameId(input: Kind): ExtraMappedInput['mapper'] {
  return (metadata) => [{ namespace: input.namespace, type: input.type, id: metadata.id }];
}

/**
 * A mapper to the primary input whose id is the value of a label: a resource labelled
 * `{ [label]: 'x' }` reconciles input `x`; one without the label reconciles nothing.
 */
export function mapLabelValue(input: Kind, label: string): ExtraMappedInput['mapper'] {
  return (metadata) => {
    const id = metadata.labels[label];
    return id === undefined ? [] : [{ namespace: input.namespace, type: input.type, id }];
  };
}
