/** With a run recorder: the changes that queued each key of a work queue since it last ran. */
import type { Resource } from '../resource/resource.js';

export class QueueTriggers {
  readonly #byKey = new Map<string, Resource[]>();

  add(key: string, triggers: readonly Resource[]): void {
    const known = this.#byKey.get(key);
    if (known) known.push(...triggers);
    else this.#byKey.set(key, [...triggers]);
  }

  /** The changes that queued the key, forgotten: the job of the key runs now. */
  take(key: string): Resource[] {
    const triggers = this.#byKey.get(key) ?? [];
    this.#byKey.delete(key);
    return triggers;
  }
}
