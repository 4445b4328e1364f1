import { compareStrings } from '../../../engine/compare-strings.js';
import { kubernetesFieldPointer } from '../../../loaders/kubernetes/kubernetes-field-pointer.js';
import { formatPointer } from '../../../engine/resource/pointer.js';
import {
  formatVersionRef,
  versionKey,
  type RecordedReconcile,
  type RunRecord,
} from '../../../engine/record/run-record.js';

/** One event of the Chrome Trace Event format (the fields cosi writes). */
export interface TraceEvent {
  readonly name: string;
  readonly ph: 'X' | 's' | 'f' | 'C' | 'M';
  readonly pid: number;
  readonly tid?: number;
  /** Microseconds. */
  readonly ts?: number;
  readonly dur?: number;
  readonly cat?: string;
  readonly id?: number;
  readonly bp?: 'e';
  readonly args?: Record<string, unknown>;
}

/** A trace file: opens in Perfetto (ui.perfetto.dev) and chrome://tracing. */
export interface ChromeTrace {
  readonly traceEvents: readonly TraceEvent[];
  readonly displayTimeUnit: 'ms';
  readonly otherData: { readonly clock: 'logical' | 'wall'; readonly truncated: boolean };
}

export interface ChromeTraceOptions {
  /**
   * Logical times: 10 µs per start or end of a reconcile, in the order they happened, so the file
   * is the same on every run (a golden file). Otherwise wall-clock times, when the record has
   * them.
   */
  readonly stable?: boolean;
  /**
   * Whether a type's resources are Kubernetes objects: the fields their writes changed are named
   * as the object's document has them (`/spec/replicas`, `/status/conditions`, `/data/a`), as
   * `cosi explain` names them, not by cosi's `{ metadata, spec }` holder (`/spec/spec/replicas`).
   */
  readonly isKubernetesType?: (type: string) => boolean;
}

const PID = 1;
const TICK_US = 10;

/**
 * The record of a run as a Chrome trace: one track per controller (more when a queue
 * controller ran reconciles at once, so slices on a track always nest), one slice per reconcile
 * named by its item, a flow arrow from each write to each reconcile it triggered that read that
 * version, and a queue-depth counter per queue controller.
 */
export function toChromeTrace(record: RunRecord, options: ChromeTraceOptions = {}): ChromeTrace {
  const reconciles = record.reconciles();
  const wall = options.stable !== true && reconciles.every((r) => r.wallStart !== undefined);
  const origin = wall ? Math.min(...reconciles.map((r) => r.wallStart ?? 0)) : 0;
  const start = (r: RecordedReconcile): number =>
    wall ? Math.round(((r.wallStart ?? 0) - origin) * 1000) : r.startTick * TICK_US;
  const end = (r: RecordedReconcile): number =>
    Math.max(start(r), wall ? Math.round(((r.wallEnd ?? 0) - origin) * 1000) : r.endTick * TICK_US);

  const kubernetes = new Map<string, boolean>();
  const documentFields = (type: string, fields: readonly string[]): readonly string[] => {
    let isKubernetes = kubernetes.get(type);
    if (isKubernetes === undefined) {
      isKubernetes = options.isKubernetesType?.(type) === true;
      kubernetes.set(type, isKubernetes);
    }
    return isKubernetes ? fields.map(kubernetesFieldPointer) : fields;
  };
  const tids = assignTracks(reconciles, start, end);
  const events: TraceEvent[] = [
    { name: 'process_name', ph: 'M', pid: PID, args: { name: 'cosi run' } },
  ];
  for (const [tid, name] of [...tids.names].sort(([a], [b]) => a - b)) {
    events.push({ name: 'thread_name', ph: 'M', pid: PID, tid, args: { name } });
    events.push({ name: 'thread_sort_index', ph: 'M', pid: PID, tid, args: { sort_index: tid } });
  }
  for (const r of reconciles) {
    events.push({
      name: r.item ? formatPointer(r.item) : r.controller,
      cat: r.job,
      ph: 'X',
      pid: PID,
      tid: tids.of.get(r.seq),
      ts: start(r),
      dur: end(r) - start(r),
      args: {
        seq: r.seq,
        outcome: r.outcome ?? { kind: 'running' },
        triggers: r.triggers.map(formatVersionRef),
        reads: r.reads.map(formatVersionRef),
        writes: r.writes.map((w) => ({
          resource: formatVersionRef(w),
          op: w.op,
          fields: documentFields(w.type, w.fields),
        })),
        ...(r.mapped ? { mapped: r.mapped.map(formatPointer) } : {}),
      },
    });
    if (r.queueDepth !== undefined) {
      events.push({
        name: `queue ${r.controller}`,
        ph: 'C',
        pid: PID,
        ts: start(r),
        args: { depth: r.queueDepth },
      });
    }
  }
  // A flow from the write to each reconcile that it triggered and that read that very version.
  let flow = 0;
  for (const r of reconciles) {
    const read = new Set(r.reads.map(versionKey));
    for (const trigger of r.triggers) {
      if (!read.has(versionKey(trigger))) continue;
      const writer = record.writeOf(trigger)?.reconcile;
      if (!writer || writer.seq === r.seq) continue;
      flow++;
      const at = Math.min(end(writer), start(r));
      const name = formatVersionRef(trigger);
      events.push(
        {
          name,
          cat: 'write',
          ph: 's',
          id: flow,
          pid: PID,
          tid: tids.of.get(writer.seq),
          ts: Math.max(at, start(writer)),
        },
        {
          name,
          cat: 'write',
          ph: 'f',
          bp: 'e',
          id: flow,
          pid: PID,
          tid: tids.of.get(r.seq),
          ts: start(r),
        },
      );
    }
  }
  return {
    traceEvents: events,
    displayTimeUnit: 'ms',
    otherData: { clock: wall ? 'wall' : 'logical', truncated: record.truncated },
  };
}

/**
 * A thread id per track: each controller's reconciles go on its first track that is free at their
 * start, so reconciles that overlapped (concurrency) get tracks of their own.
 */
function assignTracks(
  reconciles: readonly RecordedReconcile[],
  start: (r: RecordedReconcile) => number,
  end: (r: RecordedReconcile) => number,
): { of: Map<number, number>; names: Map<number, string> } {
  const controllers = [...new Set(reconciles.map((r) => r.controller))].sort(compareStrings);
  const lanes = new Map<string, { tid: number; freeAt: number }[]>();
  const names = new Map<number, string>();
  for (const controller of controllers) lanes.set(controller, []);
  const of = new Map<number, number>();
  // Tracks are numbered by controller name first, so the ids do not depend on timing.
  const firstTid = new Map(controllers.map((c, i) => [c, (i + 1) * 1000]));
  for (const r of reconciles) {
    const list = lanes.get(r.controller) as { tid: number; freeAt: number }[];
    let lane = list.find((l) => l.freeAt <= start(r));
    if (!lane) {
      lane = { tid: (firstTid.get(r.controller) as number) + list.length, freeAt: 0 };
      names.set(lane.tid, list.length === 0 ? r.controller : `${r.controller} #${list.length + 1}`);
      list.push(lane);
    }
    lane.freeAt = end(r);
    of.set(r.seq, lane.tid);
  }
  return { of, names };
}
