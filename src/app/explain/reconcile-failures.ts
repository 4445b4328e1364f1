import { compareStrings } from '../../engine/compare-strings.js';
import { pointerKey, type Pointer } from '../../engine/resource/pointer.js';
import type { RecordedReconcile } from '../../engine/record/run-record.js';
import type { ExplainIndex } from './explain-source.js';

/** How one controller's reconciles of a resource (the resource as its queue item) failed. */
export interface ReconcileFailure {
  readonly controller: string;
  /** Its reconciles of the resource, and how many of them failed. */
  readonly attempts: number;
  readonly failed: number;
  /** The sequence numbers of those that failed, oldest first. */
  readonly reconciles: readonly number[];
  /** The last failure's error. */
  readonly message: string;
  /** The last failure was terminal: not retried. */
  readonly terminal?: true;
  /** The controller gave the resource up: it failed until the attempt bound. */
  readonly gaveUp?: true;
  /** Its last reconcile of the resource succeeded: the failures are past. */
  readonly recovered?: true;
}

/**
 * Each controller whose reconciles of `pointer` (as their queue item) failed, with the last
 * error: why a resource that exists is not as it should be (a kro instance whose render failed, an
 * item a controller kept failing on), which its lineage and history of writes do not show.
 */
export function reconcileFailures(index: ExplainIndex, pointer: Pointer): ReconcileFailure[] {
  const key = pointerKey(pointer);
  const byController = new Map<string, RecordedReconcile[]>();
  for (const r of index.record.reconciles()) {
    if (r.job !== 'reconcile' || r.item === undefined || pointerKey(r.item) !== key) continue;
    const list = byController.get(r.controller);
    if (list) list.push(r);
    else byController.set(r.controller, [r]);
  }
  const failures: ReconcileFailure[] = [];
  for (const [controller, reconciles] of byController) {
    const failed = reconciles.filter((r) => r.outcome?.kind === 'error');
    const lastFailure = failed.at(-1)?.outcome;
    if (lastFailure?.kind !== 'error') continue;
    const last = reconciles.at(-1)?.outcome;
    const report = index.source.report?.controllers.find((c) => c.name === controller);
    const gaveUp =
      lastFailure.gaveUp === true ||
      (last?.kind === 'error' &&
        lastFailure.terminal !== true &&
        report?.condition === 'failed' &&
        report.failingItems.some((i) => pointerKey(i.pointer) === key));
    failures.push({
      controller,
      attempts: reconciles.length,
      failed: failed.length,
      reconciles: failed.map((r) => r.seq),
      message: lastFailure.message,
      ...(lastFailure.terminal === true ? { terminal: true as const } : {}),
      ...(gaveUp ? { gaveUp: true as const } : {}),
      ...(last?.kind === 'ok' || last?.kind === 'skip' ? { recovered: true as const } : {}),
    });
  }
  return failures.sort((a, b) => compareStrings(a.controller, b.controller));
}
