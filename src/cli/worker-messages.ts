import type { ManifestPlaces } from '../app/manifest-places.js';

/**
 * What crosses between `cosi` and the worker that runs a command on a project: the worker's
 * output, as text in the order it was written (the renderers run beside the run they print, so
 * what crosses is what is printed, not the run's state), its exit code at the end, and the
 * standard input on request.
 */
export type FromWorker =
  | { readonly kind: 'output'; readonly chunks: readonly OutputChunk[] }
  | { readonly kind: 'read-stdin' }
  | { readonly kind: 'done'; readonly exitCode: number }
  /** `watch` watches these files (absolute paths). */
  | { readonly kind: 'watching'; readonly roots: readonly string[] }
  /** Where the run's manifest resources are, once loaded: a fault on one is placed there. */
  | { readonly kind: 'manifest-places'; readonly places: ManifestPlaces };

/** Text written to one of the streams. */
export interface OutputChunk {
  readonly stream: 'stdout' | 'stderr';
  readonly text: string;
}

export type ToWorker =
  | { readonly kind: 'stdin'; readonly input: Uint8Array | string }
  /** The user asked a long-running command (`watch`) to stop. */
  | { readonly kind: 'interrupt' };

/** What the worker is started with. */
export interface CliWorkerData {
  readonly argv: readonly string[];
  readonly isTTY: boolean;
  readonly hasStdin: boolean;
}
