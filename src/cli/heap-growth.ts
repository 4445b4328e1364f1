import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

/**
 * The heap growth step of the `cosi` process, in percent: V8's own conservative factor (1.3), the
 * one it takes when memory is short.
 *
 * V8 sizes the heap at each full collection to a multiple of what is live, up to 4x on a machine
 * with memory to spare (its maximum heap is then large). A cosi run holds a store that only grows
 * and makes most of its garbage while converging, garbage that outlives the young generation: on
 * a 24 GB machine `cosi apply` of 50,000 resources held about 90 MB live and peaked at 340 MB of
 * RSS, no full collection running between the end of the load and the end of converge. At 1.3x
 * the peak was about 250 MB for some 5% more time. A long-running `cosi run` or `cosi watch` is
 * better off with the smaller heap too.
 */
export const COSI_HEAP_GROWING_PERCENT = 30;

const FLAG = 'heap-growing-percent';

let limitedHere = false;

/**
 * Whether this thread set the heap growth step ({@link limitHeapGrowth}), changing V8's flags: a
 * code cache made afterwards is one V8 refuses in the next run, which starts with them unchanged
 * (see `cached-script.ts`).
 */
export function heapGrowthLimited(): boolean {
  return limitedHere;
}

/**
 * Whether the user chose a growth step already, on node's command line or in `NODE_OPTIONS`
 * (V8 accepts the flag with dashes or underscores).
 */
export function userChoseHeapGrowth(execArgv: readonly string[], nodeOptions: string): boolean {
  const named = (arg: string): boolean =>
    arg
      .replaceAll('_', '-')
      .replace(/^--(no-)?/, '')
      .startsWith(FLAG);
  return execArgv.some(named) || nodeOptions.split(/\s+/).some(named);
}

/**
 * Sets the process's heap growth step to {@link COSI_HEAP_GROWING_PERCENT}, unless the user chose
 * one; returns whether it did. V8 reads the flag at every full collection, so setting it once
 * the process runs takes effect from the next one.
 */
export function limitHeapGrowth(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string = process.env.NODE_OPTIONS ?? '',
  // Node's `v8` module is loaded when the flag is set, not as the CLI starts.
  setFlags: (flags: string) => void = (flags) =>
    process.getBuiltinModule('node:v8').setFlagsFromString(flags),
): boolean {
  if (userChoseHeapGrowth(execArgv, nodeOptions)) return false;
  setFlags(`--${FLAG}=${COSI_HEAP_GROWING_PERCENT}`);
  limitedHere = true;
  return true;
}

/** A `gc` performance entry: Node puts the collection's kind in its detail. */
type GcEntry = PerformanceEntry & { readonly detail?: { readonly kind?: number } | null };

/** What {@link limitHeapGrowthOnceCollected} started. */
export interface HeapGrowthWatch {
  /** Whether this watch set the flag (V8's flags are the process's, every thread's). */
  readonly limited: () => boolean;
  /** Stops watching; a flag already set stays set. */
  readonly stop: () => void;
}

/**
 * Sets the heap growth step ({@link limitHeapGrowth}) at the thread's first full collection,
 * not at start: a V8 flag changed once the process runs no longer matches the one its built-in
 * code caches were made with, so every module Node compiles afterwards (all a worker thread
 * loads as it starts, some 40 ms) is compiled from its source. A small command never has a full
 * collection and never pays it; a large one has its first while it loads, and the step counts
 * from the next.
 */
export function limitHeapGrowthOnceCollected(
  limit: () => boolean = limitHeapGrowth,
): HeapGrowthWatch {
  let limited = false;
  const observer = new PerformanceObserver((list) => {
    const full = list
      .getEntries()
      .some((entry) => (entry as GcEntry).detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR);
    if (!full) return;
    observer.disconnect();
    limited = limit();
  });
  observer.observe({ entryTypes: ['gc'] });
  return { limited: () => limited, stop: () => observer.disconnect() };
}
