import { pointerKey, type Pointer } from '../../engine/resource/pointer.js';
import {
  type RecordedReconcile,
  type RecordedWrite,
  type VersionRef,
} from '../../engine/record/run-record.js';
import type { ExplainIndex } from './explain-source.js';

/** One write of a cycle: a controller wrote these fields, woken by the previous step's write. */
export interface CycleStep {
  readonly controller: string;
  readonly seq: number;
  readonly wrote: VersionRef;
  readonly fields: readonly string[];
  /** The write of the step before that woke this one (resource@version). */
  readonly triggeredBy?: VersionRef;
}

/**
 * The cycle of writes that keeps `pointer` changing, read backwards from its last write: the
 * reconcile that made it, the write that triggered that reconcile, the reconcile that made that
 * one, ... until a controller writes a resource it wrote before in the chain. Oldest step first,
 * so it reads "A wrote x, which triggered B, which wrote y, which triggered A". Empty when the
 * last write was not part of a cycle (or the record does not reach back far enough).
 */
export function writeCycle(index: ExplainIndex, pointer: Pointer): CycleStep[] {
  const last = index.record.writesTo(pointer).at(-1);
  if (!last) return [];
  const chain: { reconcile: RecordedReconcile; write: RecordedWrite; trigger?: VersionRef }[] = [];
  const seen = new Map<string, number>();
  let current: { reconcile: RecordedReconcile; write: RecordedWrite } | undefined = last;
  while (current) {
    const step = `${current.reconcile.controller}\0${pointerKey(current.write)}`;
    const at = seen.get(step);
    if (at !== undefined) {
      // The chain came back to a step it already holds: from there on is the cycle.
      return chain
        .slice(at)
        .reverse()
        .map((s) => ({
          controller: s.reconcile.controller,
          seq: s.reconcile.seq,
          wrote: toRef(s.write),
          fields: s.write.fields.map((field) => index.documentField(s.write, field)),
          ...(s.trigger ? { triggeredBy: s.trigger } : {}),
        }));
    }
    seen.set(step, chain.length);
    const trigger = writtenTrigger(index, current.reconcile);
    chain.push({ ...current, ...(trigger ? { trigger: trigger.ref } : {}) });
    current = trigger?.found;
  }
  return [];
}

/** The trigger of a reconcile that a recorded write made, preferring another controller's. */
function writtenTrigger(
  index: ExplainIndex,
  reconcile: RecordedReconcile,
): { ref: VersionRef; found: { reconcile: RecordedReconcile; write: RecordedWrite } } | undefined {
  let fallback:
    { ref: VersionRef; found: { reconcile: RecordedReconcile; write: RecordedWrite } } | undefined;
  for (const ref of [...reconcile.triggers].reverse()) {
    const found = index.record.writeOf(ref);
    if (!found) continue;
    if (found.reconcile.controller !== reconcile.controller) return { ref, found };
    fallback ??= { ref, found };
  }
  return fallback;
}

function toRef(write: RecordedWrite): VersionRef {
  const { namespace, type, id, version } = write;
  return { namespace, type, id, version };
}
