/**
 * What one reconcile of a queue transform asks of its runtime: the cost per item of a chain of
 * them is these calls, so each one not made counts.
 */
import { describe, expect, it } from 'vitest';
import {
  createQTransformController,
  type Draft,
  type QRuntime,
  type Resource,
} from '../../src/index.js';
import type { GenericContext } from '../../src/controllers/context.js';
import { silentLogger } from '../../src/engine/runtime/logger.js';
import { A, B, type ASpec, type BSpec } from './harness.js';

/** A runtime holding the given inputs and no outputs, recording each call as `<method> <type>`. */
function recordingRuntime(inputs: Resource<ASpec>[], calls: string[]): QRuntime {
  const byId = new Map(inputs.map((r) => [r.metadata.id, r]));
  const rt = {
    get: (pointer: { type: string; id: string }) => {
      const found = byId.get(pointer.id);
      return found ? Promise.resolve(found) : Promise.reject(new Error('not here'));
    },
    find: () => Promise.resolve(undefined),
    addFinalizer: () => Promise.resolve(),
    modifyWithResult: (empty: Draft<BSpec>, fn: (draft: Draft<BSpec>) => unknown) => {
      fn(empty);
      return Promise.resolve(empty);
    },
  };
  return new Proxy(rt as unknown as QRuntime, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      return (pointer: { metadata?: { type: string }; type?: string }, ...rest: unknown[]) => {
        calls.push(`${String(property)} ${pointer.metadata?.type ?? pointer.type ?? '?'}`);
        return (value as (...args: unknown[]) => unknown)(pointer, ...rest);
      };
    },
  });
}

const running = (id: string): Resource<ASpec> =>
  ({
    metadata: { ...A.create(id).metadata, version: 1, phase: 'running', finalizers: [] },
    spec: { str: id, int: 1 },
  }) as unknown as Resource<ASpec>;

describe('a queue transform reconcile', () => {
  it('reads its input once (a get, not a find that looks it up twice) and writes its output without reading it first', async () => {
    const calls: string[] = [];
    const contexts: GenericContext[] = [];
    const ctrl = createQTransformController<ASpec, BSpec>({
      name: 'AToB',
      input: A,
      output: B,
      mapMetadata: (a) => B.create(a.metadata.id),
      unmapMetadata: (b) => A.pointer(b.metadata.id),
      transform: (ctx, a, b) => {
        contexts.push(ctx);
        b.spec.out = a.spec.str;
      },
    });
    const rt = recordingRuntime([running('x'), running('y')], calls);

    await ctrl.reconcile(rt, A.pointer('x'), silentLogger);
    await ctrl.reconcile(rt, A.pointer('y'), silentLogger);

    const one = [`get ${A.type}`, `addFinalizer ${A.type}`, `modifyWithResult ${B.type}`];
    expect(calls).toEqual([...one, ...one]);
    // The context is made once for the runtime and logger, not once per item.
    expect(contexts[1]).toBe(contexts[0]);
  });
});
