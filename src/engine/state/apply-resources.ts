import { resourceEqual, type Draft, type Resource } from '../resource/resource.js';
import { isNotFound } from '../errors.js';
import type { State } from './state.js';

/** A resource to apply, with a stable key (its pointer key) to diff by. */
export interface KeyedResource {
  readonly key: string;
  readonly resource: Draft;
}

/** What an apply changed, by key. */
export interface ApplyResult {
  readonly created: string[];
  readonly updated: string[];
  readonly tornDown: string[];
  readonly unchanged: string[];
}

/**
 * Makes the state hold `next`, given that it held `previous` before: creates what is new, updates
 * what changed (spec, labels, annotations; the user's resources have no owner) and tears down what
 * is gone (destroying it at once when nothing holds a finalizer on it). Only the differences are
 * written, so re-applying after a one-file edit costs in proportion to the edit.
 */
export async function applyResources(
  state: State,
  next: readonly KeyedResource[],
  previous: readonly KeyedResource[] = [],
): Promise<ApplyResult> {
  const result: ApplyResult = { created: [], updated: [], tornDown: [], unchanged: [] };
  const before = new Map(previous.map((p) => [p.key, p.resource]));
  const seen = new Set<string>();
  for (const { key, resource } of next) {
    seen.add(key);
    const old = before.get(key);
    if (old && sameContent(old, resource)) {
      result.unchanged.push(key);
      continue;
    }
    let current: Resource | undefined;
    try {
      current = await state.get(resource.metadata);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    if (!current) {
      await state.create(resource);
      result.created.push(key);
      continue;
    }
    const written = await state.updateWithConflicts(
      resource.metadata,
      (draft) => {
        draft.spec = resource.spec;
        draft.metadata.labels = { ...resource.metadata.labels };
        draft.metadata.annotations = { ...resource.metadata.annotations };
      },
      { expectedPhase: 'any' },
    );
    (written.metadata.version === current.metadata.version
      ? result.unchanged
      : result.updated
    ).push(key);
  }
  for (const { key, resource } of previous) {
    if (seen.has(key)) continue;
    try {
      const ready = await state.teardown(resource.metadata);
      if (ready) await state.destroy(resource.metadata);
      result.tornDown.push(key);
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }
  return result;
}

function sameContent(a: Draft, b: Draft): boolean {
  return resourceEqual(
    { metadata: { ...a.metadata, version: 0, finalizers: [] }, spec: a.spec },
    { metadata: { ...b.metadata, version: 0, finalizers: [] }, spec: b.spec },
  );
}
