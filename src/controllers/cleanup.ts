import type { ResourceType } from '../engine/resource/define-resource.js';
import { formatPointer, kindKey, pointerKey, type Kind } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import type {
  Controller,
  ControllerInputKind,
  Input,
  Output,
} from '../engine/runtime/controller.js';
import { isNotFound, isSkip, ReconcileCycleError } from '../engine/errors.js';
import { forEachConcurrently } from '../engine/for-each-concurrently.js';
import type { ListOptions } from '../engine/state/state.js';
import { createContext, type GenericContext } from './context.js';
import { annotate, skip } from './errors.js';
import { KeyedSequencer } from './keyed-sequencer.js';
import { checkSettings } from './settings-check.js';

/**
 * What a cleanup controller does when one of its inputs tears down, with the inputs and outputs
 * that work needs.
 */
export interface CleanupHandler<I> {
  readonly inputs: readonly Input<ControllerInputKind>[];
  readonly outputs: readonly Output[];
  /**
   * Runs while an input tears down; the input's finalizer goes once it succeeds. Throw `skip()` to
   * wait for the next event, anything else to fail the pass (retried with backoff).
   */
  finalizerRemoval(ctx: GenericContext, input: Resource<I>): Promise<void>;
}

/** What `createCleanupController` takes: the input type and what to do before it goes. */
export interface CleanupSettings<I> {
  /** Unique; also the name of the finalizer put on every input. */
  readonly name: string;
  readonly input: ResourceType<I>;
  readonly handler: CleanupHandler<I>;
}

/** Which dependents belong to an input: fixed list options, or ones computed from the input. */
export type DependentSelector<I> = ListOptions | ((input: Resource<I>) => ListOptions);

/**
 * A controller that only manages finalizers, COSI's `cleanup.Controller`: it puts a finalizer on
 * every running input and, when one tears down, releases it once `handler.finalizerRemoval`
 * succeeded. The input is a strong input.
 *
 * @example
 * // A VM cannot go before its disks do.
 * const ctrl = createCleanupController({
 *   name: 'VMDiskCleanup',
 *   input: VM,
 *   handler: hasNoOutputs(Disk, (vm) => ({ labelQueries: [labelQuery(labelEqual('vm', vm.metadata.id))] })),
 * });
 */
export function createCleanupController<I>(settings: CleanupSettings<I>): Controller {
  checkSettings('createCleanupController settings', settings, {
    name: { kind: 'string', required: true },
    input: { kind: 'type', required: true },
    handler: { kind: 'object', required: true },
  });
  const { name, input, handler } = settings;
  return {
    name,
    inputs: [{ namespace: input.namespace, type: input.type, kind: 'strong' }, ...handler.inputs],
    outputs: [...handler.outputs],
    async run(rt, _signal, log) {
      for await (const _ of rt.events()) {
        const ctx = createContext(rt, log);
        // Each input is visited once a pass, so its writes stay in order; different inputs' writes
        // are under way together, as many as the runtime allows. Errors in the inputs' order.
        const errors: (Error | undefined)[] = [];
        const items = await rt.list<I>(input.kind());
        await forEachConcurrently(items, rt.writesInFlight ?? 1, async (item, index) => {
          const md = item.metadata;
          const has = md.finalizers.includes(name);
          try {
            if (md.phase === 'running') {
              if (!has) await rt.addFinalizer(md, name);
            } else if (has) {
              await handler.finalizerRemoval(ctx, item);
              await rt.removeFinalizer(md, name);
              log.debug('released input', { input: formatPointer(md) });
            }
          } catch (error) {
            if (!isSkip(error)) errors[index] = annotate('cleaning up', md, error);
          }
        });
        const failed = errors.filter((e) => e !== undefined);
        if (failed.length > 0) throw new ReconcileCycleError(name, failed);
        rt.resetRestartBackoff();
      }
    },
  };
}

/**
 * A handler that holds a tearing-down input until none of its dependents (resources of
 * `outputType` matching `selector`) exist any more. The dependents become a weak input, so their
 * destruction wakes the controller.
 */
export function hasNoOutputs<I>(
  outputType: Kind,
  selector: DependentSelector<I> = {},
): CleanupHandler<I> {
  return {
    inputs: [{ namespace: outputType.namespace, type: outputType.type, kind: 'weak' }],
    outputs: [],
    async finalizerRemoval(ctx, input) {
      const left = await ctx.reader.list(outputType, select(selector, input));
      if (left.length > 0) {
        ctx.log.info('waiting for dependents to be destroyed', {
          input: formatPointer(input.metadata),
          type: outputType.type,
          count: left.length,
        });
        throw skip(`waiting for ${left.length} ${outputType.type} to be destroyed`);
      }
    },
  };
}

/** Options of `removeOutputs`. */
export interface RemoveOutputsOptions {
  /** Also remove dependents owned by these controllers; by default only unowned ones are removed. */
  readonly extraOwners?: readonly string[];
}

/**
 * A handler that tears down and destroys the dependents of a tearing-down input (resources of
 * `outputType` matching `selector`, unowned or owned by `extraOwners`), then releases the input
 * once they are all gone. The dependents become a shared output and a destroyReady input.
 */
export function removeOutputs<I>(
  outputType: Kind,
  selector: DependentSelector<I> = {},
  options: RemoveOutputsOptions = {},
): CleanupHandler<I> {
  const owners = new Set(['', ...(options.extraOwners ?? [])]);
  const order = new KeyedSequencer();
  return {
    inputs: [{ namespace: outputType.namespace, type: outputType.type, kind: 'destroyReady' }],
    outputs: [{ type: outputType.type, kind: 'shared' }],
    async finalizerRemoval(ctx, input) {
      const dependents = (await ctx.reader.list(outputType, select(selector, input))).filter((d) =>
        owners.has(d.metadata.owner),
      );
      const errors: (Error | undefined)[] = [];
      let waiting = 0;
      // Dependents go together, as many at once as the runtime allows; two inputs tearing down in
      // one pass may share one, whose teardown and destroy then run once after the other.
      await forEachConcurrently(dependents, ctx.writesInFlight ?? 1, async (dependent, index) => {
        const md = dependent.metadata;
        try {
          const gone = await order.run(pointerKey(md), async () => {
            if (!(await ctx.writer.teardown(md, { owner: md.owner }))) return false;
            await ctx.writer.destroy(md, { owner: md.owner });
            return true;
          });
          if (gone) ctx.log.info('removed dependent', { dependent: formatPointer(md) });
          else waiting++;
        } catch (error) {
          if (!isNotFound(error)) errors[index] = annotate('removing dependent', md, error);
        }
      });
      const failed = errors.filter((e) => e !== undefined);
      if (failed.length > 0) {
        throw new AggregateError(failed, failed.map((e) => e.message).join('; '));
      }
      if (waiting > 0) throw skip(`waiting for ${waiting} ${outputType.type} to be destroyed`);
    },
  };
}

/**
 * Runs handlers one after the other (the first that fails or skips stops the rest), with the
 * union of their inputs and outputs.
 *
 * @throws Error when two handlers declare the same input kind differently.
 */
export function combine<I>(...handlers: CleanupHandler<I>[]): CleanupHandler<I> {
  if (handlers.length === 0) throw new Error('combine: give it at least one handler');
  const inputs = new Map<string, Input<ControllerInputKind>>();
  const outputs = new Map<string, Output>();
  for (const handler of handlers) {
    for (const input of handler.inputs) {
      const key = `${kindKey(input)}\0${input.id ?? ''}`;
      const seen = inputs.get(key);
      if (seen && seen.kind !== input.kind) {
        throw new Error(
          `combine: handlers declare input ${input.namespace}/${input.type} as both ${seen.kind} and ${input.kind}; a controller depends on a kind in one way only`,
        );
      }
      inputs.set(key, input);
    }
    for (const output of handler.outputs)
      if (!outputs.has(output.type)) outputs.set(output.type, output);
  }
  return {
    inputs: [...inputs.values()],
    outputs: [...outputs.values()],
    async finalizerRemoval(ctx, input) {
      for (const handler of handlers) await handler.finalizerRemoval(ctx, input);
    },
  };
}

function select<I>(selector: DependentSelector<I>, input: Resource<I>): ListOptions {
  return typeof selector === 'function' ? selector(input) : selector;
}
