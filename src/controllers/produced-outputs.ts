/**
 * What a declarative controller produced for each of its instances, kept as it writes, so that
 * a reconcile finds one instance's outputs without listing every output of the namespace (which
 * made a reconcile cost the size of the whole project). Loaded once from the state, the first
 * time it is asked, so that outputs a previous run wrote are found too.
 */

import { pointerKey, type Pointer } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import type { QRuntime } from '../engine/runtime/controller.js';

/** One output: where it is, which resource of the graph it is, and whether it is unowned. */
export interface ProducedOutput {
  readonly pointer: Pointer;
  readonly node: string;
  /** Written without an owner (a nested instance). */
  readonly unowned: boolean;
}

/** The outputs of each instance, by `namespace/id` of the instance, then by pointer key. */
export class ProducedOutputs {
  readonly #byInstance = new Map<string, Map<string, ProducedOutput>>();
  #loaded = false;

  /**
   * Reads the outputs already in the state once: each resource of `types` in `namespaces` that
   * `describe` says is one of this controller's (the instance it belongs to and its output).
   */
  async load(
    rt: QRuntime,
    types: readonly string[],
    namespaces: readonly string[],
    describe: (resource: Resource) => { instance: string; output: ProducedOutput } | undefined,
  ): Promise<void> {
    if (this.#loaded) return;
    for (const namespace of namespaces) {
      for (const type of types) {
        for (const resource of await rt.list({ namespace, type })) {
          const found = describe(resource);
          if (found !== undefined) this.add(found.instance, found.output);
        }
      }
    }
    this.#loaded = true;
  }

  /** The outputs of an instance (`namespace/id`). */
  of(instance: string): readonly ProducedOutput[] {
    return [...(this.#byInstance.get(instance)?.values() ?? [])];
  }

  add(instance: string, output: ProducedOutput): void {
    let outputs = this.#byInstance.get(instance);
    if (outputs === undefined) {
      outputs = new Map<string, ProducedOutput>();
      this.#byInstance.set(instance, outputs);
    }
    outputs.set(pointerKey(output.pointer), output);
  }

  remove(instance: string, pointer: Pointer): void {
    const outputs = this.#byInstance.get(instance);
    outputs?.delete(pointerKey(pointer));
    if (outputs?.size === 0) this.#byInstance.delete(instance);
  }
}
