import { isDeepStrictEqual } from 'node:util';
import { compareStrings } from '../engine/compare-strings.js';
import type { ResourceDefinition } from '../engine/resource/definition.js';
import { RESOURCE_DEFINITION_TYPE } from '../engine/resource/definition.js';
import type { KubernetesKindOf } from '../loaders/kubernetes/printed-owner-references.js';
import { projectKubernetesKinds } from './project-kubernetes-kinds.js';
import { pointerKey } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import type { TrackedSnapshot } from '../engine/state/snapshot-tracker.js';
import {
  selectResources,
  type QueriedState,
  type ResourceGroup,
  type ResourceQuery,
} from './resource-query.js';

/** How a selected resource changed, in kubectl's watch-event words. */
export type ResourceChangeType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One change of the resources a query selects: the resource as it is now (or was last). */
export interface ResourceChange {
  readonly type: ResourceChangeType;
  readonly resource: Resource;
  readonly definition: ResourceDefinition | undefined;
  /** The kinds of the owners its references name (see `ResourceGroup.ownerKinds`). */
  readonly ownerKinds?: KubernetesKindOf;
}

/**
 * Follows the resources a query selects (`cosi get TYPE -w`) from one state to the next and
 * says which were added, modified or deleted, as `kubectl get -w` prints them. A resource that
 * starts or stops matching (a label changed under `-l`) is added or deleted. Two versions that
 * differ only in their timestamps are the same (a project restarted on a fresh state writes the
 * same resources again). Costs what changed when told what changed, else one pass.
 */
export class SelectionChanges {
  readonly #query: ResourceQuery;
  /** What was last shown, by pointer key. */
  readonly #shown = new Map<string, Resource>();

  constructor(query: ResourceQuery) {
    this.#query = query;
  }

  /**
   * The selection of the first state, grouped as `cosi get` prints it; remembered.
   *
   * @throws ResourceQueryError for an unknown or ambiguous type.
   */
  start(from: QueriedState): ResourceGroup[] {
    const groups = selectResources(from, this.#query);
    this.#shown.clear();
    for (const group of groups) {
      for (const resource of group.resources)
        this.#shown.set(pointerKey(resource.metadata), resource);
    }
    return groups;
  }

  /**
   * What changed in a later watch round: from the snapshot's own list of changes when it has
   * one, else (after a restart) by comparing the whole selection with what was shown.
   */
  round(from: QueriedState & { readonly snapshot: TrackedSnapshot }): ResourceChange[] {
    const list = from.snapshot.changes?.list;
    const changes: ResourceChange[] = [];
    const add = (change: ResourceChange | undefined): void => {
      if (change) changes.push(change);
    };
    if (list) {
      for (const { before, after } of list) add(this.change(from, before, after));
      return changes;
    }
    const now = new Map<string, Resource>();
    for (const group of selectResources(from, this.#query)) {
      for (const resource of group.resources) now.set(pointerKey(resource.metadata), resource);
    }
    const keys = new Set([...this.#shown.keys(), ...now.keys()]);
    const sorted = [...keys]
      .map((key) => (now.get(key) ?? this.#shown.get(key)) as Resource)
      .sort(compareResources);
    for (const resource of sorted) {
      const key = pointerKey(resource.metadata);
      add(this.change(from, this.#shown.get(key), now.get(key)));
    }
    return changes;
  }

  /**
   * One resource went from `before` to `after` (absent: not there): the change of the selection
   * it makes, if any.
   */
  change(
    from: QueriedState,
    before: Resource | undefined,
    after: Resource | undefined,
  ): ResourceChange | undefined {
    const resource = after ?? before;
    if (resource === undefined) return undefined;
    const key = pointerKey(resource.metadata);
    const shown = this.#shown.get(key);
    const selected = after !== undefined && this.#selects(from, after);
    if (selected) {
      this.#shown.set(key, after);
      if (shown === undefined) return this.#changeOf(from, 'ADDED', after);
      if (isSameResource(shown, after)) return undefined;
      return this.#changeOf(from, 'MODIFIED', after);
    }
    if (shown === undefined) return undefined;
    this.#shown.delete(key);
    return this.#changeOf(from, 'DELETED', after ?? shown);
  }

  #selects(from: QueriedState, resource: Resource): boolean {
    const definition = resource.metadata.type === RESOURCE_DEFINITION_TYPE;
    const snapshot = {
      resources: definition ? [] : [resource],
      definitions: definition ? [resource] : [],
    };
    return selectResources({ project: from.project, snapshot }, this.#query).length > 0;
  }

  #changeOf(from: QueriedState, type: ResourceChangeType, resource: Resource): ResourceChange {
    return {
      type,
      resource,
      definition: from.project.registry.get(resource.metadata.type),
      ownerKinds: projectKubernetesKinds(from.project.registry, undefined),
    };
  }
}

/** Equal but for the timestamps. */
function isSameResource(a: Resource, b: Resource): boolean {
  if (a === b) return true;
  const { created: _c1, updated: _u1, ...left } = a.metadata;
  const { created: _c2, updated: _u2, ...right } = b.metadata;
  return isDeepStrictEqual(left, right) && isDeepStrictEqual(a.spec, b.spec);
}

function compareResources(a: Resource, b: Resource): number {
  return (
    compareStrings(a.metadata.type, b.metadata.type) ||
    compareStrings(a.metadata.namespace, b.metadata.namespace) ||
    compareStrings(a.metadata.id, b.metadata.id)
  );
}
