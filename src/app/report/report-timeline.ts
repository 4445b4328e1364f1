import type { RunRecord } from '../../engine/record/run-record.js';
import { shortenMessage } from '../../loaders/shorten.js';

/** One reconcile, or mapping of a changed input to items, on the run's timeline. */
export interface TimelineEntry {
  readonly seq: number;
  readonly controller: string;
  /**
   * Set for a mapping: a queue controller's `mapInput` (`map`) or a builder's watch handler
   * (`route`) turning a changed input into items to reconcile; not a reconcile, and not counted
   * among the run's reconciles.
   */
  readonly mapping?: 'map' | 'route';
  /** Virtual clock ms from the start of the first reconcile the record holds to its start. */
  readonly at: number;
  /** The item of a queue controller's reconcile: `namespace/type/id`. */
  readonly item?: string;
  /** `ok`, `skip`, `requeue`, `error`, `stopped`. */
  readonly outcome: string;
  readonly error?: string;
  readonly writes: number;
}

/** The reconciles of a recorded run, in order. */
export interface ReportTimeline {
  readonly entries: readonly TimelineEntry[];
  /** Of the entries: the reconciles (counted as the run's summary counts them) and the mappings. */
  readonly reconciles: number;
  readonly mappings: number;
  /** Reconciles left out: the oldest, dropped by the record's cap or the report's. */
  readonly dropped: number;
}

/** A report keeps the last this many reconciles: enough to see how a run ended. */
export const MAX_TIMELINE = 5_000;

/** The run's reconciles as a timeline, the newest {@link MAX_TIMELINE} of them. */
export function reportTimeline(record: RunRecord): ReportTimeline {
  const all = record.reconciles();
  const kept = all.slice(-MAX_TIMELINE);
  const start = all[0]?.startedAt ?? 0;
  const mappings = kept.filter((r) => r.job === 'map' || r.job === 'route').length;
  return {
    dropped: record.dropped + all.length - kept.length,
    reconciles: kept.length - mappings,
    mappings,
    entries: kept.map((r) => {
      const outcome = r.outcome?.kind ?? 'running';
      return {
        seq: r.seq,
        controller: r.controller,
        ...(r.job === 'map' || r.job === 'route' ? { mapping: r.job } : {}),
        at: r.startedAt - start,
        ...(r.item ? { item: `${r.item.namespace}/${r.item.type}/${r.item.id}` } : {}),
        outcome,
        ...(r.outcome?.kind === 'error' ? { error: shortenMessage(r.outcome.message) } : {}),
        writes: r.writes.length,
      };
    }),
  };
}
