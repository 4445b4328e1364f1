import { recordControllerSite } from '../engine/runtime/controller-sites.js';
import type { ResourceType } from '../engine/resource/define-resource.js';
import { compareStrings } from '../engine/compare-strings.js';
import {
  formatPointer,
  pointerKey,
  toPointer,
  type Kind,
  type Pointer,
} from '../engine/resource/pointer.js';
import type { Draft, Resource } from '../engine/resource/resource.js';
import type {
  Controller,
  ControllerInputKind,
  ControllerRuntime,
  Input,
  Output,
  OutputKind,
} from '../engine/runtime/controller.js';
import { isSkip, ReconcileCycleError } from '../engine/errors.js';
import type { InputChanges } from '../engine/runtime/input-changes.js';
import type { Logger } from '../engine/runtime/logger.js';
import type { ListOptions } from '../engine/state/state.js';
import { createContext, type GenericContext } from './context.js';
import type { EventChannel } from './event-channel.js';
import { annotate, isConflictOn } from './errors.js';
import { onlyFinalizersChanged, TransformMemory } from './transform-memory.js';
import { messageOfThrown } from '../engine/thrown-value.js';
import { forEachConcurrently } from '../engine/for-each-concurrently.js';
import { KeyedSequencer } from './keyed-sequencer.js';
import { checkSettings, type SettingsShape } from './settings-check.js';

/**
 * The functions that make a transform controller: which output an input maps to, and how to fill
 * it in.
 */
export interface TransformSettings<I, O> {
  /** Unique; also the owner of the outputs and the name of the input finalizer. */
  readonly name: string;
  readonly input: ResourceType<I>;
  readonly output: ResourceType<O>;
  /**
   * The (empty) output an input maps to, e.g. `Output.create(input.metadata.id)`; only its
   * metadata counts. `undefined` skips this input. Outputs live in the output type's namespace.
   */
  mapMetadata(input: Resource<I>): Draft<O> | undefined;
  /**
   * Fills in the output from the input (the draft holds the stored output, or the mapped one when
   * it does not exist yet). Throw `skip()` to leave this input alone until the next event; any
   * other error fails the pass, which is retried with backoff.
   *
   * It should be a function of the input and the output alone (as `mapMetadata` of the input),
   * not of the input's finalizers (a change of those alone is not transformed again):
   * a pass skips an input that has not changed since its last transform when its output has not
   * changed either. What else it reads must come through `ctx.reader` (using the context turns
   * the skipping off) or be declared: extra inputs, an extra event channel or a `preTransform`
   * hook turn it off as well.
   *
   * With the runtime's `writesInFlight` above 1 (on etcd), the transforms of different inputs
   * may be under way at once (each input's finalizer and output writes still in order, and two
   * inputs mapped to one output written in the inputs' order).
   */
  transform(ctx: GenericContext, input: Resource<I>, output: Draft<O>): void | Promise<void>;
  /**
   * With `inputFinalizers`: runs while an input tears down; the input's finalizer is released only
   * once this has succeeded and the output is destroyed. Throw `skip()` to wait for the next event.
   */
  finalizerRemoval?(ctx: GenericContext, input: Resource<I>): void | Promise<void>;
  /**
   * Runs at the start of every pass, before any input is transformed (COSI's `PreTransformHook`).
   * A throw fails the pass before anything is written; the controller restarts with backoff.
   */
  preTransform?(ctx: GenericContext): void | Promise<void>;
  /**
   * Runs at the end of every pass, after the outputs are cleaned up and before the pass's errors
   * are reported (COSI's `PostTransformHook`): also after a pass that collected errors. A throw
   * fails the pass; the controller restarts with backoff.
   */
  postTransform?(ctx: GenericContext): void | Promise<void>;
}

/** What {@link TransformSettings} holds, as {@link checkSettings} checks it. */
export const TRANSFORM_SETTINGS: SettingsShape = {
  name: { kind: 'string', required: true },
  input: { kind: 'type', required: true },
  output: { kind: 'type', required: true },
  mapMetadata: { kind: 'function', required: true },
  transform: { kind: 'function', required: true },
  finalizerRemoval: { kind: 'function' },
  preTransform: { kind: 'function' },
  postTransform: { kind: 'function' },
};

/** What {@link TransformOptions} holds. */
const TRANSFORM_OPTIONS: SettingsShape = {
  inputFinalizers: { kind: 'any' },
  ignoreTearingDownInputs: { kind: 'any' },
  inputListOptions: { kind: 'object' },
  extraInputs: { kind: 'object' },
  extraOutputs: { kind: 'object' },
  outputKind: { kind: 'string' },
  extraEventChannel: { kind: 'object' },
  onShutdown: { kind: 'function' },
};

/** Options of a transform controller. */
export interface TransformOptions {
  /**
   * Put a finalizer (named after the controller) on every input, so that an input cannot be
   * destroyed before its output is cleaned up and `finalizerRemoval` succeeded. The input becomes
   * a strong input. An input the controller stops transforming loses the finalizer without
   * `finalizerRemoval`, as it is no longer this controller's to hold: one that no longer matches
   * `inputListOptions` once its output is gone, one that `mapMetadata` maps to nothing at once.
   */
  readonly inputFinalizers?: boolean;
  /**
   * Treat tearing-down inputs as running ones: their outputs stay until the input is destroyed.
   * Cannot be combined with `inputFinalizers`.
   */
  readonly ignoreTearingDownInputs?: boolean;
  /** Only the inputs these options list (label or id queries). */
  readonly inputListOptions?: ListOptions;
  /** More inputs `transform` may read; any change of them wakes the controller. */
  readonly extraInputs?: readonly Input<ControllerInputKind>[];
  /** More outputs `transform` may write through `ctx.writer`. */
  readonly extraOutputs?: readonly Output[];
  /** How the primary output is declared; `exclusive` by default. */
  readonly outputKind?: OutputKind;
  /**
   * Wakes the controller from outside the state: every `send` runs one more pass (merged with
   * any other pending wakeup). COSI's `WithExtraEventChannel`.
   */
  readonly extraEventChannel?: EventChannel;
  /**
   * Called whenever the controller's run ends: stopped, or failed before a restart (COSI's
   * `WithOnShutdownCallback`). It gets the controller's context, so it can still write outputs;
   * what it throws is logged, never hides the error the run ended with.
   */
  readonly onShutdown?: (ctx: GenericContext) => void | Promise<void>;
}

/**
 * A controller that turns every input resource into one output resource, COSI's
 * `transform.Controller`: it creates and updates the outputs, garbage-collects the outputs whose
 * inputs are gone (tearing them down and waiting for other controllers' finalizers), and with
 * `inputFinalizers` keeps each input alive until its output is cleaned up.
 *
 * @example
 * const ctrl = createTransformController({
 *   name: 'vmnet.NetworkConfigController',
 *   input: VM,
 *   output: NetworkConfig,
 *   mapMetadata: (vm) => NetworkConfig.create(vm.metadata.id),
 *   transform: (_ctx, vm, out) => {
 *     out.spec.hostname = vm.metadata.id;
 *   },
 * });
 * await runtime.register(ctrl);
 *
 * @throws Error when the settings or options contradict each other.
 */
export function createTransformController<I, O>(
  settings: TransformSettings<I, O>,
  options: TransformOptions = {},
): Controller {
  // Where the project made it: the place of a reconcile of it that never ends.
  const site = new Error('controller defined here');
  checkSettings('createTransformController settings', settings, TRANSFORM_SETTINGS, {
    unmapMetadata:
      'a setting of createQTransformController (a queue transform maps an output back to its input); the transform controller needs none',
  });
  const aSetting = 'a setting (the first argument), not an option';
  checkSettings('createTransformController options', options, TRANSFORM_OPTIONS, {
    preTransform: aSetting,
    postTransform: aSetting,
    finalizerRemoval: aSetting,
  });
  const { name, input, output } = settings;
  if (options.inputFinalizers && options.ignoreTearingDownInputs) {
    throw new Error(
      `transform controller ${JSON.stringify(name)}: inputFinalizers and ignoreTearingDownInputs cannot be combined: a finalizer keeps a tearing-down input alive for cleanup, ignoring teardown keeps its output instead; choose one`,
    );
  }
  const inputs: Input<ControllerInputKind>[] = [
    {
      namespace: input.namespace,
      type: input.type,
      kind: options.inputFinalizers ? 'strong' : 'weak',
    },
  ];
  if (input.namespace !== output.namespace || input.type !== output.type) {
    inputs.push({ namespace: output.namespace, type: output.type, kind: 'destroyReady' });
  }
  inputs.push(...(options.extraInputs ?? []));
  const outputs: Output[] = [
    { type: output.type, kind: options.outputKind ?? 'exclusive' },
    ...(options.extraOutputs ?? []),
  ];

  const incremental = createIncrementalGuard(settings, options);
  const controller: Controller = {
    name,
    inputs,
    outputs,
    // A pass reads of a running input's finalizers only whether its own is there; extra inputs
    // are the transform's own business, and wake it on any change.
    ...((options.extraInputs ?? []).length === 0 ? { skipFinalizerOnlyWakeups: true } : {}),
    async run(rt, _signal, log) {
      // A new run (the first, or after a failed pass) starts with no memory: everything is
      // transformed once more.
      const pass = createPass(settings, options, incremental);
      const unsubscribe = options.extraEventChannel?.subscribe(() => rt.queueReconcile());
      try {
        for await (const event of rt.events()) {
          const errors = await pass(rt, log, event.changes);
          if (errors.length > 0) throw new ReconcileCycleError(name, errors);
          rt.resetRestartBackoff();
        }
      } finally {
        unsubscribe?.();
        await shutdown(options, rt, log);
      }
    },
  };
  return recordControllerSite(controller, site);
}

/** Runs the shutdown callback; a failure of its own is logged, not thrown over the run's. */
async function shutdown(
  options: TransformOptions,
  rt: ControllerRuntime,
  log: Logger,
): Promise<void> {
  if (!options.onShutdown) return;
  try {
    await options.onShutdown(createContext(rt, log));
  } catch (error) {
    log.error('onShutdown failed', {
      error: messageOfThrown(error),
    });
  }
}

/**
 * Whether a pass may skip an input it already transformed; see {@link createPass}. Off for good
 * once a `transform` reads or writes through its context: it then depends on more than its input
 * and its output.
 */
interface IncrementalGuard {
  /** False when the options say `transform` depends on more than its input and its output. */
  readonly allowed: boolean;
  /** Set when a `transform` used `ctx.reader` or `ctx.writer`. */
  usesContext: boolean;
}

function createIncrementalGuard<I, O>(
  settings: TransformSettings<I, O>,
  options: TransformOptions,
): IncrementalGuard {
  const allowed =
    (options.extraInputs ?? []).length === 0 &&
    (options.extraOutputs ?? []).length === 0 &&
    options.extraEventChannel === undefined &&
    settings.preTransform === undefined;
  return { allowed, usesContext: false };
}

/**
 * One reconcile pass over every input and every owned output, between the pre- and post-transform
 * hooks; returns the errors it collected (a hook's error is thrown).
 *
 * Unlike COSI's, a pass transforms and writes only what changed (it still lists the inputs and
 * the outputs): it skips `mapMetadata`, `transform` and the modify of an input when the input is
 * the very object it transformed on an earlier pass of this run (stored resources are frozen, so
 * any write, including a finalizer or phase change, makes a new object; a destroyed and re-created
 * input is a new object too), and the output is still stored as the very object that modify left
 * (so nobody changed, tore down or destroyed it). COSI would run the transform on the stored
 * output again and its modify would write nothing: a `transform` that is a function of its input
 * and output (as the settings ask) gives the output it gave last time, so the skip converges to
 * the same state with the same writes. Skipping is off when `transform` may depend on more: extra
 * inputs or outputs, an extra event channel, a `preTransform` hook (which may prepare what
 * `transform` reads), or a `transform` that has used its context's reader or writer. An input
 * whose transform failed or threw `skip()` is not remembered, and a run starts with nothing
 * remembered (a failed pass restarts the run), so those are transformed again. Tearing-down inputs
 * always take the full path. A state whose reads return new objects (not the stored frozen ones)
 * never skips.
 *
 * When skipping is on and the runtime says which inputs changed since the previous pass
 * ({@link ReconcileEvent.changes}), the pass does not even list: it visits the changed inputs and
 * those the previous pass left unsettled (unmapped, tearing down, skipped, not its own to write),
 * and the inputs of the outputs that changed (someone else's change is undone as on a full pass),
 * and looks only at the outputs of those inputs (before and after) and at those that changed. Every other input is one the full pass would skip, and every other output one
 * it would keep, so both write the same. Not with `inputListOptions` (an input may stop matching
 * without being visited) nor when the input and output are of the same kind.
 */
function createPass<I, O>(
  settings: TransformSettings<I, O>,
  options: TransformOptions,
  incremental: IncrementalGuard,
): (rt: ControllerRuntime, log: Logger, changes?: InputChanges) => Promise<Error[]> {
  const { name, input, output } = settings;
  const finalizers = options.inputFinalizers === true;
  const ignoreTearingDown = options.ignoreTearingDownInputs === true;
  const inputKind = input.kind();
  const outputKind = output.kind();
  const byChanges =
    options.inputListOptions === undefined &&
    (inputKind.namespace !== outputKind.namespace || inputKind.type !== outputKind.type);
  /**
   * The inputs transformed on a pass of this run and found unchanged since, with the outputs
   * written for them, by input id; and those a pass left unsettled.
   */
  const remembered = new TransformMemory<I, O>();

  return async (rt, log, changes) => {
    const ctx = createContext(rt, log);
    await settings.preTransform?.(ctx);
    const errors: Error[] = [];
    /** Outputs that have a live input, by pointer key. */
    const touched = new Set<string>();
    /** Inputs whose finalizer may go once their output (the key) is gone. */
    const releasable = new Map<string, Resource<I>>();
    if (incremental.usesContext) remembered.clear();
    const skipping = incremental.allowed && remembered.size > 0;
    /** Only what changed: the outputs to look at (by key), else every output is listed. */
    const known = skipping && byChanges ? changes : undefined;
    const onlyChanged = known ? new Map<string, Pointer>() : undefined;
    /** The outputs stored now, when there is something to compare them with. */
    const stored =
      skipping && !onlyChanged ? new Set<Resource<O>>(await rt.list<O>(outputKind)) : undefined;
    /** Outputs this pass wrote or found as it left them, with their keys. */
    const kept = new Map<Resource<O>, string>();
    const transformCtx: GenericContext = {
      get reader() {
        incremental.usesContext = true;
        return ctx.reader;
      },
      get writer() {
        incremental.usesContext = true;
        return ctx.writer;
      },
      log,
      writesInFlight: rt.writesInFlight ?? 1,
    };

    const items =
      onlyChanged && known
        ? await changedInputs(rt, remembered, inputKind, outputKind, known, onlyChanged)
        : await rt.list<I>(inputKind, options.inputListOptions);
    if (!onlyChanged) remembered.unsettled.clear();
    /** Each input's error, by its index: they are reported in the order of the inputs. */
    const itemErrors: (Error | undefined)[] = [];
    /** Inputs that hold our finalizer but map to no output now, by index. */
    const unmapped: (Resource<I> | undefined)[] = [];
    const usedContextBefore = incremental.usesContext;
    /** Inputs skipped as unchanged (set by the visits). */
    const skipped = { count: 0 };
    const inFlight = rt.writesInFlight ?? 1;
    /** With writes in flight: two inputs mapped to one output write it in the inputs' order. */
    const outputOrder = inFlight > 1 ? new KeyedSequencer() : undefined;
    const visit = async (item: Resource<I>, index: number): Promise<void> => {
      const id = item.metadata.id;
      const last = skipping ? remembered.get(id) : undefined;
      if (
        last !== undefined &&
        (last.input === item ||
          onlyFinalizersChanged(last.input, item, finalizers ? name : undefined)) &&
        (stored
          ? stored.has(last.output)
          : (rt.peek?.<O>(last.output.metadata) ?? (await rt.find<O>(last.output.metadata))) ===
            last.output) &&
        !incremental.usesContext
      ) {
        last.input = item;
        skipped.count++;
        touched.add(last.key);
        kept.set(last.output, last.key);
        return;
      }
      remembered.delete(id);
      rt.workingOn?.(item.metadata);
      const mapped = settings.mapMetadata(item);
      if (!mapped) {
        // No output for it any more: a finalizer of ours would keep it from ever being destroyed.
        if (finalizers && item.metadata.finalizers.includes(name)) unmapped[index] = item;
        return;
      }
      const problem = checkMappedOutput(output, mapped);
      if (problem) {
        itemErrors[index] = problem;
        return;
      }
      const key = pointerKey(mapped.metadata);
      onlyChanged?.set(key, toPointer(mapped.metadata));

      if (item.metadata.phase === 'tearingDown' && !ignoreTearingDown) {
        if (!finalizers || !item.metadata.finalizers.includes(name)) return;
        try {
          rt.workingOn?.(item.metadata);
          await settings.finalizerRemoval?.(ctx, item);
          releasable.set(key, item);
        } catch (error) {
          if (!isSkip(error))
            itemErrors[index] = annotate('finalizer removal of', item.metadata, error);
          // Not cleaned up yet: the output stays.
          touched.add(key);
        }
        return;
      }

      touched.add(key);
      if (finalizers && !item.metadata.finalizers.includes(name)) {
        try {
          await rt.addFinalizer(item.metadata, name);
        } catch (error) {
          itemErrors[index] = annotate('adding a finalizer to', item.metadata, error);
          return;
        }
      }
      try {
        const write = (): Promise<Resource<O>> =>
          rt.modifyWithResult(mapped, (draft) => {
            rt.workingOn?.(item.metadata);
            return settings.transform(transformCtx, item, draft);
          });
        const written = await (outputOrder ? outputOrder.run(key, write) : write());
        if (incremental.allowed && !incremental.usesContext) {
          remembered.set(id, { input: item, output: written, key });
        }
        kept.set(written, key);
      } catch (error) {
        // Someone else's output, or one still tearing down (cleaned up below): not ours to write.
        if (isSkip(error) || isConflictOn(error, mapped.metadata)) return;
        itemErrors[index] = annotate('transform of', item.metadata, error);
      }
    };
    await forEachConcurrently(items, inFlight, visit);
    rt.workingOn?.(undefined);
    for (const error of itemErrors) if (error !== undefined) errors.push(error);
    // An input skipped while another's transform started reading through its context (only
    // possible with writes in flight): the next pass, which then skips nothing, comes soon.
    if (skipped.count > 0 && incremental.usesContext && !usedContextBefore && inFlight > 1) {
      rt.queueReconcile();
    }

    // Inputs that are gone (or no longer match) are forgotten; the others visited are settled
    // or not.
    if (!onlyChanged && remembered.size > items.length) remembered.forgetAllBut(items);
    for (const item of items) {
      const id = item.metadata.id;
      if (remembered.has(id)) remembered.unsettled.delete(id);
      else remembered.unsettled.add(id);
    }

    if (onlyChanged) {
      // Written or found by this pass as it left them: nothing to clean up, no need to read.
      for (const key of kept.values()) {
        onlyChanged.delete(key);
        releasable.delete(key);
      }
    }
    const outs = onlyChanged
      ? await findAll<O>(rt, onlyChanged.values())
      : await rt.list<O>(outputKind);
    // Each output is torn down and destroyed in turn; different outputs independently, as many
    // at once as the controller may have writes. Errors in the order of the outputs.
    const cleanupErrors: (Error | undefined)[] = [];
    await forEachConcurrently(outs, inFlight, async (out, index) => {
      // Stored as this pass wrote or found it: owned, running and touched (the branch below).
      const keptKey = kept.get(out);
      if (keptKey !== undefined) {
        releasable.delete(keptKey);
        return;
      }
      const key = pointerKey(out.metadata);
      if (out.metadata.owner !== name) {
        releasable.delete(key);
        return;
      }
      // A tearing-down output is cleaned up even when its input is live: it belongs to an earlier
      // input of the same id, and the new output is written once it is gone (COSI #202).
      if (
        out.metadata.phase !== 'tearingDown' &&
        (touched.has(key) || (onlyChanged !== undefined && remembered.uses(key)))
      ) {
        releasable.delete(key);
        return;
      }
      try {
        if (!(await rt.teardown(out.metadata))) {
          // Other finalizers remain; destroyReady wakes us when they are gone.
          releasable.delete(key);
          return;
        }
        await rt.destroy(out.metadata);
        log.debug('destroyed output', { output: formatPointer(out.metadata) });
      } catch (error) {
        releasable.delete(key);
        cleanupErrors[index] = annotate('cleaning up', out.metadata, error);
      }
    });
    for (const error of cleanupErrors) if (error !== undefined) errors.push(error);

    // Only once the outputs are gone: an input's finalizer guards its output.
    const releases = [...releasable.values()];
    for (const item of unmapped) if (item !== undefined) releases.push(item);
    if (finalizers && options.inputListOptions !== undefined) {
      releases.push(...(await leavingInputs(rt, settings, inputKind, items, touched)));
    }
    const releaseErrors: (Error | undefined)[] = [];
    await forEachConcurrently(releases, inFlight, async (item, index) => {
      try {
        await rt.removeFinalizer(item.metadata, name);
      } catch (error) {
        releaseErrors[index] = annotate('removing the finalizer of', item.metadata, error);
      }
    });
    for (const error of releaseErrors) if (error !== undefined) errors.push(error);
    await settings.postTransform?.(ctx);
    return errors;
  };
}

/**
 * The inputs outside `inputListOptions` that still hold the controller's finalizer (they matched
 * once) and whose output is gone (the pass's cleanup destroyed it, as it does every output no
 * listed input maps to): the finalizer guards nothing any more, and would keep the input from
 * ever being destroyed. One whose output another, listed input still maps to, or that is still
 * stored (held by other finalizers, or someone else's), keeps it for now.
 */
async function leavingInputs<I, O>(
  rt: ControllerRuntime,
  settings: TransformSettings<I, O>,
  inputKind: Kind,
  listed: readonly Resource<I>[],
  touched: ReadonlySet<string>,
): Promise<Resource<I>[]> {
  const name = settings.name;
  const visited = new Set(listed.map((item) => item.metadata.id));
  const leaving: Resource<I>[] = [];
  for (const item of await rt.list<I>(inputKind)) {
    if (visited.has(item.metadata.id) || !item.metadata.finalizers.includes(name)) continue;
    rt.workingOn?.(item.metadata);
    const mapped = settings.mapMetadata(item);
    if (mapped && checkMappedOutput(settings.output.kind(), mapped) === undefined) {
      if (touched.has(pointerKey(mapped.metadata))) continue;
      if ((await rt.find(toPointer(mapped.metadata))) !== undefined) continue;
    }
    leaving.push(item);
  }
  rt.workingOn?.(undefined);
  return leaving;
}

/**
 * The inputs a pass visits when it knows what changed: the changed ones and the unsettled ones
 * that still exist, sorted by id as a list returns them. Notes the outputs to look at: those of
 * the changed inputs as the last pass left them, and those whose events woke the controller.
 * Inputs that are gone are forgotten.
 */
async function changedInputs<I, O>(
  rt: ControllerRuntime,
  remembered: TransformMemory<I, O>,
  inputKind: Kind,
  outputKind: Kind,
  changes: InputChanges,
  outputs: Map<string, Pointer>,
): Promise<Resource<I>[]> {
  const ids = new Set([...changes.ids(inputKind), ...remembered.unsettled]);
  // A changed output: its inputs are visited, to restore it unless it is as they left it.
  for (const id of changes.ids(outputKind)) {
    const pointer = { ...outputKind, id };
    const key = pointerKey(pointer);
    outputs.set(key, pointer);
    for (const input of remembered.inputsOf(key)) ids.add(input);
  }
  const sorted = [...ids].sort(compareStrings);
  const found: (Resource<I> | undefined)[] = [];
  // The reads are independent: as many under way as the controller may have writes.
  await forEachConcurrently(sorted, rt.writesInFlight ?? 1, async (id, index) => {
    const pointer = { ...inputKind, id };
    // As last seen (on etcd, by the events that named it): a newer version's event wakes
    // another pass.
    found[index] = rt.peek?.<I>(pointer) ?? (await rt.find<I>(pointer));
  });
  const items: Resource<I>[] = [];
  sorted.forEach((id, index) => {
    const last = remembered.get(id);
    if (last) outputs.set(last.key, last.output.metadata);
    const item = found[index];
    if (item) items.push(item);
    else {
      remembered.delete(id);
      remembered.unsettled.delete(id);
    }
  });
  return items;
}

/** The resources of these pointers that exist, sorted by id as a list returns them. */
async function findAll<S>(
  rt: ControllerRuntime,
  pointers: Iterable<Pointer>,
): Promise<Resource<S>[]> {
  const found: Resource<S>[] = [];
  await forEachConcurrently([...pointers], rt.writesInFlight ?? 1, async (pointer) => {
    const resource = await rt.find<S>(pointer);
    if (resource) found.push(resource);
  });
  return found.sort((a, b) => compareStrings(a.metadata.id, b.metadata.id));
}

/**
 * Outputs must be of the output type and in its namespace: that is where the controller looks
 * for them to clean up, and what its destroyReady input watches. The error does not name the
 * controller: what reports it (the pass's {@link ReconcileCycleError}, a queue item's failure)
 * names it already, and a pass's message that repeated it for each input was cut before it said
 * what type was expected.
 */
export function checkMappedOutput(output: Kind, mapped: Draft): Error | undefined {
  const md = mapped.metadata;
  if (md.type === output.type && md.namespace === output.namespace) return undefined;
  return new Error(
    `mapMetadata returned ${formatPointer(md)}, expected a ${output.type} in namespace ${JSON.stringify(output.namespace)} (use the output type's create())`,
  );
}
