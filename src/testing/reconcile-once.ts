/**
 * A single reconcile of one controller in a test project, in the shape of controller-runtime's
 * unit tests (`r.Reconcile(ctx, req)` over a fake client seeded with objects): the state as the
 * project holds it, one controller's code run once, and what it wrote and answered.
 */
import { pointerKey, type Pointer } from '../engine/resource/pointer.js';
import type { Resource } from '../engine/resource/resource.js';
import type { CodeLocation } from '../engine/runtime/error-record.js';

/**
 * What one reconcile did ({@link TestProject.reconcileOnce}): the resources it changed, each by
 * its pointer (`{ namespace, type, id }`, sorted by type, namespace and id), and what it answered.
 */
export interface ReconcileResult {
  /** The controller that ran. */
  readonly controller: string;
  /** The item a queue controller reconciled; absent for a whole-world controller's pass. */
  readonly item?: Pointer;
  /** Resources that were not in the state and now are. */
  readonly created: readonly Pointer[];
  /** Resources whose labels, annotations, finalizers, owner or spec changed (a new version). */
  readonly updated: readonly Pointer[];
  /** Resources it started tearing down (their phase `tearingDown` now). */
  readonly tornDown: readonly Pointer[];
  /** Resources it destroyed. */
  readonly destroyed: readonly Pointer[];
  /**
   * It asked to be run again: it threw a requeue (`requeueAfter(ms)`, a builder's
   * `{ requeue: true }`), or a whole-world controller called `queueReconcile()`.
   */
  readonly requeued: boolean;
  /** The delay of the requeue it asked for, ms (`requeueAfter(10_000)`: `10000`). */
  readonly requeueAfter?: number;
  /**
   * What it threw (not a requeue): a whole-world pass's errors in one, the message naming each
   * item. One still running after the project's `stallTimeout` is an error too (`code`
   * `'stalled'`).
   */
  readonly error?: Error;
  /** Where in the project's code `error` was thrown, as `cosi check` places it. */
  readonly location?: CodeLocation;
}

/** What a resource was before the reconcile, to tell what it changed. */
interface Seen {
  readonly version: number;
  readonly phase: string;
}

/** The state's resources by key, as {@link changesBetween} compares them. */
export function versionsOf(resources: readonly Resource[]): Map<string, Seen> {
  return new Map(
    resources.map((r) => [
      pointerKey(r.metadata),
      { version: r.metadata.version, phase: r.metadata.phase },
    ]),
  );
}

/** The resources created, updated, torn down and destroyed between two looks at the state. */
export function changesBetween(
  before: ReadonlyMap<string, Seen>,
  after: readonly Resource[],
): Pick<ReconcileResult, 'created' | 'updated' | 'tornDown' | 'destroyed'> {
  const created: Pointer[] = [];
  const updated: Pointer[] = [];
  const tornDown: Pointer[] = [];
  const present = new Set<string>();
  for (const r of after) {
    const { namespace, type, id } = r.metadata;
    const key = pointerKey(r.metadata);
    present.add(key);
    const was = before.get(key);
    if (was === undefined) created.push({ namespace, type, id });
    else if (was.phase !== r.metadata.phase) tornDown.push({ namespace, type, id });
    else if (was.version !== r.metadata.version) updated.push({ namespace, type, id });
  }
  const destroyed = [...before.keys()].filter((k) => !present.has(k)).map(pointerOfKey);
  return { created, updated, tornDown, destroyed };
}

function pointerOfKey(key: string): Pointer {
  const [namespace = '', type = '', id = ''] = key.split('\0');
  return { namespace, type, id };
}
